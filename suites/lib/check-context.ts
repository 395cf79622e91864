/**
 * What a check's body is given, `ctx` (docs/writing-a-check.md). A type of its own, apart from the Playwright
 * wrapper that builds it (check-test.ts), so the helpers that take a context import a type, not the wrapper.
 */
import type { TestInfo } from '@playwright/test';
import type { FlisClient } from '../../core/client.ts';
import type { Check } from './check.ts';
import type { Cleanup } from './cleanup.ts';

export interface CheckContext {
  api: FlisClient;
  check: Check;
  testInfo: TestInfo;
  /** What the test wrote, undone when it ends, pass or fail (suites/lib/cleanup.ts). */
  cleanup: Cleanup;
  /** The run id every id and reference the test writes carries (FLIS_RUN_ID). */
  runId: string;
}
