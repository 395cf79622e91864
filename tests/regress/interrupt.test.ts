/**
 * Interrupting a regress that wrote leaves nothing of its writes behind: the run is stopped (as Ctrl-C stops it)
 * right after the target answered the partner's second write, through a real loopback proxy in front of the mock
 * that watches the traffic; then every offer the run wrote reads cancelled.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { request } from 'undici';
import { startMock } from '../../mock/server.ts';
import { recordPartners } from '../../bench/partner-clients.ts';
import { regress, tempDir } from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());

const TOKEN = 'run-token-Int3rRupt9Qw2Er5T';

interface Watched {
  baseUrl: string;
  /** Write paths the target answered 2xx, and the ids it minted. */
  written: string[];
  minted: string[];
  close(): Promise<void>;
}

/** A loopback proxy to `upstream` that calls `onWrite` once the target has answered the n-th write. */
async function watchingProxy(upstream: string, n: number, onWrite: () => void): Promise<Watched> {
  const written: string[] = [];
  const minted: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const target = new URL(upstream);
    const up = await request(`${target.origin}${req.url}`, {
      method: req.method as 'GET',
      headers: Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => ['authorization', 'content-type', 'accept'].includes(k)),
      ) as Record<string, string>,
      ...(body.length ? { body } : {}),
    });
    const text = await up.body.text();
    res.writeHead(up.statusCode, { 'content-type': String(up.headers['content-type'] ?? 'application/json') });
    res.end(text);
    if (req.method !== 'GET' && up.statusCode < 300) {
      written.push(`${req.method} ${req.url}`);
      const id = text ? (JSON.parse(text) as { id?: unknown }).id : undefined;
      if (typeof id === 'string') minted.push(id);
      if (written.length === n) onWrite();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/apis/v0`,
    written,
    minted,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

it('an interrupted regress undoes every write it made', async () => {
  const cassettes = await recordPartners(join(tmp.dir, 'c'), 5, ['offer-writer']);
  const mock = await startMock({ token: TOKEN });
  let stop!: () => void;
  const stopped = new Promise<void>((r) => {
    stop = r;
  });
  const proxy = await watchingProxy(mock.baseUrl, 2, () => stop());
  try {
    const r = await regress(
      ['--cassettes', cassettes, '--base-url', proxy.baseUrl, '--allow-writes'],
      join(tmp.dir, 'r'),
      { env: { FLIS_TOKEN: TOKEN }, stopped },
    );
    assert.equal(r.code, 130, r.out.join('\n'));
    assert.equal(r.report.interrupted, 'SIGINT');
    assert.equal(r.report.partners[0]?.interrupted, true);
    const writes = proxy.written.filter((w) => !w.startsWith('DELETE'));
    assert.deepEqual(
      writes.map((w) => w.split(' ')[0]),
      ['PUT', 'POST'],
      'stopped after the second write, before the rest of the partner ran',
    );
    assert.equal(proxy.minted.length, 1, 'the POST minted an offer id');
    const tagged = decodeURIComponent(writes[0]!.split('/offers/')[1]!);
    assert.match(tagged, /^flis-.*-ow-5-1$/, 'the id the partner chose carries the run id');
    for (const id of [tagged, ...proxy.minted]) {
      const res = await request(`${mock.baseUrl}/offers/${encodeURIComponent(id)}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const body = (await res.body.json()) as { canceled?: boolean }[];
      assert.equal(res.statusCode, 200);
      assert.equal(body[0]?.canceled, true, `offer ${id} was left behind`);
    }
    assert.deepEqual(r.report.partners[0]?.leftBehind, []);
  } finally {
    await proxy.close();
    await mock.close();
  }
});
