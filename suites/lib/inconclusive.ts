/**
 * A check disturbed by another writer on a shared deployment, or stopped by the
 * deployment's rights (throttling past the wait cap, no answer in time), cannot
 * judge the server: it is skipped with the annotation `inconclusive`
 * (docs/writing-a-check.md, docs/throttling.md), which the reports show as
 * inconclusive, never as a failure.
 */
import type { TestInfo } from '@playwright/test';

export function skipInconclusive(testInfo: TestInfo, reason: string): never {
  testInfo.annotations.push({ type: 'inconclusive', description: reason });
  testInfo.skip(true, `inconclusive: ${reason}`);
  throw new Error(`unreachable: the test was skipped (${reason})`);
}
