/**
 * An interrupted run cleans up (issue 8 item 7): the first SIGTERM/SIGINT sent to `flis run` alone stops
 * Playwright, undoes what the run wrote (its offers cancelled, its forced statuses removed), writes the
 * reports of what ran and exits 143/130. The signal is sent once the target has seen a write (polled for,
 * never slept on); afterwards the target holds no un-cancelled offer and no forced status of the run.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startMock } from '../../mock/server.ts';
import { pollUntil } from '../../suites/lib/poll.ts';
import { countingProxy, startFlis } from './helpers.ts';

const TOKEN = 'interrupt-token-Vb51Qa';
/**
 * The collections of section 4.3 the model suite writes records into whose records have a DELETE (spec 4.3 lists
 * none for customers, products, drivers, …: what is written there stays), read after an interrupted run.
 */
const TOP_LEVEL_COLLECTIONS = ['/bookings', '/orders'];
const dir = mkdtempSync(join(tmpdir(), 'flis-interrupt-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function listed(baseUrl: string, path: string): Promise<{ id?: string; canceled?: boolean; status?: string }[]> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return (await res.json()) as { id?: string; canceled?: boolean; status?: string }[];
}

async function interruptAfterFirstWrite(signal: 'SIGINT' | 'SIGTERM', suite: string, times = 1, writes = 1) {
  const runId = `flis-interrupt-${signal.toLowerCase()}-${process.pid}`;
  const reportDir = join(dir, signal);
  const mock = await startMock({ token: TOKEN });
  const proxy = await countingProxy(mock.baseUrl);
  try {
    const run = startFlis(
      ['run', '--base-url', proxy.baseUrl, '--allow-writes', '--suite', suite, '--report-dir', reportDir],
      { FLIS_TOKEN: TOKEN, FLIS_RUN_ID: runId, FLIS_PROGRESS: 'none' },
    );
    const wrote = await pollUntil(
      async () => proxy.seen.filter((s) => s.method === 'POST' || s.method === 'PUT').length >= writes,
      (yes) => yes,
      { timeoutMs: 180_000, intervalMs: 50 },
    );
    assert.ok(wrote.ok, `the run never wrote:\n${run.out()}`);
    run.child.kill(signal);
    if (times > 1) {
      // Signals sent back to back merge into one: the second goes once flis has said it saw the first.
      const seen = await pollUntil(
        async () => run.out().includes(`flis: ${signal}: stopping`),
        (yes) => yes,
        { timeoutMs: 60_000, intervalMs: 20 },
      );
      assert.ok(seen.ok, run.out());
      run.child.kill(signal);
    }
    const code = await run.exited;
    const offers = await listed(mock.baseUrl, '/offers');
    const groups = await listed(mock.baseUrl, '/billingGroups');
    const records = (
      await Promise.all(
        TOP_LEVEL_COLLECTIONS.map(async (path) => (await listed(mock.baseUrl, path)).map((r) => ({ path, id: r.id }))),
      )
    ).flat();
    return { code, out: run.out(), offers, groups, records, runId, reportDir };
  } finally {
    await proxy.close();
    await mock.close();
  }
}

test('SIGTERM after the first write: cleaned up, reports written, exit 143', async () => {
  const r = await interruptAfterFirstWrite('SIGTERM', 'offers');
  assert.equal(r.code, 143, r.out);
  const left = r.offers.filter((o) => o.id?.includes(r.runId) && o.canceled !== true);
  assert.deepEqual(left, [], 'un-cancelled offers of the run');
  assert.deepEqual(
    r.groups.filter((g) => g.status?.includes(r.runId)),
    [],
    'forced statuses of the run',
  );
  assert.match(r.out, /interrupted by SIGTERM/);
  const cleanup = /cleanup: (\d+) offer\(s\) cancelled/.exec(r.out);
  assert.ok(cleanup, r.out);
  if (process.env.FLIS_TEST_VERBOSE) console.log(r.out);
  for (const f of ['run.json', 'certificate.json', 'junit.xml']) assert.ok(existsSync(join(r.reportDir, f)), f);
});

test('SIGINT after the first write: exit 130, and forced statuses of the run removed', async () => {
  const r = await interruptAfterFirstWrite('SIGINT', 'billing');
  assert.equal(r.code, 130, r.out);
  assert.deepEqual(
    r.groups.filter((g) => g.status?.includes(r.runId)),
    [],
    'forced statuses of the run',
  );
  assert.match(r.out, /interrupted by SIGINT/);
});

test('a second signal exits at once, without cleaning up', async () => {
  const r = await interruptAfterFirstWrite('SIGTERM', 'offers', 2);
  assert.equal(r.code, 143, r.out);
  assert.match(r.out, /SIGTERM again: exiting at once/);
  assert.doesNotMatch(r.out, /cleanup: \d+ offer/);
});

test('SIGTERM while durable-state leaves records for its audit: the section 4.3 records of the run are deleted', async () => {
  const r = await interruptAfterFirstWrite('SIGTERM', 'model', 1, 40);
  assert.equal(r.code, 143, r.out);
  assert.match(
    r.out,
    /cleanup: \d+ offer\(s\) cancelled, \d+ forced status\(es\) removed, [1-9]\d* record\(s\) deleted/,
  );
  assert.deepEqual(
    r.records.filter((rec) => rec.id?.includes(r.runId)),
    [],
    'records of the run left in the collections',
  );
  assert.deepEqual(
    r.groups.filter((g) => g.status?.includes(r.runId)),
    [],
    'forced statuses of the run',
  );
});
