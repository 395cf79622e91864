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

type NameValue = { name: string; value: string };

/** A HAR entry as another tool writes it: a GET of `url` answered 200 with JSON `text`. */
function foreignEntry(url: string, o: { headers?: NameValue[]; queryString?: NameValue[]; text?: string }) {
  const text = o.text ?? '[]';
  return {
    startedDateTime: '2024-01-01T00:00:00.000Z',
    time: 1,
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
    request: {
      method: 'GET',
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: o.headers ?? [],
      queryString: o.queryString ?? [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      content: { size: text.length, mimeType: 'application/json', text },
      redirectURL: '',
      headersSize: -1,
      bodySize: text.length,
    },
  };
}

function foreignHar(...entries: unknown[]) {
  return { log: { version: '1.2', creator: { name: 'browser', version: '1' }, entries } };
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

  it("a query value is read from the entry's URL, as the recorder reads it, whether queryString kept it encoded or not", () => {
    // An id that needs percent-encoding (the mock's 'reserved' format); a browser's queryString keeps it as sent.
    const id = 'customer 100001+ä&x=%/#?:';
    const url = `https://api.example.invalid/apis/v0/billingGroups?customerId=${encodeURIComponent(id)}&start=2024-01-01`;
    const entry = (value: string) =>
      foreignEntry(url, {
        queryString: [
          { name: 'customerId', value },
          { name: 'start', value: '2024-01-01' },
        ],
      });
    const { exchanges } = harToCassette(
      foreignHar(entry(encodeURIComponent(id)), entry(id)),
      'b.har',
      new Redactor([]),
    );
    for (const e of exchanges) assert.deepEqual(e.request.query, { customerId: id, start: '2024-01-01' });
  });

  it('import redacts secrets a foreign HAR carries', () => {
    const har = foreignHar(
      foreignEntry(`https://api.example.invalid/apis/v0/offers/x?token=${TOKEN}`, {
        headers: [
          { name: 'Authorization', value: `Bearer ${TOKEN}` },
          { name: 'X-Trace', value: 't' },
        ],
        queryString: [{ name: 'token', value: TOKEN }],
        text: JSON.stringify([{ id: TOKEN }]),
      }),
    );
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
