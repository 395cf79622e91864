/**
 * HAR 1.2: the export of a recorded cassette validates against the HAR 1.2
 * schema, and importing it back gives the same exchanges.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readCassette } from '../../recorder/cassette-reader.ts';
import { writeCassette } from '../../recorder/cassette-writer.ts';
import { exchangePlain } from '../../recorder/cassette-yaml.ts';
import { cassetteToHar, harToCassette } from '../../recorder/har.ts';
import { exportHarFile } from '../../recorder/har-file.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { Redactor } from '../../recorder/redact.ts';
import { call, startUpstream, tempDir, TOKEN } from './helpers.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const harSchema = JSON.parse(
  readFileSync(new URL('./fixtures/har-1.2.schema.json', import.meta.url), 'utf8'),
) as object;

function harValidator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  return ajv.compile(harSchema);
}

describe('HAR 1.2 export and import', () => {
  const tmp = tempDir();
  const cassette = tmp.file('har-source.yaml');

  before(async () => {
    const up = await startUpstream();
    const rec = await startRecorder({
      mode: 'record',
      cassette,
      upstream: { baseUrl: up.baseUrl, deployment: 'mock' },
      env: { FLIS_TOKEN: TOKEN },
    });
    await call(rec.baseUrl, '/offers/o-1?start=2024-01-01T00:00:00Z&tag=a&tag=b');
    await call(rec.baseUrl, '/offers', { method: 'POST', body: { offer: { quantity: 'not a number' } } });
    await call(rec.baseUrl, '/text');
    await call(rec.baseUrl, '/binary');
    await call(rec.baseUrl, '/fail');
    await rec.close();
    await up.close();
  });
  after(() => tmp.cleanup());

  it('exports a HAR that validates against the HAR 1.2 schema', () => {
    const har = cassetteToHar(readCassette(cassette));
    const validate = harValidator();
    assert.equal(validate(har), true, JSON.stringify(validate.errors, null, 2));
    assert.equal(har.log.entries.length, 5);
    const first = har.log.entries[0]!;
    assert.match(first.request.url, /^http:\/\/127\.0\.0\.1:\d+\/apis\/v0\/offers\/o-1\?/);
    assert.deepEqual(first.request.queryString, [
      { name: 'start', value: '2024-01-01T00:00:00Z' },
      { name: 'tag', value: 'a' },
      { name: 'tag', value: 'b' },
    ]);
    assert.equal(har.log.entries[3]!.response.content.encoding, 'base64');
  });

  it('export-har writes the same HAR exchange by exchange, and a failure leaves an existing file as it was', () => {
    const out = tmp.file('streamed.har');
    assert.equal(exportHarFile(cassette, out), 5);
    const streamed = JSON.parse(readFileSync(out, 'utf8')) as unknown;
    assert.deepEqual(streamed, JSON.parse(JSON.stringify(cassetteToHar(readCassette(cassette)))));
    const torn = tmp.file('torn.yaml');
    writeFileSync(torn, `${readFileSync(cassette, 'utf8')}---\nseq: 99\n`);
    assert.throws(
      () => exportHarFile(torn, out),
      (e: NodeJS.ErrnoException) => e.code === 'FLIS_ERR_CASSETTE_PARSE',
    );
    assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), streamed);
    assert.deepEqual(
      readdirSync(tmp.file('.')).filter((f) => f.endsWith('.tmp')),
      [],
      'no temp file left behind',
    );
  });

  it('the schema test can fail: a HAR missing a required field is refused', () => {
    const har = cassetteToHar(readCassette(cassette)) as unknown as { log: { entries: { timings?: unknown }[] } };
    delete har.log.entries[0]!.timings;
    assert.equal(harValidator()(har), false);
  });

  it('imports the exported HAR back into the same exchanges', () => {
    const source = readCassette(cassette);
    const har = JSON.parse(JSON.stringify(cassetteToHar(source))) as unknown;
    const { header, exchanges } = harToCassette(har, 'x.har', new Redactor([]));
    const back = tmp.file('har-back.yaml');
    writeCassette(back, header, exchanges, []);
    const again = readCassette(back);
    assert.deepEqual(again.header, source.header);
    assert.deepEqual(again.exchanges.map(exchangePlain), source.exchanges.map(exchangePlain));
    assert.ok(
      source.exchanges[1]!.violations.some((v) => v.check === 'request-schema'),
      'violations ride along',
    );
  });

  it('import redacts secrets a foreign HAR carries', () => {
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'browser', version: '1' },
        entries: [
          {
            startedDateTime: '2024-01-01T00:00:00.000Z',
            time: 1,
            cache: {},
            timings: { send: 0, wait: 1, receive: 0 },
            request: {
              method: 'GET',
              url: `https://api.example.invalid/apis/v0/offers/x?token=${TOKEN}`,
              httpVersion: 'HTTP/1.1',
              cookies: [],
              headers: [
                { name: 'Authorization', value: `Bearer ${TOKEN}` },
                { name: 'X-Trace', value: 't' },
              ],
              queryString: [{ name: 'token', value: TOKEN }],
              headersSize: -1,
              bodySize: 0,
            },
            response: {
              status: 200,
              statusText: 'OK',
              httpVersion: 'HTTP/1.1',
              cookies: [],
              headers: [{ name: 'Content-Type', value: 'application/json' }],
              content: { size: 10, mimeType: 'application/json', text: JSON.stringify([{ id: TOKEN }]) },
              redirectURL: '',
              headersSize: -1,
              bodySize: 10,
            },
          },
        ],
      },
    };
    const redactor = new Redactor([{ label: 'FLIS_TOKEN', value: TOKEN }]);
    const { header, exchanges } = harToCassette(har, 'foreign.har', redactor);
    const file = tmp.file('foreign.yaml');
    writeCassette(file, header, exchanges, redactor.forms);
    const text = readFileSync(file, 'utf8');
    assert.equal(text.includes(TOKEN), false);
    const [e] = readCassette(file).exchanges;
    assert.equal(e!.request.path, '/offers/x');
    assert.equal(e!.operationId, 'getOffer');
    assert.deepEqual(e!.request.headers, { authorization: 'Bearer [REDACTED]' });
    assert.deepEqual(e!.response.body?.value, [{ id: '[REDACTED]' }]);
  });
});
