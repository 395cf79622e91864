/**
 * Runs the check-timeout fixture checks (progress.spec.ts) as `flis run` runs the suites: Playwright's test timeout is
 * FLIS_CHECK_TIMEOUT_MS, the verdicts go to FLIS_REPORT_DIR/results.json (tests/suites/check-timeout-run.test.ts).
 */
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import type { SuiteEnv } from '../../../core/suite-env.ts';

const env: SuiteEnv = process.env;
const reportDir = env.FLIS_REPORT_DIR ?? 'reports';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: join(reportDir, 'test-results'),
  fullyParallel: true,
  workers: 3,
  retries: 0,
  timeout: Number(env.FLIS_CHECK_TIMEOUT_MS),
  reporter: [['json', { outputFile: join(reportDir, 'results.json') }]],
});
