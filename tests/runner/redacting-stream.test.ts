/**
 * The runner redacts the test runner's output whatever the pipe's chunking (runner/redacting-stream.ts): a token
 * written across a chunk boundary is still redacted, and a multi-byte character split across chunks arrives whole.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { pipeRedacted, RedactingWriter } from '../../runner/redacting-stream.ts';

const TOKEN = 'tok_9fKq2LmZx81Pw0aa';

function through(chunks: Buffer[], secrets = [TOKEN]): string {
  let out = '';
  const w = new RedactingWriter(secrets, (t) => (out += t));
  for (const c of chunks) w.push(c);
  w.end();
  return out;
}

/** `text` cut at every byte offset into two chunks. */
function everySplit(text: string): Buffer[][] {
  const bytes = Buffer.from(text, 'utf8');
  return Array.from({ length: bytes.length + 1 }, (_, i) => [bytes.subarray(0, i), bytes.subarray(i)]);
}

test('a token written across a chunk boundary is redacted, at every boundary', () => {
  const line = `  sent: GET /offers  authorization: Bearer ${TOKEN}  ·°·\n`;
  for (const chunks of everySplit(line)) {
    const out = through(chunks);
    assert.ok(!out.includes(TOKEN), `split at ${chunks[0]!.length}: ${out}`);
    assert.equal(out, '  sent: GET /offers  authorization: Bearer [REDACTED]  ·°·\n');
  }
});

test('its percent-encoded and base64 forms are redacted across a boundary too', () => {
  const encoded = encodeURIComponent(`${TOKEN}`).replace(/_/g, '%5F');
  const basic = Buffer.from(`user:${TOKEN}`).toString('base64');
  for (const chunks of everySplit(`q=${encoded} basic ${basic}\n`)) {
    const out = through(chunks);
    assert.ok(!out.includes(encoded) && !out.includes(TOKEN), out);
    assert.ok(!out.includes(basic), out);
  }
});

test('a multi-byte character split across chunks arrives whole', () => {
  const text = 'certificate ✓ für Überseefracht — 运输 🚚\n';
  for (const chunks of everySplit(text)) assert.equal(through(chunks), text);
});

test('progress passes at once: only a run that could start a secret waits', () => {
  const seen: string[] = [];
  const w = new RedactingWriter([TOKEN], (t) => seen.push(t));
  w.push(Buffer.from('··×·'));
  assert.deepEqual(seen, ['··×·']);
  w.push(Buffer.from(' Bearer tok_9f'));
  assert.deepEqual(seen, ['··×·', ' Bearer ']);
  w.push(Buffer.from('Kq2LmZx81Pw0aa\n'));
  assert.equal(seen.join(''), '··×· Bearer [REDACTED]\n');
});

test('pipeRedacted flushes what is held when the stream ends', async () => {
  const stream = new PassThrough();
  let out = '';
  pipeRedacted(stream, [TOKEN], (t) => (out += t));
  stream.write(Buffer.from(`done ${TOKEN.slice(0, 7)}`));
  stream.end(Buffer.from(TOKEN.slice(7)));
  await new Promise((done) => stream.on('end', done));
  assert.equal(out, 'done [REDACTED]');
});
