/**
 * What `npm run mutation` decides without Stryker, Node 24 or the network: the seeded sample, the verdict a flis run
 * gives a mutant (and which checks killed it), the report and its score, the options, and the freedom-annotation
 * rule (every `Stryker disable` comment in mock/ cites a spec clause).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PathError } from '../../errors/owned-paths.ts';
import { UsageError } from '../../errors/flis-error.ts';
import { directiveProblems, directivesIn, idleDirectives, problemOf } from '../../tools/mutation/freedoms.ts';
import {
  chosen,
  defaultFiles,
  HELP,
  freedomProblems,
  mocksToTry,
  parseArgs,
  writeReports,
} from '../../tools/mutation/main.ts';
import { oneLine, sourceBetween, type Mutant, type MutantResult } from '../../tools/mutation/mutant.ts';
import { errorLineOf, skipReasons } from '../../tools/mutation/flis-run.ts';
import { failedCheckOf, isContractCheck, verdictOf } from '../../tools/mutation/outcome.ts';
import { jsonReport, markdownReport, summarize, type RunFacts } from '../../tools/mutation/report.ts';
import { sampleOf, seededRandom } from '../../tools/mutation/sample.ts';
import { ROOT } from '../runner/helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'flis-mutation-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('the sample', () => {
  const items = Array.from({ length: 1000 }, (_, i) => i);

  it('is the same for the same seed, on any machine', () => {
    assert.deepEqual(sampleOf(items, 300, 7), sampleOf(items, 300, 7));
    // mulberry32 is plain integer arithmetic: these values hold wherever Node runs.
    assert.deepEqual(sampleOf(items, 5, 1), [3, 528, 627, 968, 981]);
  });

  it('differs from seed to seed, draws without repeats, and keeps the mutants in order', () => {
    const a = sampleOf(items, 300, 1);
    assert.notDeepEqual(a, sampleOf(items, 300, 2));
    assert.equal(new Set(a).size, 300);
    assert.deepEqual(
      a,
      [...a].sort((x, y) => x - y),
    );
  });

  it('takes every mutant when the sample is at least their number', () => {
    assert.deepEqual(sampleOf(items.slice(0, 4), 10, 3), [0, 1, 2, 3]);
  });

  it('draws numbers in [0, 1)', () => {
    const random = seededRandom(99);
    for (let i = 0; i < 1000; i++) {
      const x = random();
      assert.ok(x >= 0 && x < 1, String(x));
    }
  });
});

describe('the verdict of a flis run on a mutant', () => {
  it('reads the check of a failed test from the list progress, and nothing else', () => {
    const failed =
      '  ✘   9 [suites] › suites/offers/settled.spec.ts:16:1 › offer-settled · settled: true, then false, in a PUT body changes the offer it reads back · spec 2.2, spec 2.3 @offer-settled (507ms)';
    assert.equal(failedCheckOf(failed), 'offer-settled');
    assert.equal(failedCheckOf(failed.replace(' (507ms)', '')), 'offer-settled');
    assert.equal(failedCheckOf(failed.replace('✘', '✓')), undefined);
    assert.equal(failedCheckOf(failed.replace('✘', '-')), undefined);
    assert.equal(
      failedCheckOf('  1) [suites] › suites/offers/settled.spec.ts:16:1 › offer-settled @offer-settled'),
      undefined,
    );
  });

  it('stops early only for a contract check', () => {
    assert.equal(isContractCheck('offer-upsert'), true);
    assert.equal(isContractCheck('bad-input-rejected'), false);
    assert.equal(isContractCheck('no-such-check'), false);
  });

  it('kills on a contract failure, naming the contract checks that failed', () => {
    const failures = [
      { check: 'offer-upsert', severity: 'contract' },
      { check: 'bad-input-rejected', severity: 'advisory' },
      { check: 'no-5xx', severity: 'contract' },
      { check: 'offer-upsert', severity: 'contract' },
    ];
    assert.deepEqual(verdictOf({ exitCode: 1, timedOut: false, failures, ranChecks: true }), {
      status: 'killed',
      killedBy: ['no-5xx', 'offer-upsert'],
    });
    assert.deepEqual(
      verdictOf({ exitCode: 130, timedOut: false, stoppedAt: 'record-identity', failures: [], ranChecks: true }),
      {
        status: 'killed',
        killedBy: ['record-identity'],
      },
    );
  });

  it('lets a mutant survive a passing run, saying when the verdict was PARTIAL', () => {
    assert.deepEqual(verdictOf({ exitCode: 0, timedOut: false, failures: [], ranChecks: true }), {
      status: 'survived',
    });
    const skipped = { skipped: 19, blocked: 19, inconclusive: 0 };
    assert.deepEqual(verdictOf({ exitCode: 0, timedOut: false, failures: [], skipped, ranChecks: true }), {
      status: 'survived',
      detail: 'PARTIAL: 19 skipped (19 blocked, 0 inconclusive)',
    });
    const reasons = skipReasons([
      { kind: 'skipped', reason: 'GET /invoices lists no invoice' },
      { kind: 'blocked', reason: 'blocked by response-schema:\n  /distanceKm is null' },
      { kind: 'blocked', reason: 'blocked by response-schema:\n  /distanceKm is null' },
    ]);
    assert.deepEqual(reasons, ['blocked by response-schema: /distanceKm is null', 'GET /invoices lists no invoice']);
    assert.deepEqual(
      verdictOf({ exitCode: 0, timedOut: false, failures: [], skipped: { ...skipped, reasons }, ranChecks: true }),
      {
        status: 'survived',
        detail:
          'PARTIAL: 19 skipped (19 blocked, 0 inconclusive): blocked by response-schema: /distanceKm is null | GET /invoices lists no invoice',
      },
    );
  });

  it('names an error by the line of stderr that reads as one, not by a stack frame', () => {
    const stderr = [
      'flis run: starting the embedded mock',
      "FastifyError [FST_ERR_DUPLICATED_ROUTE]: Method 'GET' already declared for route '/apis/v0'",
      '    at Object.addNewRoute (node_modules/fastify/lib/route.js:373:19)',
      '    at process.processTicksAndRejections (node:internal/process/task_queues:90:21)',
    ].join('\n');
    assert.match(errorLineOf(stderr) ?? '', /FST_ERR_DUPLICATED_ROUTE/);
    assert.equal(errorLineOf('one\ntwo\n'), 'two');
    assert.equal(errorLineOf(''), undefined);
  });

  it('times out past the deadline, and calls any other end an error', () => {
    assert.equal(verdictOf({ exitCode: null, timedOut: true, failures: [], ranChecks: false }).status, 'timed out');
    assert.deepEqual(
      verdictOf({ exitCode: 2, timedOut: false, failures: [], ranChecks: true, lastLine: 'flis run: bad option' }),
      { status: 'error', detail: 'exit 2: flis run: bad option' },
    );
    // A mutant the mock cannot start with (a route table entry emptied): no check ran, so it is no test of the suite.
    assert.deepEqual(
      verdictOf({ exitCode: 1, timedOut: false, failures: [], ranChecks: false, lastLine: 'FST_ERR_ROUTE_MISSING' }),
      { status: 'error', detail: 'exit 1, before any check ran: FST_ERR_ROUTE_MISSING' },
    );
  });
});

function result(id: string, status: MutantResult['status'], more: Partial<MutantResult> = {}): MutantResult {
  return {
    id,
    file: 'mock/routes/offers.ts',
    mutator: 'ConditionalExpression',
    replacement: 'true',
    start: { line: Number(id) + 10, column: 5 },
    end: { line: Number(id) + 10, column: 12 },
    original: 'a === b',
    status,
    ...more,
  };
}

const RUN: RunFacts = {
  date: '2026-01-01T00:00:00.000Z',
  seed: 1,
  mutants: 1000,
  labels: 0,
  sampled: 9,
  files: ['mock/routes/offers.ts'],
  flisArgs: [],
  cleanMs: 10_000,
  cleanRuns: [
    { mock: 'default', ms: 10_000, certified: true, reached: 900, added: 900 },
    { mock: 'paged-lists', ms: 12_000, certified: true, reached: 880, added: 14 },
  ],
  wallMs: 90_000,
};

const RESULTS: MutantResult[] = [
  result('1', 'killed', { killedBy: ['offer-upsert'], ms: 8000 }),
  result('2', 'killed', { killedBy: ['no-5xx', 'offer-upsert'], ms: 6000 }),
  result('3', 'timed out', { ms: 60_000 }),
  result('4', 'survived', { detail: 'PARTIAL: 19 skipped (19 blocked, 0 inconclusive)', ms: 10_000 }),
  result('5', 'no coverage'),
  result('6', 'freedom', { freedom: 'spec 7 error body not shown', mutator: 'StringLiteral' }),
  result('7', 'error', { detail: 'exit 2: the mock did not start', ms: 1000 }),
  result('8', 'survived', { ms: 10_000 }),
  result('9', 'killed', { killedBy: ['offer-upsert'], ms: 9000, mock: 'paged-lists' }),
];

describe('the report', () => {
  it('scores (killed + timed out) ÷ (sampled − freedoms − errors)', () => {
    const s = summarize(RESULTS);
    assert.deepEqual(s.counts, {
      killed: 3,
      'timed out': 1,
      survived: 2,
      'no coverage': 1,
      freedom: 1,
      error: 1,
    });
    assert.equal(s.valid, 7);
    assert.equal(s.detected, 4);
    assert.equal(s.score, 4 / 7);
    assert.equal(s.msPerRun, (8000 + 6000 + 60_000 + 10_000 + 1000 + 10_000 + 9000) / 7);
    assert.equal(summarize([]).score, undefined);
  });

  it('lists each survivor with its diff, and each killed mutant with its killing checks', () => {
    const md = markdownReport(RUN, RESULTS);
    assert.match(md, /\*\*Score: 57\.1 %\*\* = \(killed 3 \+ timed out 1\) ÷ \(sampled 9 − freedoms 1 − errors 1\)/);
    assert.match(
      md,
      /## Survived \(2\)[\s\S]*- mock\/routes\/offers\.ts:14:5 ConditionalExpression: `a === b` → `true` \(PARTIAL: 19 skipped/,
    );
    assert.match(md, /\| `offer-upsert` \| 3 \|\n\| `no-5xx` \| 1 \|/);
    assert.match(
      md,
      /mock\/routes\/offers\.ts:12:5 ConditionalExpression: `a === b` → `true` \(killed by no-5xx, offer-upsert\)/,
    );
    assert.match(md, /\| paged-lists \| CERTIFIED \| 12\.0 s \| 880 \| 14 \|/);
    assert.match(md, /`true` \(on --mock-variant paged-lists; killed by offer-upsert\)/);
    assert.match(md, /## Freedoms \(1\)[\s\S]*freedom: spec 7 error body not shown/);
    assert.match(md, /## Timed out \(1\)/);
    assert.match(md, /## No coverage \(1\)/);
    assert.match(md, /## Errors \(1\)[\s\S]*exit 2: the mock did not start/);
    const json = jsonReport(RUN, RESULTS);
    assert.equal(json.kind, 'flis-mutation-report');
    assert.equal(json.summary.score, 4 / 7);
    assert.deepEqual(json.mutants[1]?.killedBy, ['no-5xx', 'offer-upsert']);
  });

  it('shows the original code on one line', () => {
    const source = 'const a = 1;\nif (x) {\n  y();\n}\n';
    assert.equal(sourceBetween(source, { line: 1, column: 7 }, { line: 1, column: 8 }), 'a');
    assert.equal(oneLine(sourceBetween(source, { line: 2, column: 8 }, { line: 4, column: 2 })), '{ y(); }');
    assert.equal(oneLine('x'.repeat(300)).length, 100);
  });

  it('writes into a folder it owns, and refuses one of the user’s', () => {
    const dir = join(tmp, 'reports', 'mutation');
    writeReports(dir, RUN, RESULTS);
    assert.match(readFileSync(join(dir, 'mutation.md'), 'utf8'), /^# Mutation testing/);
    assert.equal(JSON.parse(readFileSync(join(dir, 'mutation.json'), 'utf8')).mutants.length, RESULTS.length);
    writeReports(dir, RUN, RESULTS.slice(0, 1));
    assert.equal(JSON.parse(readFileSync(join(dir, 'mutation.json'), 'utf8')).mutants.length, 1);
    const mine = join(tmp, 'mine');
    mkdirSync(mine);
    writeFileSync(join(mine, 'notes.txt'), 'keep');
    assert.throws(() => writeReports(mine, RUN, RESULTS), PathError);
    assert.equal(readFileSync(join(mine, 'notes.txt'), 'utf8'), 'keep');
  });
});

describe('the options', () => {
  it('default to a sample of 300 from mock/routes/ and the stores, never the fault layer', () => {
    const o = parseArgs([], ROOT);
    assert.equal(o.sample, 300);
    assert.equal(o.seed, 1);
    assert.deepEqual(o.files, defaultFiles(ROOT));
    assert.ok(o.files.includes('mock/routes/offers.ts') && o.files.includes('mock/billing-store.ts'));
    assert.ok(!o.files.some((f) => f.startsWith('mock/faults')));
    assert.ok(!o.files.includes('mock/routes/webhook-admin.ts'), 'the mock-only subscription endpoint is no contract');
  });

  it('take a sample, a seed and the files to mutate', () => {
    const o = parseArgs(['--sample', '40', '--seed=9', '--mutate', 'mock/store.ts,mock/routes/fuel.ts'], ROOT);
    assert.deepEqual([o.sample, o.seed, o.files], [40, 9, ['mock/routes/fuel.ts', 'mock/store.ts']]);
  });

  it('name mutants to run instead of a sample, and refuse an id the files do not hold', () => {
    const o = parseArgs(['--mutant', '12', '--mutant=3,40'], ROOT);
    assert.deepEqual(o.ids, ['12', '3', '40']);
    const population: Mutant[] = ['3', '7', '12', '40'].map((id) => ({
      id,
      file: 'mock/store.ts',
      mutator: 'BooleanLiteral',
      replacement: 'false',
      start: { line: 1, column: 1 },
      end: { line: 1, column: 5 },
    }));
    assert.deepEqual(
      chosen(population, o).map((m) => m.id),
      ['3', '12', '40'],
    );
    assert.deepEqual(chosen(population, { ...o, ids: [], sample: 2 }).length, 2);
    assert.throws(() => chosen(population, { ...o, ids: ['3', '99'] }), UsageError);
  });

  it('try the default mock first, then every conformant variant but the throttle, or the one variant asked for', () => {
    const all = mocksToTry(undefined);
    assert.equal(all[0], undefined);
    assert.ok(all.includes('open-choices') && all.includes('paged-lists'));
    assert.ok(!all.includes('default') && !all.includes('throttled'));
    assert.deepEqual(mocksToTry('eventual'), ['eventual']);
  });

  it('refuse what they cannot use, in one line', () => {
    for (const argv of [
      ['--mutant', 'x1'],
      ['--sample', '0'],
      ['--seed', 'x'],
      ['--mutate', 'mock/nope.ts'],
      ['--mutate', 'README.md'],
      ['--fast'],
    ])
      assert.throws(() => parseArgs(argv, ROOT), UsageError, argv.join(' '));
  });
});

describe('docs/mutation.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'mutation.md'), 'utf8');

  it('lists in its options table exactly the options --help lists', () => {
    const documented = [...doc.matchAll(/^\| `(--[a-z-]+)/gm)].map((m) => m[1]).sort();
    const helped = [...HELP.matchAll(/^ {2}(--[a-z-]+)/gm)]
      .map((m) => m[1])
      .filter((o) => o !== '--help')
      .sort();
    assert.deepEqual(documented, helped);
  });

  it('names the conformant variants the clean runs try, as the tool tries them', () => {
    const named = /clean run is repeated against each\s+conformant variant in turn \(([^)]*)\)/.exec(doc)?.[1] ?? '';
    const variants = [...named.matchAll(/`(?:--mock-variant )?([a-z-]+)`/g)].map((m) => m[1]);
    assert.deepEqual(
      variants.slice(0, -1),
      mocksToTry(undefined).slice(1),
      'the variants tried, then the one left out',
    );
    assert.equal(variants.at(-1), 'throttled');
  });
});

describe('the freedom-annotation rule', () => {
  it('holds in mock/: every Stryker directive marks one line and cites a spec clause', () => {
    assert.deepEqual(freedomProblems(ROOT), []);
  });

  it('accepts a marked freedom that cites a clause of the spec', () => {
    assert.equal(problemOf('// Stryker disable next-line StringLiteral: spec 7 error body not shown'), undefined);
    assert.equal(
      problemOf('// Stryker disable next-line StringLiteral, ObjectLiteral: spec 4.3 success status codes not shown'),
      undefined,
    );
  });

  it('refuses a directive without a clause, for every mutator, for a whole file, or citing no such clause', () => {
    for (const text of [
      '// Stryker disable next-line StringLiteral: the message does not matter',
      '// Stryker disable next-line StringLiteral',
      '// Stryker disable next-line all: spec 7 error body not shown',
      '// Stryker disable StringLiteral: spec 7 error body not shown',
      '// Stryker disable next-line StringLiteral: spec 12 not shown',
    ])
      assert.ok(problemOf(text), text);
  });

  it('names a directive that marks no mutant of its next line', () => {
    const directives = [
      { file: 'mock/x.ts', line: 4, text: '// Stryker disable next-line StringLiteral: spec 7 not shown' },
      { file: 'mock/x.ts', line: 9, text: '// Stryker disable next-line StringLiteral: spec 7 not shown' },
    ];
    const at = (line: number, freedom?: string) => ({ file: 'mock/x.ts', start: { line }, freedom });
    assert.deepEqual(idleDirectives(directives, [at(5, 'spec 7 not shown'), at(10), at(11, 'other')]), ['mock/x.ts:9']);
  });

  it('finds directives where Stryker does, with their lines', () => {
    const text = [
      'const a = 1; // Stryker counts these too, in prose',
      '// Stryker disable next-line StringLiteral: nothing cited',
      "throw new HttpError(404, 'NOT_FOUND', 'x');",
      '/* Stryker restore all */',
    ].join('\n');
    const found = directivesIn('mock/x.ts', text);
    assert.deepEqual(
      found.map((d) => d.line),
      [2, 4],
    );
    assert.deepEqual(
      directiveProblems(found).map((p) => p.line),
      [2, 4],
    );
  });
});
