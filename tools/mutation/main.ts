/**
 * `npm run mutation`: mutation testing of the embedded mock, the project's reference implementation. Stryker's
 * instrumenter places every mutant of mock/routes/ and the stores behind a switch; a seeded sample of them is drawn,
 * and each sampled mutant is tested by a `flis run` against the mock with that mutant on: a faulty server nobody
 * chose to write. The report says which the suite killed (and with which checks), which survived, which timed out.
 * Run by bootstrap.mjs under Node 22 or later; docs/mutation.md says how to read it and how to mark a freedom.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { FlisError, UsageError } from '../../errors/flis-error.ts';
import { checkFolder, claimFolder, clearOwned } from '../../errors/owned-paths.ts';
import { directiveProblems, directivesIn, idleDirectives } from './freedoms.ts';
import { flisRun, stopAllRuns } from './flis-run.ts';
import { instrument, LABEL } from './instrument.ts';
import { oneLine, sourceBetween, type Mutant, type MutantResult, whereOf } from './mutant.ts';
import { verdictOf } from './outcome.ts';
import { type CleanRun, jsonReport, markdownReport, summarize, summaryLine, type RunFacts } from './report.ts';
import { makeSandbox } from './sandbox.ts';
import { variantPresetNames } from '../../mock/variant.ts';
import { sampleOf } from './sample.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
export const REPORT_NAMES = ['mutation.json', 'mutation.md'] as const;

export const HELP = `npm run mutation -- [options]

Mutation testing of the embedded mock: a seeded sample of the mutants Stryker places in mock/routes/ and the
stores, each tested by a flis run against the mock with that mutant on. Needs Node 22 or later (bootstrap.mjs
fetches Node 24 from the npm registry on linux-x64) and the project installed (npm ci).

  --sample N        mutants drawn (default 300; all of them when N is at least their number)
  --seed S          seeds the sample and every flis run (default 1)
  --mutate FILE     a file to mutate instead of mock/routes/ and the stores (repeatable, or comma-separated)
  --runs N          fast-check runs per property of each flis run (default: flis's own)
  --mutant ID       run this mutant (an id of the report or of --dry-run) instead of a sample (repeatable)
  --mock-variant V  run every flis run against this conformant variant of the mock alone
  --concurrency N   flis runs side by side (default 1; each run has 2 Playwright workers)
  --report-dir DIR  where mutation.json and mutation.md go (default reports/mutation)
  --dry-run         instrument and draw the sample, print it, run nothing
  --help            this text

Reports: DIR/mutation.md (survivors by file, killers by check) and DIR/mutation.json. docs/mutation.md.`;

export interface Options {
  sample: number;
  seed: number;
  files: string[];
  runs: number | undefined;
  variant: string | undefined;
  /** Mutant ids to run instead of a sample. */
  ids: string[];
  concurrency: number;
  reportDir: string;
  dryRun: boolean;
  help: boolean;
}

const STORES = [
  'mock/store.ts',
  'mock/billing-store.ts',
  'mock/offers-store.ts',
  'mock/invoice-store.ts',
  'mock/offer-model.ts',
];

/**
 * The mock-only webhook subscription endpoint (routes/webhook-admin.ts): outside /apis/v0 and the contract (spec 6
 * does not show how a client subscribes), so nothing the spec fixes is there to measure.
 */
const OUTSIDE_THE_CONTRACT = new Set(['webhook-admin.ts']);

/** mock/routes/ and the stores: what holds the mock's semantics (mock/faults/ is apart, and not mutated). */
export function defaultFiles(root: string): string[] {
  const routes = readdirSync(join(root, 'mock', 'routes'))
    .filter((f) => f.endsWith('.ts') && !OUTSIDE_THE_CONTRACT.has(f))
    .map((f) => `mock/routes/${f}`);
  return [...routes, ...STORES].sort();
}

function whole(flag: string, raw: string | undefined, min: number): number {
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < min)
    throw new UsageError(`${flag} takes a whole number of at least ${min}${raw === undefined ? '' : `, not '${raw}'`}`);
  return Number(raw);
}

/** A file to mutate, as a path from the repository root; it must be a TypeScript file of the checkout. */
function mutateFile(root: string, raw: string): string {
  const full = resolve(root, raw);
  const rel = relative(root, full).split(sep).join('/');
  if (rel.startsWith('..') || !rel.endsWith('.ts'))
    throw new UsageError(`--mutate ${raw}: give a .ts file of the checkout`);
  try {
    readFileSync(full);
  } catch {
    throw new UsageError(`--mutate ${raw}: no such file`);
  }
  return rel;
}

