/**
 * A deployment slow to answer, not silent: a loopback front of the mock forwards every request 300 ms after it
 * arrived. With --check-timeout 4s the invoices checks, several of which take more than 4 s in all over many prompt
 * answers, all judge as usual, through the run's gateway: the check timeout counts time without an answer
 * (suites/lib/check-timeout.ts), so a slow deployment, or a busy machine reading it, never makes them inconclusive.
 * The pause is the front's, not the machine's load, and far under the timeout.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startMock } from '../../mock/server.ts';
import { countingProxy, runInvoices } from './helpers.ts';

const TOKEN = 'slow-answers-token-7c2';
const CHECK_TIMEOUT_MS = 4000;
const dir = mkdtempSync(join(tmpdir(), 'flis-slow-answers-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Each test's time in all, by title, from Playwright's JSON report. */
function durations(resultsFile: string): Map<string, number> {
  type Suite = { specs?: { title: string; tests: { results: { duration: number }[] }[] }[]; suites?: Suite[] };
  const out = new Map<string, number>();
  const walk = (s: Suite): void => {
    for (const spec of s.specs ?? []) out.set(spec.title, spec.tests[0]?.results.at(-1)?.duration ?? 0);
    for (const child of s.suites ?? []) walk(child);
  };
  walk(JSON.parse(readFileSync(resultsFile, 'utf8')) as Suite);
  return out;
}

test('checks of many answers, each 300 ms late, run past the check timeout in all and still judge', {
  timeout: 600_000,
}, async () => {
  const mock = await startMock({ token: TOKEN, port: 0 });
  const front = await countingProxy(mock.baseUrl, { delayMs: 300 });
  try {
    const run = await runInvoices(front.baseUrl, dir, TOKEN, ['--check-timeout', `${CHECK_TIMEOUT_MS}ms`]);
    const summary = run.summary;
    assert.equal(run.code, 0, run.out);
    assert.equal(summary.failed, 0, run.out);
    assert.equal(summary.inconclusive, 0, `no check is stopped while answers come: ${run.out}`);
    const longer = [...durations(join(dir, 'results.json'))].filter(([, ms]) => ms > CHECK_TIMEOUT_MS);
    assert.ok(longer.length > 0, 'some check ran past the check timeout in all, which a timeout in total stops');
    assert.ok(summary.passed >= longer.length, run.out);
  } finally {
    await front.close();
    await mock.close();
  }
});
