/** A Target for tests that drive the suites' client against a loopback server of their own. */
import type { Target } from '../../suites/lib/target.ts';

export function testTarget(baseUrl: string, extra: Partial<Target> = {}): Target {
  return {
    baseUrl,
    token: 'client-test-token',
    deployment: 'test',
    allowWrites: true,
    writesSkippedReason: '',
    runId: 'flis-test',
    seed: 1,
    runs: 1,
    explore: 1,
    visibilityTimeoutMs: 1_000,
    ...extra,
  };
}
