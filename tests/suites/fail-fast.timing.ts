/**
 * Issue 17 section 5: a wrong server fails fast. Whole runs (every suite but
 * webhooks, the default 10 s visibility deadline, so a deadline waited out
 * shows) against the clean mock and against the faults whose checks used to
 * wait out their deadline again and again (a value that could never appear,
 * shrinking with the full deadline): each faulty run must take at most 1.5x
 * the clean run measured in this same test, plus 10 s of slack.
 *
 * A wall-clock assertion, so it is a benchmark, not part of `npm test` (targets are met in benchmarks, never
 * in timed tests): `npm run bench:fail-fast` runs it. The slack keeps it from flaking on a busy
 * machine: it is one visibility deadline, which a fault that is only ever
 * visible as "unchanged" (a forced status never removed, no batch to ask)
 * honestly needs; the old behaviour cost five to ten deadlines. The runs go
 * one after another, so they share the machine's load alike.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { FaultName } from '../../mock/faults.ts';
import { describeFailures, runOnMock } from './run-on-mock.ts';

const TOKEN = `fail-fast-${randomBytes(12).toString('hex')}`;
const ALL = ['contract', 'offers', 'lifecycle', 'billing', 'invoices', 'bad-input'];
const SLACK_MS = 10_000;
const reportRoot = mkdtempSync(join(tmpdir(), 'flis-fail-fast-'));
after(() => rmSync(reportRoot, { recursive: true, force: true }));

/** One fault per way a check used to wait: an offer never updated, a cancel ignored, a bulk removal ignored, a forced status never removed, transport-order events left uncancelled, a read-back field wrong. */
const SLOW_BEFORE: FaultName[] = [
  'update-not-applied',
  'cancel-flag-ignored',
  'delete-status-ignored',
  'forced-status-not-removed',
  'transport-order-events-not-cancelled',
  'offer-readback-field-wrong',
];

async function timedRun(label: string, faults: FaultName[]): Promise<{ ms: number; exitCode: number; text: string }> {
  const started = Date.now();
  const r = await runOnMock({
    token: TOKEN,
    suites: ALL,
    faults,
    reportDir: join(reportRoot, label),
    runId: `flis-failfast-${label}`,
    seed: 4242,
    runs: 4,
    visibilityTimeoutMs: 10_000,
  });
  return { ms: Date.now() - started, exitCode: r.exitCode, text: describeFailures(r) };
}

test('no faulty mock mode makes a run last more than 1.5x the clean run (plus slack)', async (t) => {
  const clean = await timedRun('clean', []);
  t.diagnostic(`clean run: ${clean.ms} ms`);
  assert.equal(clean.exitCode, 0, clean.text);
  const budget = 1.5 * clean.ms + SLACK_MS;
  const slow: string[] = [];
  for (const fault of SLOW_BEFORE) {
    const run = await timedRun(fault, [fault]);
    t.diagnostic(`${fault}: ${run.ms} ms`);
    assert.equal(run.exitCode, 1, `${fault}: the suites passed`);
    if (run.ms > budget) slow.push(`${fault}: ${run.ms} ms`);
  }
  assert.deepEqual(slow, [], `clean run ${clean.ms} ms, budget ${Math.round(budget)} ms`);
});