export function parseArgs(argv: readonly string[], root = ROOT): Options {
  const o: Options = {
    sample: 300,
    seed: 1,
    files: [],
    runs: undefined,
    variant: undefined,
    ids: [],
    concurrency: 1,
    reportDir: resolve(root, 'reports', 'mutation'),
    dryRun: false,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--help' || flag === '-h') o.help = true;
    else if (flag === '--dry-run') o.dryRun = true;
    else if (flag === '--sample') o.sample = whole('--sample', value(), 1);
    else if (flag === '--seed') o.seed = whole('--seed', value(), 0);
    else if (flag === '--runs') o.runs = whole('--runs', value(), 1);
    else if (flag === '--concurrency') o.concurrency = whole('--concurrency', value(), 1);
    else if (flag === '--mutant') {
      const list = value();
      if (list === undefined || !/^\d+(?:,\d+)*$/.test(list))
        throw new UsageError(`--mutant takes a mutant id (a number), not '${list ?? ''}'`);
      o.ids.push(...list.split(','));
    } else if (flag === '--mock-variant') {
      const name = value();
      if (name === undefined || !/^[a-z-]+$/.test(name)) throw new UsageError('--mock-variant takes a preset name');
      o.variant = name;
    } else if (flag === '--report-dir') {
      const dir = value();
      if (dir === undefined || dir.trim() === '') throw new UsageError('--report-dir takes a folder');
      o.reportDir = resolve(dir);
    } else if (flag === '--mutate') {
      const list = value();
      if (list === undefined) throw new UsageError('--mutate takes a file');
      o.files.push(
        ...list
          .split(',')
          .filter(Boolean)
          .map((f) => mutateFile(root, f)),
      );
    } else throw new UsageError(`unknown option '${arg}' (npm run mutation -- --help)`);
  }
  if (o.files.length === 0) o.files = defaultFiles(root);
  o.files = [...new Set(o.files)].sort();
  return o;
}

/** Every Stryker directive of mock/ that is not an honest freedom: file:line and why. */
export function freedomProblems(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
    );
  const directives = walk('mock').flatMap((f) => directivesIn(f, readFileSync(join(root, f), 'utf8')));
  return directiveProblems(directives).map((p) => `${p.file}:${p.line}: ${p.problem}: ${p.text}`);
}

function withOriginal(m: Mutant, sources: ReadonlyMap<string, string>): Pick<MutantResult, 'original'> & Mutant {
  return { ...m, original: oneLine(sourceBetween(sources.get(m.file) ?? '', m.start, m.end)) };
}

function coveredIds(dir: string): Set<string> {
  const ids = new Set<string>();
  for (const f of readdirSync(dir))
    for (const id of JSON.parse(readFileSync(join(dir, f), 'utf8')) as string[]) ids.add(id);
  return ids;
}

function progressLine(i: number, n: number, r: MutantResult): string {
  const width = String(n).length;
  const who = r.killedBy ? ` (${r.killedBy.join(', ')})` : r.detail ? ` (${r.detail})` : '';
  const time = r.ms !== undefined ? ` ${(r.ms / 1000).toFixed(1)} s` : '';
  return `[${String(i).padStart(width)}/${n}] ${r.status.padEnd(11)} ${whereOf(r)} ${r.mutator}${who}${time}`;
}

