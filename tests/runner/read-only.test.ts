/**
 * Read-only means read-only (issue 8 item 7): `flis run --base-url URL` without --allow-writes sends no
 * POST, PUT, PATCH or DELETE to the target, counted at the target's door by a proxy; every suite runs, so
 * the auth probes of write operations are included. The verdict says partial, with what was skipped.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startMock } from '../../mock/server.ts';
import type { Certificate } from '../../reporting/certificate-types.ts';
import { countingProxy, startFlis } from './helpers.ts';

const TOKEN = 'read-only-token-Hq83Lm';
const dir = mkdtempSync(join(tmpdir(), 'flis-read-only-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a read-only run sends no write method to the target, and its verdict is partial', async () => {
  const mock = await startMock({ token: TOKEN });
  const proxy = await countingProxy(mock.baseUrl);
  try {
    const run = startFlis(
      ['run', '--base-url', proxy.baseUrl, '--report-dir', dir, '--progress', 'none', '--runs', '2'],
      {
        FLIS_TOKEN: TOKEN,
      },
    );
    const code = await run.exited;
    const writes = proxy.seen.filter((s) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(s.method));
    assert.deepEqual(writes, [], `write methods reached a read-only target:\n${run.out()}`);
    assert.ok(proxy.seen.length > 100, `the run read the target (${proxy.seen.length} requests)`);
    assert.equal(code, 0, run.out());
    const c = JSON.parse(readFileSync(join(dir, 'certificate.json'), 'utf8')) as Certificate;
    assert.equal(c.verdict.status, 'partial');
    assert.equal(c.verdict.scope, 'partial');
    assert.ok(c.verdict.skipped.some((s) => /--allow-writes/.test(s.reason)));
    assert.match(run.out(), /flis run: PARTIAL \(scope: partial — .*skipped.*\); exit 0\n*$/);
  } finally {
    await proxy.close();
    await mock.close();
  }
});
