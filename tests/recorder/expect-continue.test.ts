/**
 * Issue 9 item 3: a request carrying `Expect: 100-continue` goes through the
 * recorder. curl sends that header on its own for any body over 1 MB, so the
 * real curl binary posts a 2 MB body with its default behaviour.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { readCassette } from '../../recorder/cassette-reader.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { startUpstream, tempDir, TOKEN } from './helpers.ts';

const run = promisify(execFile);

describe('Expect: 100-continue', () => {
  it("curl's default 2 MB upload passes through, the upstream gets the whole body, the exchange is recorded", async () => {
    const tmp = tempDir();
    let upstreamSawExpect: string | undefined = 'not called';
    const up = await startUpstream((req, res, body) => {
      upstreamSawExpect = req.headers.expect;
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ received: body.length }));
    });
    const cassette = tmp.file('expect.yaml');
    const rec = await startRecorder({
      mode: 'record',
      cassette,
      upstream: { baseUrl: up.baseUrl, deployment: null },
      env: { FLIS_TOKEN: TOKEN },
    });
    try {
      const file = tmp.file('body.bin');
      writeFileSync(file, Buffer.alloc(2 * 1024 * 1024, 'x'));
      const { stdout, stderr } = await run(
        '/usr/bin/curl',
        [
          '-sS',
          '-v',
          '--max-time',
          '60',
          '-H',
          `authorization: Bearer ${TOKEN}`,
          '-H',
          'content-type: application/octet-stream',
          '--data-binary',
          `@${file}`,
          '-w',
          '\n%{http_code}',
          `${rec.baseUrl}/offers/upload`,
        ],
        { maxBuffer: 16 * 1024 * 1024 },
      );
      assert.match(stderr, /^> Expect: 100-continue/im, 'curl sent Expect: 100-continue by default');
      assert.match(stderr, /^< HTTP\/1\.1 100 Continue/im, 'the recorder answered 100 Continue');
      const [body, code] = stdout.split('\n');
      assert.equal(code, '201');
      assert.deepEqual(JSON.parse(body!), { received: 2 * 1024 * 1024 });
      assert.equal(upstreamSawExpect, undefined, 'the body was forwarded without the Expect header');
      const [e] = readCassette(cassette).exchanges;
      assert.equal(e?.response.status, 201);
      assert.equal(e?.request.body?.size, 2 * 1024 * 1024);
    } finally {
      await rec.close();
      await up.close();
      tmp.cleanup();
    }
  });
});
