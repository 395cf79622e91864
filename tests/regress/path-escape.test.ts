/**
 * Nothing `flis regress` sends leaves the base path, whatever the cassette or the target says. The cassette reader
 * refuses a recorded path that could leave it (tests/cli/bad-paths.test.ts runs every form through the command);
 * here the rule itself, on each form and on paths it must let through, and the guards behind it: `send` refuses
 * such a path before the token goes out, and an id the target answers that would lead out blocks the request that
 * needs it. Each against a real loopback server that records every request it receives.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { recordPartner } from '../../bench/partner-clients.ts';
import { closeConnection, openConnection } from '../../net/connection.ts';
import { pathEscape } from '../../recorder/path-escape.ts';
import { OutsideBasePath, send } from '../../regress/send.ts';
import { startTrap } from '../cli/bad-input-harness.ts';
import { regress, tempDir } from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());

const LEAVING = [
  '/../../../steal3',
  '/offers/..',
  '/./offers',
  '/%2e%2e/steal',
  '/%2E%2E/steal',
  '/.%2e/steal',
  '/%2e./steal',
  '/%252e%252e/steal',
  '/%25252E%25252e/steal',
  '//evil.example/steal',
  '/offers//x',
  '/..\\steal',
  '/offers\\..\\..\\steal',
  '/offers/..%2f..%2fsteal',
  '/offers/..%2F..%5Csteal',
  '/offers/%5C..%5Csteal',
  '/offers/x%252F..%252F..',
  '/.\t./steal',
  '/offers/x\r\n/../steal',
  '/%c0%ae%c0%ae/steal',
  '/%e0%80%ae%e0%80%ae/steal',
  '/%C0%AE./steal',
  '/\uff0e\uff0e/steal',
  '/%EF%BC%8E%EF%BC%8E/steal',
  '/\u2025/steal',
  'offers',
];

const STAYING = [
  '/',
  '/offers',
  '/offers/',
  '/offers/abc-123',
  '/offers/a%2Fb',
  '/offers/50%off',
  '/offers/100%2525',
  '/offers/...',
  '/offers/.well-known',
  '/offers/v1.2',
  '/offers/%C3%A9t%C3%A9',
  '/billingGroups/bg%3A1/details',
];

describe('a recorded path that could leave the base path', () => {
  it('is named for each form, and paths that stay are let through', () => {
    for (const p of LEAVING) assert.ok(pathEscape(p), `${JSON.stringify(p)} was let through`);
    for (const p of STAYING) assert.equal(pathEscape(p), undefined, `${JSON.stringify(p)} was refused`);
  });

  it('is never sent: send refuses it before the token goes out, and the server sees nothing', async () => {
    const trap = await startTrap();
    const connection = await openConnection({}, { kind: 'static', token: trap.token }, {});
    try {
      for (const path of LEAVING.filter((p) => p.startsWith('/')))
        await assert.rejects(send(trap.baseUrl, connection, { method: 'GET', path, query: [] }), OutsideBasePath);
      assert.equal(trap.requests.length, 0, `a request reached the server: ${JSON.stringify(trap.requests)}`);
      // The same server sees what stays under the base path: the trap is not blind.
      await send(trap.baseUrl, connection, { method: 'GET', path: '/offers/a%2Fb', query: [] });
      assert.deepEqual(
        trap.requests.map((r) => [r.url, r.authorization]),
        [['/apis/v0/offers/a%2Fb', `Bearer ${trap.token}`]],
      );
      assert.deepEqual(trap.outside(), []);
    } finally {
      await closeConnection(connection);
      await trap.close();
    }
  });
});

describe('an id the target answers that would lead out of the base path', () => {
  it("blocks the request that needs it, and the undo's DELETE too: nothing leaves the base path", async () => {
    const cassettes = join(tmp.dir, 'cassettes');
    await recordPartner(cassettes, 'creator', async (c) => {
      const created = await c.call('POST', '/offers', {});
      await c.call('GET', `/offers/${encodeURIComponent(created.body.id)}`);
    });
    // A release candidate that mints an id of dots and slashes, and records every request it is sent.
    const seen: { url: string; authorization: string | undefined }[] = [];
    const server = createServer((req, res) => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
      req.resume();
      const created = req.method === 'POST' && req.url === '/apis/v0/offers';
      res.writeHead(created ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(created ? { id: '../../../steal', batchId: 'b-1' } : {}));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/apis/v0`;
    try {
      const r = await regress(
        ['--cassettes', cassettes, '--base-url', baseUrl, '--allow-writes'],
        join(tmp.dir, 'report'),
        { env: { FLIS_TOKEN: 'path-escape-token-Zk4' } },
      );
      const outside = seen.filter((s) => {
        const resolved = new URL(s.url, 'http://x').pathname;
        const under = resolved === '/apis/v0' || resolved.startsWith('/apis/v0/');
        return !under || pathEscape(s.url.replace(/\?.*$/s, '')) !== undefined;
      });
      assert.deepEqual(outside, [], 'requests left the base path');
      assert.ok(
        seen.some((s) => s.url === '/apis/v0/offers'),
        'the POST was sent (the target was reached)',
      );
      const notes = r.report.partners.flatMap((p) => p.notes);
      assert.ok(
        notes.some((n) => n.outcome === 'blocked' && /would leave the base path/.test(n.reason ?? '')),
        JSON.stringify(notes, null, 1),
      );
      assert.ok(
        r.report.partners[0]!.leftBehind.some((l) => /refusing to send DELETE/.test(l)),
        r.report.partners[0]!.leftBehind.join('\n'),
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    }
  });
});
