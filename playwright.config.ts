/**
 * Playwright runs the suites: API testing only, no browser. Each folder under
 * suites/ holding *.spec.ts files is a project, so `flis run --suite contract,offers`
 * selects projects. Reports go under FLIS_REPORT_DIR (default reports/).
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';

const reportDir = resolve(process.env.FLIS_REPORT_DIR ?? 'reports');
const suitesDir = resolve('suites');

function suiteFolders(): string[] {
  return readdirSync(suitesDir)
    .filter((name) => name !== 'lib' && name !== 'generators' && statSync(join(suitesDir, name)).isDirectory())
    .filter((name) => readdirSync(join(suitesDir, name)).some((f) => f.endsWith('.spec.ts')))
    .sort();
}

const progress: ReporterDescription = process.env.FLIS_PROGRESS === 'dot' ? ['dot'] : ['list'];

export default defineConfig({
  testDir: suitesDir,
  outputDir: join(reportDir, 'test-results'),
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: Number(process.env.FLIS_WORKERS ?? 2),
  timeout: 60_000,
  reporter: [
    progress,
    ['html', { outputFolder: join(reportDir, 'html'), open: 'never' }],
    ['junit', { outputFile: join(reportDir, 'junit.xml') }],
    ['json', { outputFile: join(reportDir, 'results.json') }],
  ],
  use: { trace: 'off', screenshot: 'off', video: 'off' },
  projects: suiteFolders().map((name) => ({ name, testMatch: `${name}/**/*.spec.ts` })),
});
