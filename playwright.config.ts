/**
 * Playwright runs the suites: API testing only, no browser. Each folder under
 * suites/ holding *.spec.ts files is a project, so `flis run --suite contract,offers`
 * selects projects. Reports go under FLIS_REPORT_DIR (default reports/).
 */
import { join, resolve } from 'node:path';
import { SUITES_DIR, suiteNames } from './runner/suite-names.ts';
import { defineConfig, type ReporterDescription } from '@playwright/test';

const reportDir = resolve(process.env.FLIS_REPORT_DIR ?? 'reports');
const suitesDir = SUITES_DIR;

const progress: ReporterDescription[] = process.env.FLIS_PROGRESS === 'none' ? [] : [[process.env.FLIS_PROGRESS === 'dot' ? 'dot' : 'list']];

export default defineConfig({
  testDir: suitesDir,
  outputDir: join(reportDir, 'test-results'),
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: Number(process.env.FLIS_WORKERS ?? 2),
  timeout: 60_000,
  reporter: [
    ...progress,
    ['html', { outputFolder: join(reportDir, 'html'), open: 'never' }],
    ['junit', { outputFile: join(reportDir, 'junit.xml') }],
    ['json', { outputFile: join(reportDir, 'results.json') }],
  ],
  // Shown in the HTML report, so every report says how to reproduce its run. Never the token.
  metadata: { deployment: process.env.FLIS_DEPLOYMENT, seed: process.env.FLIS_SEED, runId: process.env.FLIS_RUN_ID, allowWrites: process.env.FLIS_ALLOW_WRITES === '1' },
  // Traces would record request headers, and with them the token.
  use: { trace: 'off', screenshot: 'off', video: 'off' },
  projects: suiteNames().map((name) => ({ name, testMatch: `${name}/**/*.spec.ts` })),
});
