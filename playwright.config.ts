/**
 * Playwright runs the suites: API testing only, no browser. Each folder under
 * suites/ holding *.spec.ts files is a suite, and `flis run --suite contract,offers`
 * selects folders by file filter (runner/run-suites.ts). They are one Playwright
 * project, not one each: a worker is never reused across projects, and starting
 * one (loading the suites' code) cost more CPU than the checks it then ran.
 * Reports go under FLIS_REPORT_DIR (default reports/).
 */
import { join, resolve } from 'node:path';
import { SUITES_DIR, SUITES_PROJECT } from './runner/suite-names.ts';
import { CODE_EXT } from './specs/tool-files.ts';
import { DEFAULT_CHECK_TIMEOUT_MS, DEFAULT_WORKERS, type SuiteEnv } from './core/suite-env.ts';
import { defineConfig, type ReporterDescription } from '@playwright/test';

/** Only the contract's variables (core/suite-env.ts) can be read. */
const env: SuiteEnv = process.env;
const reportDir = resolve(env.FLIS_REPORT_DIR ?? 'reports');
const suitesDir = SUITES_DIR;

const progress: ReporterDescription[] =
  env.FLIS_PROGRESS === 'none' ? [] : [[env.FLIS_PROGRESS === 'dot' ? 'dot' : 'list']];

/** Said in every report so it says how to reproduce its run. Never the token. */
const runInfo = {
  deployment: env.FLIS_DEPLOYMENT ?? '',
  seed: env.FLIS_SEED ?? '',
  runId: env.FLIS_RUN_ID ?? '',
  allowWrites: String(env.FLIS_ALLOW_WRITES === '1'),
};

// Allure results for `flis report`; `detail: false` keeps Playwright's own API steps (request URLs) out of them.
const allure: ReporterDescription = [
  'allure-playwright',
  { resultsDir: join(reportDir, 'allure-results'), detail: false, suiteTitle: true, environmentInfo: runInfo },
];

/** `flis run --shard I/N` sets FLIS_SHARD; each shard leaves a blob that `flis merge` combines. */
const shard = env.FLIS_SHARD;
const blob: ReporterDescription[] = shard
  ? [['blob', { outputDir: join(reportDir, 'blob'), fileName: `report-${shard.replace('/', '-of-')}.zip` }]]
  : [];

const results: ReporterDescription = ['json', { outputFile: join(reportDir, 'results.json') }];

/**
 * Every report, unless FLIS_REPORTS=results (runner/run-suites.ts `reports`): the verdicts alone, for callers that read
 * nothing else (the tests that run the suites against mock faults dozens of times; the reports cost a tenth of a run).
 */
function reporters(): ReporterDescription[] {
  if (env.FLIS_REPORTS === 'results') return [...progress, results];
  return [
    ...progress,
    ['html', { outputFolder: join(reportDir, 'html'), open: 'never' }],
    ['junit', { outputFile: join(reportDir, 'junit.xml') }],
    results,
    allure,
    ...blob,
  ];
}

export default defineConfig({
  testDir: suitesDir,
  outputDir: join(reportDir, 'test-results'),
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: Number(env.FLIS_WORKERS ?? DEFAULT_WORKERS),
  // --check-timeout: a check without an answer this long is stopped, and reported inconclusive (reporting/outcomes.ts);
  // each answer gives it as long again, up to 10 times in all (suites/lib/check-timeout.ts).
  timeout: Number(env.FLIS_CHECK_TIMEOUT_MS || DEFAULT_CHECK_TIMEOUT_MS),
  reporter: reporters(),
  // Shown in the HTML report, so every report says how to reproduce its run. Never the token.
  metadata: {
    deployment: env.FLIS_DEPLOYMENT,
    seed: env.FLIS_SEED,
    runId: env.FLIS_RUN_ID,
    allowWrites: env.FLIS_ALLOW_WRITES === '1',
    ...(shard ? { shard } : {}),
  },
  // Traces would record request headers, and with them the token.
  use: { trace: 'off', screenshot: 'off', video: 'off' },
  projects: [{ name: SUITES_PROJECT, testMatch: `**/*.spec${CODE_EXT}` }],
});
