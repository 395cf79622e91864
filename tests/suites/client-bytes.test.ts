/**
 * The suites' client sends a body's bytes exactly as the check wrote them, and
 * tells from the raw bytes of an answer whether it began with a byte-order mark
 * (decoding hides one; json-content-type judges it). (Playwright's request context, used
 * before, JSON-encoded a string body it could not parse when the content type was JSON, so a malformed-JSON probe
 * arrived as a valid JSON string literal and the no-5xx / bad-input checks never sent malformed JSON at all.)
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { Agent } from 'undici';
import { FlisClient } from '../../core/client.ts';
import { testTarget } from './test-target.ts';

const received: string[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push(Buffer.concat(chunks).toString('utf8'));
    if (req.url?.endsWith('/bom')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.from('\uFEFF{"id":"ü"}', 'utf8'));
      return;
    }
    res.writeHead(400, { 'content-type': 'application/json' }).end('{}');
  });
});
let baseUrl = '';
before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/apis/v0`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('malformed JSON, JSON and text bodies arrive byte for byte', async () => {
  const agent = new Agent();
  try {
    const api = new FlisClient(agent, testTarget(baseUrl));
    const bodies = ['{"offer": {"quantity": 3,', '{"ok":true}', 'not json at all', '"a string"', 'ünïcödé {'];
    for (const raw of bodies) await api.send('post', '/offers', { raw });
    await api.send('post', '/offers', { json: { offer: { quantity: 1 } } });
    assert.deepEqual(received, [...bodies, '{"offer":{"quantity":1}}']);
  } finally {
    await agent.close();
  }
});

test('an answer beginning with a UTF-8 byte-order mark is flagged; its text and JSON are read without it', async () => {
  const agent = new Agent();
  try {
    const api = new FlisClient(agent, testTarget(baseUrl));
    const marked = await api.send('get', '/bom');
    assert.equal(marked.response.bom, true);
    assert.equal(marked.response.text, '{"id":"ü"}');
    assert.deepEqual(marked.response.body, { id: 'ü' });
    const plain = await api.send('post', '/offers', { raw: '{}' });
    assert.equal(plain.response.bom, undefined, 'no mark, no flag');
  } finally {
    await agent.close();
  }
});
