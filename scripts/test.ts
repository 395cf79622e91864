/**
 * `npm test`: the typecheck, lint and format (Biome, warnings included), the
 * import rules, then every tests/**\/*.test.ts under node's test runner. One
 * command, so CI and a developer run the same thing.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) return name === 'fixtures' ? [] : testFiles(full);
      return name.endsWith('.test.ts') ? [full] : [];
    })
    .sort();
}

function step(title: string, command: string, args: string[]): void {
  console.log(`\n== ${title}`);
  const r = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`${title} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

/**
 * The files that take longest (each runs the suites against the mock several
 * times), started first: with a few files at a time, the longest ones last
 * would leave the machine half idle while they finish. Ordered by their time
 * in an idle `npm test` (docs/benchmarks.md).
 */
const LONGEST_FIRST = [
  'tests/suites/conformant-seeds.test.ts',
  'tests/suites/reads-and-time-faults.test.ts',
  'tests/suites/effect-faults.test.ts',
  'tests/suites/billing-model-faults.test.ts',
  'tests/suites/record-model-faults.test.ts',
  'tests/suites/auth-filter-faults.test.ts',
  'tests/suites/contract-faults.test.ts',
  'tests/suites/flow-faults.test.ts',
  'tests/package/pack.test.ts',
  'tests/suites/new-checks-faults.test.ts',
  'tests/suites/fidelity-faults.test.ts',
  'tests/suites/world-faults.test.ts',
  'tests/runner/throttled-run.test.ts',
  'tests/runner/cassette-run.test.ts',
  'tests/runner/readme-workflow.test.ts',
  'tests/net/full-run.test.ts',
  'tests/reporting/certify.test.ts',
  'tests/suites/webhooks-faults.test.ts',
  'tests/reporting/shards.test.ts',
  'tests/runner/read-only.test.ts',
  'tests/suites/check-timeout-run.test.ts',
  'tests/runner/slow-answers.test.ts',
  'tests/suites/near-miss-redaction.test.ts',
  'tests/suites/replay-path.test.ts',
  'tests/registry/reliability.test.ts',
  'tests/reporting/robustness.test.ts',
  'tests/registry/workflow.test.ts',
  'tests/reporting/run-reports.test.ts',
  'tests/cli/cli.test.ts',
];

/**
 * Started after every other file: the CPU load it runs beside (tests/load-harness.ts) takes every core, and the
 * files beside it would wait on it rather than on their own work.
 */
const LAST = ['tests/load/verdicts-under-load.test.ts'];

function longestFirst(files: string[]): string[] {
  const rank = (f: string): number => {
    if (LAST.includes(f)) return LONGEST_FIRST.length + 1;
    const i = LONGEST_FIRST.indexOf(f);
    return i < 0 ? LONGEST_FIRST.length : i;
  };
  return [...files].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

const only = process.argv.slice(2);
const files = only.length ? only : longestFirst(testFiles(join(ROOT, 'tests')).map((f) => relative(ROOT, f)));
step('typecheck (tsc --noEmit, strict)', process.execPath, [
  join(ROOT, 'node_modules/typescript/bin/tsc'),
  '-p',
  'tsconfig.json',
  '--noEmit',
]);
step('lint and format (biome ci --error-on-warnings)', process.execPath, [
  join(ROOT, 'node_modules/@biomejs/biome/bin/biome'),
  'ci',
  // A warning fails too: warnings nobody fails on pile up (there were 37).
  '--error-on-warnings',
  '--reporter=summary',
  '.',
]);
step('import rules (scripts/check-imports.ts)', process.execPath, ['--import', 'tsx', 'scripts/check-imports.ts']);
// Most test files wait on child processes and polls rather than compute, so a few run at once even on two cores
// (node's default is one file at a time there). FLIS_TEST_CONCURRENCY overrides it.
const concurrency = process.env.FLIS_TEST_CONCURRENCY ?? String(Math.max(3, availableParallelism()));
step(`tests (${files.length} files, ${concurrency} at a time)`, process.execPath, [
  '--import',
  'tsx',
  '--test',
  `--test-concurrency=${concurrency}`,
  '--test-reporter=spec',
  ...files,
]);
