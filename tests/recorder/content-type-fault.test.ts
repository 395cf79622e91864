/**
 * One fault, one failure in the recorder's contract check: a valid JSON body
 * sent as text/plain is write-content-type's finding alone; request-schema
 * does not add "got text that is not JSON". A wrong value in such a body is a
 * fault of its own and still found.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startMock } from '../../mock/server.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { call, tempDir, TOKEN } from './helpers.ts';

async function checksOf(bodies: unknown[]): Promise<string[][]> {
  const tmp = tempDir();
  const mock = await startMock({ token: TOKEN });
  // Each violation line names its exchange's path (PUT /offers/ct-N → …): checks are told apart by it.
  const seen = new Map<number, string[]>();
  const rec = await startRecorder({
    mode: 'passthrough',
    cassette: tmp.file('unused.yaml'),
    upstream: { baseUrl: mock.baseUrl, deployment: 'embedded' },
    env: { FLIS_TOKEN: TOKEN },
    log: (line, kind) => {
      const n = Number(/\/offers\/ct-(\d+) /.exec(line)?.[1]);
      if (kind === 'violation') seen.set(n, [...(seen.get(n) ?? []), /\[([\w-]+)\]/.exec(line)?.[1] ?? line]);
    },
  });
  try {
    for (const [i, body] of bodies.entries())
      await call(rec.baseUrl, `/offers/ct-${i + 1}`, {
        method: 'PUT',
        body: JSON.stringify(body),
        headers: { 'content-type': 'text/plain' },
      });
    // Closing checks what is still queued (the check runs after each answer).
    await rec.close();
  } finally {
    await mock.close();
    tmp.cleanup();
  }
  return bodies.map((_, i) => seen.get(i + 1) ?? []);
}

test('a valid JSON body sent as text/plain is one finding, write-content-type; a bad value in it is one more', async () => {
  const [valid, wrong] = await checksOf([{ offer: { quantity: 3 } }, { offer: { quantity: 'three' } }]);
  assert.deepEqual(valid, ['write-content-type']);
  assert.deepEqual(wrong, ['write-content-type', 'request-schema']);
});