/** Runs `tasks` with at most `limit` at a time, in order of start. */
async function pool<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      await task(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** The sample, or the mutants `--mutant` names (each must be one of the instrumentation's). */
export function chosen<M extends Mutant>(population: readonly M[], o: Pick<Options, 'ids' | 'sample' | 'seed'>): M[] {
  if (o.ids.length === 0) return sampleOf(population, o.sample, o.seed);
  const known = new Set(population.map((m) => m.id));
  const unknown = o.ids.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new UsageError(
      `--mutant ${unknown.join(', ')}: no such mutant in these files (npm run mutation -- --dry-run)`,
    );
  const wanted = new Set(o.ids);
  return population.filter((m) => wanted.has(m.id));
}

/**
 * The mocks the clean runs try, in order: the default, then each conformant variant, for the code only a variant
 * takes (a variant is a conformant server too, so a mutant of its code is a faulty server). `throttled` differs from
 * the default by its throttle alone, which is not mutated.
 */
export function mocksToTry(variant: string | undefined): (string | undefined)[] {
  if (variant !== undefined) return [variant];
  return [undefined, ...variantPresetNames.filter((n) => n !== 'default' && n !== 'throttled')];
}

function mockArgs(mock: string | undefined): string[] {
  return mock === undefined ? [] : ['--mock-variant', mock];
}

interface Reached {
  runs: CleanRun[];
  /** Mutant id → the first mock whose clean run reaches it, and the deadline of a run against it. */
  by: Map<string, { mock: string | undefined; timeoutMs: number }>;
}

/**
 * The clean runs (every mutant off): the first mock must pass whole, or nothing is measured; a variant is run only
 * while sampled mutants are left that no run before reached, and one that does not pass reaches nothing.
 */
async function cleanRuns(
  sandbox: string,
  o: Options,
  flisArgs: readonly string[],
  sample: readonly Mutant[],
  interrupted: () => boolean,
): Promise<Reached> {
  const out: Reached = { runs: [], by: new Map() };
  for (const [k, mock] of mocksToTry(o.variant).entries()) {
    const left = sample.filter((m) => m.freedom === undefined && !out.by.has(m.id)).length;
    if (k > 0 && left === 0) break;
    const coverageDir = join(sandbox, `.coverage-${k}`);
    mkdirSync(coverageDir);
    const name = mock === undefined ? 'the clean run' : `the clean run against --mock-variant ${mock}`;
    console.log(`mutation: ${name} (every mutant off) …`);
    const clean = await flisRun({
      sandbox,
      reportDir: join(sandbox, 'runs', `clean-${k}`),
      seed: o.seed,
      args: [...flisArgs, ...mockArgs(mock)],
      timeoutMs: 15 * 60_000,
      stopEarly: false,
      coverageDir,
    });
    if (interrupted()) throw new Interrupted();
    const v = verdictOf(clean);
    const certified = v.status === 'survived' && v.detail === undefined;
    const why = `${v.status}${v.detail ? `: ${v.detail}` : ''}${v.killedBy ? `: ${v.killedBy.join(', ')}` : ''}`;
    if (!certified && k === 0)
      throw new FlisError(
        'FLIS_ERR_INTERNAL',
        `the clean mock does not pass flis run --seed ${o.seed}${mock ? ` --mock-variant ${mock}` : ''} (${why}); nothing to measure`,
      );
    const covered = certified ? coveredIds(coverageDir) : new Set<string>();
    // Past three clean runs and a minute, a mutant's run is taken to hang (a silent route costs 10 s a check first).
    const timeoutMs = Math.max(120_000, 3 * clean.ms + 60_000);
    let added = 0;
    for (const id of covered)
      if (!out.by.has(id)) {
        out.by.set(id, { mock, timeoutMs });
        added++;
      }
    out.runs.push({ mock: mock ?? 'default', ms: clean.ms, certified, reached: covered.size, added });
    console.log(
      certified
        ? `mutation: CERTIFIED in ${(clean.ms / 1000).toFixed(1)} s, reaching ${covered.size} mutants (${added} no run before reached); a run past ${(timeoutMs / 1000).toFixed(0)} s times out`
        : `mutation: not CERTIFIED (${why}): its mutants stay without coverage`,
    );
  }
  return out;
}

/** Ctrl-C before any mutant ran: nothing to report. */
class Interrupted extends Error {}

export async function main(argv: readonly string[]): Promise<number> {
  const started = performance.now();
  const date = new Date().toISOString();
  const o = parseArgs(argv);
  if (o.help) {
    console.log(HELP);
    return 0;
  }
  if (!o.dryRun) checkFolder(o.reportDir, { flag: '--report-dir' });
  const problems = freedomProblems(ROOT);
  if (problems.length > 0) {
    for (const p of problems) console.error(p);
    throw new UsageError(`${problems.length} Stryker directive(s) in mock/ mark no honest freedom (docs/mutation.md)`);
  }
  const inst = await instrument(ROOT, o.files);
  for (const w of inst.warnings) console.error(`stryker: ${w}`);
  const directives = o.files.flatMap((f) => directivesIn(f, inst.sources.get(f) ?? ''));
  for (const at of idleDirectives(directives, inst.mutants))
    console.error(`mutation: ${at}: this Stryker directive marks no mutant of its next line; put it above a statement`);
  const population = inst.mutants.filter((m) => m.freedom !== LABEL);
  const sample = chosen(population, o).map((m) => withOriginal(m, inst.sources));
  console.log(
    `mutation: ${population.length} mutants in ${o.files.length} file(s) (${inst.labels} route labels left out, ` +
      `${population.filter((m) => m.freedom !== undefined).length} marked freedoms); ` +
      (o.ids.length > 0 ? `${sample.length} chosen by id` : `${sample.length} drawn with seed ${o.seed}`),
  );
  if (o.dryRun) {
    for (const m of sample)
      console.log(
        `${whereOf(m)} ${m.mutator}: ${m.original} → ${oneLine(m.replacement)} [#${m.id}]${m.freedom !== undefined ? ' (freedom)' : ''}`,
      );
    return 0;
  }
  // A request the mock never answers is given up on after 10 s (not flis's 30): the check is inconclusive either way.
  const flisArgs = ['--request-timeout', '10s', ...(o.runs !== undefined ? ['--runs', String(o.runs)] : [])];
  const sandbox = makeSandbox(ROOT, inst.files);
  const results: (MutantResult | undefined)[] = new Array(sample.length);
  let cleanMs = 0;
  let cleanRunsDone: CleanRun[] = [];
  // Ctrl-C: the runs (each in a process group of its own) are stopped, and what finished before is reported.
  let interrupted = false;
  const onInterrupt = () => {
    interrupted = true;
    stopAllRuns();
  };
  process.once('SIGINT', onInterrupt);
  try {
    const reached = await cleanRuns(sandbox.dir, o, flisArgs, sample, () => interrupted);
    cleanMs = reached.runs[0]?.ms ?? 0;
    cleanRunsDone = reached.runs;
    let done = 0;
    await pool(sample, o.concurrency, async (m, i) => {
      if (interrupted) return;
      let r: MutantResult;
      if (m.freedom !== undefined) r = { ...m, status: 'freedom' };
      else {
        const on = reached.by.get(m.id);
        if (on === undefined) r = { ...m, status: 'no coverage' };
        else {
          const outcome = await flisRun({
            sandbox: sandbox.dir,
            reportDir: join(sandbox.dir, 'runs', m.id),
            seed: o.seed,
            args: [...flisArgs, ...mockArgs(on.mock)],
            mutantId: m.id,
            timeoutMs: on.timeoutMs,
            stopEarly: true,
          });
          r = { ...m, ...verdictOf(outcome), ms: outcome.ms, ...(on.mock ? { mock: on.mock } : {}) };
        }
      }
      if (interrupted) return;
      results[i] = r;
      console.log(progressLine(++done, sample.length, r));
    });
  } finally {
    process.off('SIGINT', onInterrupt);
    sandbox.remove();
  }
  const finished = results.filter((r): r is MutantResult => r !== undefined);
  const run: RunFacts = {
    date,
    seed: o.seed,
    mutants: population.length,
    labels: inst.labels,
    sampled: finished.length,
    files: o.files,
    flisArgs,
    cleanMs,
    cleanRuns: cleanRunsDone,
    wallMs: performance.now() - started,
  };
  writeReports(o.reportDir, run, finished);
  if (interrupted) console.error(`mutation: interrupted; ${finished.length} of ${sample.length} mutants reported`);
  console.log(summaryLine(summarize(finished), relative(process.cwd(), join(o.reportDir, 'mutation.md'))));
  return interrupted ? 130 : 0;
}

export function writeReports(dir: string, run: RunFacts, results: readonly MutantResult[]): void {
  claimFolder(dir, { flag: '--report-dir' });
  clearOwned(dir, REPORT_NAMES);
  writeFileSync(join(dir, 'mutation.json'), `${JSON.stringify(jsonReport(run, results), null, 2)}\n`);
  writeFileSync(join(dir, 'mutation.md'), markdownReport(run, results));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      if (err instanceof Interrupted) {
        console.error('npm run mutation: interrupted during the clean run; nothing to report');
        process.exitCode = 130;
      } else if (err instanceof FlisError) {
        console.error(`npm run mutation: ${err.message}`);
        process.exitCode = err instanceof UsageError || err.code === 'FLIS_ERR_PATH' ? 2 : 1;
      } else {
        console.error(err);
        process.exitCode = 1;
      }
    },
  );
}
