/**
 * One real suite run against a fresh embedded mock, for the tests that prove
 * the suites catch the mock's faults and pass its conformant variants. One
 * Playwright worker per run: the fault tests run several at a time on two cores.
 */
import type { FaultName } from '../../mock/faults.ts';
import { startMock } from '../../mock/server.ts';
import type { MockVariant } from '../../mock/variant.ts';
import { runSuites, type SuiteRunResult } from '../../runner/run-suites.ts';

export interface MockRun {
  token: string;
  suites: string[];
  reportDir: string;
  runId: string;
  visibilityTimeoutMs: number;
  faults?: FaultName[];
  variant?: MockVariant;
  writeDelayMs?: number;
  seed?: number;
  runs?: number;
}

export async function runOnMock(r: MockRun): Promise<SuiteRunResult> {
  const mock = await startMock({
    token: r.token,
    ...(r.faults ? { faults: r.faults } : {}),
    ...(r.variant ? { variant: r.variant } : {}),
    writeDelayMs: r.writeDelayMs ?? 0,
  });
  try {
    return await runSuites({
      baseUrl: mock.baseUrl,
      token: r.token,
      deployment: 'embedded',
      allowWrites: true,
      suites: r.suites,
      reportDir: r.reportDir,
      runId: r.runId,
      visibilityTimeoutMs: r.visibilityTimeoutMs,
      progress: 'none',
      workers: 1,
      ...(r.seed !== undefined ? { seed: r.seed } : {}),
      ...(r.runs !== undefined ? { runs: r.runs } : {}),
    });
  } finally {
    await mock.close();
  }
}
