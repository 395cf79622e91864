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
import { defineConfig, type ReporterDescription } from '@playwright/test';

const reportDir = resolve(process.env.FLIS_REPORT_DIR ?? 'reports');
const suitesDir = SUITES_DIR;

const progress: ReporterDescription[] =
  process.env.FLIS_PROGRESS === 'none' ? [] : [[process.env.FLIS_PROGRESS === 'dot' ? 'dot' : 'list']];

/** Said in every report so it says how to reproduce its run. Never the token. */
const runInfo = {
  deployment: process.env.FLIS_DEPLOYMENT ?? '',
  seed: process.env.FLIS_SEED ?? '',
  runId: process.env.FLIS_RUN_ID ?? '',
  allowWrites: String(process.env.FLIS_ALLOW_WRITES === '1'),
};

// Allure results for `flis report`; `detail: false` keeps Playwright's own API steps (request URLs) out of them.
const allure: ReporterDescription = [
  'allure-playwright',
  { resultsDir: join(reportDir, 'allure-results'), detail: false, suiteTitle: true, environmentInfo: runInfo },
];

/** `flis run --shard I/N` sets FLIS_SHARD; each shard leaves a blob that `flis merge` combines. */
const shard = process.env.FLIS_SHARD;
const blob: ReporterDescription[] = shard
  ? [['blob', { outputDir: join(reportDir, 'blob'), fileName: `report-${shard.replace('/', '-of-')}.zip` }]]
  : [];

const results: ReporterDescription = ['json', { outputFile: join(reportDir, 'results.json') }];

/**
 * Every report, unless FLIS_REPORTS=results (runner/run-suites.ts `reports`): the verdicts alone, for callers that read
 * nothing else (the tests that run the suites against mock faults dozens of times; the reports cost a tenth of a run).
 */
function reporters(): ReporterDescription[] {
  if (process.env.FLIS_REPORTS === 'results') return [...progress, results];
  return [
    ...progress,
    ['html', { outputFolder: join(reportDir, 'html'), open: 'never' }],
    ['junit', { outputFile: join(reportDir, 'junit.xml') }],
    results,
    allure,
    ...blob,
  ];
}

/**
 * Suites whose checks are long chains of writes and read-backs, each request waiting on the one before: against a
 * distant deployment they set the run's length, so with many workers they go first.
 */
const CHAINED_SUITES = ['offers', 'lifecycle'];

/**
 * Checks that may have to wait out one visibility deadline for a value that can never show (a forced status a
 * DELETE leaves in place, events a transport-order DELETE leaves uncancelled: nothing, no batch, tells that from a
 * slow server). Handed out first, to one worker of their own, so on a faulty server the one deadline overlaps the
 * rest of the run instead of trailing it (issue 17 section 5; docs/benchmarks.md, fail fast). The cost: one more
 * worker start (it loads only these two files and what they import).
 */
const WAITS_FIRST = ['billing/status', 'contract/event-cancel'].map((file) => `**/${file}.spec${CODE_EXT}`);

/**
 * One project for the rest, so the few workers of a local run are never restarted. With many workers (a distant
 * deployment) the chained suites get a project listed first: Playwright hands out tests in project order, then file
 * order, and otherwise the offers suite, late in the alphabet, started after a hundred quick contract tests and ran
 * alone at the end (a 100 ms round trip: 38 s a run, 31-33 s with them first). The extra worker starts cost little
 * where workers mostly wait.
 */
function projects(): { name: string; testMatch: string | string[]; testIgnore?: string[]; workers?: number }[] {
  const all = `**/*.spec${CODE_EXT}`;
  const workers = Number(process.env.FLIS_WORKERS ?? 2);
  // One worker has nothing to overlap a wait with (the fault tests run their runs that way, several at a time).
  if (workers <= 1) return [{ name: SUITES_PROJECT, testMatch: all }];
  const waits = { name: `${SUITES_PROJECT}-waits`, testMatch: WAITS_FIRST, workers: 1 };
  if (workers <= 2) return [waits, { name: SUITES_PROJECT, testMatch: all, testIgnore: WAITS_FIRST }];
  const chained = CHAINED_SUITES.map((name) => `${name}/**/*.spec${CODE_EXT}`);
  return [
    waits,
    { name: `${SUITES_PROJECT}-chained`, testMatch: chained },
    { name: SUITES_PROJECT, testMatch: all, testIgnore: [...WAITS_FIRST, ...chained] },
  ];
}

export default defineConfig({
  testDir: suitesDir,
  outputDir: join(reportDir, 'test-results'),
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: Number(process.env.FLIS_WORKERS ?? 2),
  // --check-timeout: a check still running then is stopped, and reported inconclusive (reporting/outcomes.ts).
  timeout: Number(process.env.FLIS_CHECK_TIMEOUT_MS || 120_000),
  reporter: reporters(),
  // Shown in the HTML report, so every report says how to reproduce its run. Never the token.
  metadata: {
    deployment: process.env.FLIS_DEPLOYMENT,
    seed: process.env.FLIS_SEED,
    runId: process.env.FLIS_RUN_ID,
    allowWrites: process.env.FLIS_ALLOW_WRITES === '1',
    ...(shard ? { shard } : {}),
  },
  // Traces would record request headers, and with them the token.
  use: { trace: 'off', screenshot: 'off', video: 'off' },
  projects: projects(),
});
