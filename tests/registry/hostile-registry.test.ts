/**
 * A registry the client does not trust to name its files: `flis regress --registry` writes each partner's cassette to
 * a folder of its own, named for the partner the registry answered, so a name that could climb out of that folder
 * (from a registry that is not ours, or not sound) is refused in one line, and nothing is written.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { registryPartners } from '../../cli/registry-regress.ts';
import { UsageError } from '../../errors/flis-error.ts';
import { RegistryClient } from '../../registry/client.ts';

test('a partner name from the registry that could leave the folder is refused, and its cassette never fetched', async () => {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ cassettes: [{ partner: '../../escaped', id: 1 }] }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await assert.rejects(registryPartners(new RegistryClient(url, 'admin-token')), (e: unknown) => {
      assert.ok(e instanceof UsageError, String(e));
      assert.match(e.message, /refuses: a partner name is 1 to 64/);
      assert.doesNotMatch(e.message, /\n/);
      return true;
    });
    assert.deepEqual(asked, ['/api/cassettes/latest'], 'the cassette of a refused partner is never fetched');
  } finally {
    await new Promise((done) => server.close(done));
  }
});
