/**
 * Runs a fast-check property inside a check: with the target's seed and number
 * of runs (so `flis run --seed N` reproduces the same inputs), and on failure
 * throws a CheckFailure carrying the seed, the path, the shrunk counterexample
 * and the requests and responses of the failing case — only those of the last,
 * shrunk execution, so the report shows the smallest exchange that fails.
 *
 * fc.check (not fc.assert) is used so the run details (seed, path,
 * counterexample, error) come back as data instead of as a formatted message.
 * Its runs wait with the deadlines of suites/lib/visibility-deadline.ts: cut
 * ones while searching and shrinking, the full one before a failure is reported.
 */
import { secretsWithDerived } from '../../core/redact.ts';
import fc from 'fast-check';
import { CheckBlocked } from './check-blocked.ts';
import type { CheckContext } from './check-context.ts';
import { CheckFailure, type FailureDetails } from '../../core/check-failure.ts';
import type { Exchange } from '../../core/exchange.ts';
import { concurrency, settleBounded } from './parallel.ts';
import { nextPropertyId, replayPathOf } from '../../core/replay-path.ts';
import { target } from '../../core/target.ts';
import { type DeadlineMode, underDeadlines } from './visibility-deadline.ts';

export interface PropertyOptions {
  /** Runs of this property; default: the target's runs (FLIS_RUNS). */
  numRuns?: number;
  /**
   * How many visibility deadlines one run may wait out (default 1). Only sizes
   * the test timeout: a failing run against an asynchronous server waits the
   * whole deadline, so a slow server needs the time, a fast one never uses it.
   */
  waitsPerRun?: number;
  /**
   * Stop shrinking after this long. Each shrink attempt that still fails may
   * wait out a visibility deadline; past the budget the smallest failure found
   * so far is reported. Default: 8 visibility deadlines.
   */
  shrinkBudgetMs?: number;
  /**
   * The runs share nothing (each writes its own records, or only reads): they may go side by side. A run that
   * changes records another run reads (the shared billing groups) must leave this off.
   */
  independentRuns?: boolean;
}

type Arbs<Ts extends unknown[]> = { [K in keyof Ts]: fc.Arbitrary<Ts[K]> };

/** Polling repeats the same GET; in a report only the last answer of each run of polls matters. */
export function compactPolls(exchanges: readonly Exchange[]): Exchange[] {
  return exchanges.filter((x, i) => {
    const next = exchanges[i + 1];
    return !(x.request.method === 'GET' && next && next.request.method === 'GET' && next.request.url === x.request.url);
  });
}

function detailsOf(error: unknown): { message: string; details: FailureDetails; clause?: string } {
  if (error instanceof CheckFailure) {
    const r = error.record;
    return {
      message: r.message,
      clause: r.clause,
      details: {
        operationId: r.operationId,
        method: r.method,
        path: r.path,
        pointer: r.pointer,
        schemaPath: r.schemaPath,
        severity: r.severity,
      },
    };
  }
  return { message: error instanceof Error ? `${error.name}: ${error.message}` : String(error), details: {} };
}

interface Failure<Ts> {
  args: Ts;
  error: unknown;
  exchanges: Exchange[];
  /** A poll ran out of a cut deadline in this run: the failure stands only once the full deadline confirms it. */
  provisional: boolean;
}

/** What one fast-check search found, filled in by its candidates while fast-check runs them. */
interface SearchState<Ts> {
  /** The first failing run (before shrinking). */
  first?: Failure<Ts>;
  firstFailureAt: number;
  /**
   * A run that met a problem another check owns (before any real failure): the property cannot judge, so it stops
   * (every further candidate is skipped) and the test reports itself blocked, not failed.
   */
  blocked?: CheckBlocked;
  /** A run that skipped the test (inconclusive: the deployment did not answer in time): no candidate can judge. */
  skipped?: unknown;
}

interface Search<Ts> extends SearchState<Ts> {
  run: fc.RunDetails<Ts>;
}

/** What a failed property reports: the confirmed shrunk case, or else the first failing case. */
interface Reported<Ts> {
  failure: Failure<Ts>;
  shrunk: boolean;
  note: string;
}

/** A property under check: what each of its runs and searches needs. */
interface PropertyCheck<Ts extends [unknown, ...unknown[]]> {
  ctx: CheckContext;
  /** The property's id within its test (core/replay-path.ts): what --path names. */
  id: string;
  arbitraries: Arbs<Ts>;
  predicate: (...args: Ts) => Promise<void>;
  /** fast-check's seed (the target's) and number of runs. */
  params: { seed: number; numRuns: number };
  shrinkBudgetMs: number;
}

export async function checkProperty<Ts extends [unknown, ...unknown[]]>(
  ctx: CheckContext,
  arbitraries: Arbs<Ts>,
  predicate: (...args: Ts) => Promise<void>,
  options: PropertyOptions = {},
): Promise<void> {
  const t = target();
  const numRuns = Math.max(1, options.numRuns ?? t.runs);
  const p: PropertyCheck<Ts> = {
    ctx,
    id: nextPropertyId(ctx.testInfo),
    arbitraries,
    predicate,
    params: { seed: t.seed, numRuns },
    shrinkBudgetMs: options.shrinkBudgetMs ?? 8 * t.visibilityTimeoutMs,
  };
  const replay = replayPathOf(p.id, t.path);
  // Room for a second search with full deadlines, after a first one whose cut deadlines misled it.
  const waits = numRuns * (options.waitsPerRun ?? 1) + 3;
  ctx.testInfo.setTimeout(ctx.testInfo.timeout + waits * t.visibilityTimeoutMs + 2 * p.shrinkBudgetMs);
  // Side by side first, where the runs share nothing; a failure is then judged the sequential way: fast-check replays
  // the earliest failing run alone and goes on with the runs after it.
  let from: number | undefined;
  if (options.independentRuns && replay === undefined) {
    const early = await earliestFailingRun(arbitraries, p.params, (args) => attempt(p, args, 'speculate'));
    if (!early) return;
    if (ctx.testInfo.expectedStatus === 'skipped') throw early.failure.error;
    from = early.index;
  }
  // A failure found under cut deadlines that the full deadline does not confirm: search again with full deadlines.
  for (const speculate of [true, false]) {
    const replayedFrom = speculate ? from : undefined;
    const s = await search(p, speculate, replay ?? replayedFrom);
    if (s.skipped) throw s.skipped;
    if (s.blocked) throw s.blocked;
    if (!s.run.failed) {
      if (replayedFrom !== undefined) notePassedAlone(p, replayedFrom);
      return;
    }
    const reported = await judge(p, s);
    if (reported) throw failureOf(p, s, reported, replayedFrom ?? 0);
  }
}

/** Runs the predicate once with the deadlines of `mode`, returning how it failed, if it did. */
function attempt<Ts extends [unknown, ...unknown[]]>(
  p: PropertyCheck<Ts>,
  args: Ts,
  mode: DeadlineMode,
): Promise<Failure<Ts> | undefined> {
  return underDeadlines(mode, async (cutMisses) => {
    const start = p.ctx.api.exchanges.length;
    try {
      await p.predicate(...args);
      return undefined;
    } catch (error) {
      if (fc.PreconditionFailure.isFailure(error)) throw error;
      return { args, error, exchanges: p.ctx.api.exchanges.slice(start), provisional: cutMisses() > 0 };
    }
  });
}

function asyncPropertyOf<Ts extends [unknown, ...unknown[]]>(
  arbitraries: Arbs<Ts>,
  body: (...args: Ts) => Promise<void>,
): fc.IAsyncPropertyWithHooks<Ts> {
  return (fc.asyncProperty as (...a: unknown[]) => fc.IAsyncPropertyWithHooks<Ts>)(...arbitraries, body);
}

/**
 * One fast-check search; `speculate`: its runs may use the cut deadline too, not only its shrinking. `from`: it
 * starts at that run (one that failed side by side), replayed alone, and goes on with the runs after it; or, a
 * path, at the case a failure printed (--path).
 */
async function search<Ts extends [unknown, ...unknown[]]>(
  p: PropertyCheck<Ts>,
  speculate: boolean,
  from?: number | string,
): Promise<Search<Ts>> {
  const s: SearchState<Ts> = { firstFailureAt: 0 };
  const property = asyncPropertyOf(p.arbitraries, (...args: Ts) => tryCandidate(p, s, speculate, args));
  // A path given to replay (--path) is the failing case itself: reported as it is, not shrunk on past it, so the
  // replay shows the very failure that printed the path (a shrink cut short by its budget would go on otherwise).
  const replaying = typeof from === 'string' ? { endOnFailure: true } : {};
  const run = await fc.check(property, {
    ...p.params,
    ...(from !== undefined ? { path: String(from) } : {}),
    ...replaying,
  });
  // Only now: the candidates have filled `s` in while fast-check ran.
  return { ...s, run };
}

/** Shrinking has gone on past its budget: the smallest failure found so far is reported. */
function pastShrinkBudget(p: { shrinkBudgetMs: number }, s: SearchState<unknown>): boolean {
  return s.first !== undefined && Date.now() - s.firstFailureAt > p.shrinkBudgetMs;
}

/**
 * One candidate of a search, for fast-check: returns when it passes, throws its error when it fails, and fails a
 * precondition when it cannot judge. Records the search's first failure, block or skip in `s`.
 */
async function tryCandidate<Ts extends [unknown, ...unknown[]]>(
  p: PropertyCheck<Ts>,
  s: SearchState<Ts>,
  speculate: boolean,
  args: Ts,
): Promise<void> {
  // Once blocked or skipped, or past the shrink budget, the search ends: an interrupting precondition stops
  // fast-check at once, keeping the last failure. (Skipping or passing each further candidate made fast-check
  // build every shrink of the failing value, over a second of CPU for a blocked property over arrays.)
  if (s.blocked || s.skipped || pastShrinkBudget(p, s)) throw new fc.PreconditionFailure(true);
  const failure = await attemptCandidate(p, s, speculate, args);
  if (!failure) return;
  if (p.ctx.testInfo.expectedStatus === 'skipped') {
    s.skipped ??= failure.error;
    fc.pre(false);
  }
  if (failure.error instanceof CheckBlocked) {
    // Before any real failure the property cannot judge at all: failing this run ends the runs at once (skipping
    // every further one instead made fast-check generate up to 100 skips per run). While shrinking a real
    // failure, the candidate says nothing.
    if (!s.first) {
      s.blocked = failure.error;
      throw failure.error;
    }
    fc.pre(false);
  }
  if (!s.first) {
    s.first = failure;
    s.firstFailureAt = Date.now();
  }
  throw failure.error;
}

/** A candidate's run: with the cut deadline once the search shrinks, else the search's own. */
async function attemptCandidate<Ts extends [unknown, ...unknown[]]>(
  p: PropertyCheck<Ts>,
  s: SearchState<Ts>,
  speculate: boolean,
  args: Ts,
): Promise<Failure<Ts> | undefined> {
  const failure = await attempt(p, args, s.first ? 'cut' : speculate ? 'speculate' : 'full');
  // Blocked stops the whole property, so a block met under a cut deadline is believed only at the full one.
  if (failure?.provisional && !s.first && failure.error instanceof CheckBlocked) return attempt(p, args, 'full');
  return failure;
}

/** The failure to report, each judged with the full deadline; undefined when no failure stands at it. */
async function judge<Ts extends [unknown, ...unknown[]]>(
  p: PropertyCheck<Ts>,
  s: Search<Ts>,
): Promise<Reported<Ts> | undefined> {
  const { run, first } = s;
  // Confirm the shrunk case with the full deadline; if it passes, the cut deadline misled the shrinker.
  const confirmed = run.counterexample ? await attempt(p, run.counterexample, 'full') : undefined;
  // A confirmation that meets another check's fault says nothing about this one: report the first failure.
  if (confirmed && !(confirmed.error instanceof CheckBlocked)) return { failure: confirmed, shrunk: true, note: '' };
  // No failure of ours recorded means fast-check itself failed (a generator threw): report its error.
  if (!first)
    return {
      failure: { args: run.counterexample as Ts, error: run.errorInstance, exchanges: [], provisional: false },
      shrunk: false,
      note: '',
    };
  const note = '; the shrunk case passed with the full deadline, so the first failing case is reported';
  if (!first.provisional) return { failure: first, shrunk: false, note };
  const again = await attempt(p, first.args, 'full');
  return again && !(again.error instanceof CheckBlocked) ? { failure: again, shrunk: false, note } : undefined;
}

/**
 * The run that failed beside the others passed alone, and so did the runs after it (one run's writes met another's,
 * say two creates answered one id, which offer-create-ids owns): not this check's verdict.
 */
function notePassedAlone<Ts extends [unknown, ...unknown[]]>(p: PropertyCheck<Ts>, from: number): void {
  p.ctx.testInfo.annotations.push({
    type: 'note',
    description: `run ${from + 1} of ${p.params.numRuns} failed while the runs went side by side and passed alone, as did the runs after it`,
  });
}

/** Property runs side by side: a third of the requests a check may have in flight, so each run keeps some too. */
function runsAtOnce(): number {
  return Math.max(1, Math.floor(concurrency() / 3));
}

/**
 * The inputs fast-check tries, in its order: a run of the same arbitraries with the same parameters whose predicate
 * only keeps them (fast-check biases its draws by run index, so `fc.sample` draws other values).
 */
async function inputsOf<Ts extends [unknown, ...unknown[]]>(
  arbitraries: Arbs<Ts>,
  params: { seed: number; numRuns: number },
): Promise<Ts[]> {
  const inputs: Ts[] = [];
  const keep = async (...args: Ts): Promise<void> => {
    inputs.push(args);
  };
  await fc.check(asyncPropertyOf(arbitraries, keep), params);
  return inputs;
}

/**
 * The runs fast-check would make, side by side. Answers the earliest failing run by index, so the verdict does not
 * depend on how the answers interleave; once a run fails no later one starts. A distant deployment's round trips
 * then overlap instead of queueing run after run.
 */
async function earliestFailingRun<Ts extends [unknown, ...unknown[]], F>(
  arbitraries: Arbs<Ts>,
  params: { seed: number; numRuns: number },
  attempt: (args: Ts) => Promise<F | undefined>,
): Promise<{ index: number; failure: F } | undefined> {
  const { failures } = await settleBounded(
    await inputsOf(arbitraries, params),
    async (args) => {
      const failure = await attempt(args);
      if (failure) throw failure;
    },
    runsAtOnce(),
  );
  const earliest = [...failures].sort((a, b) => a.index - b.index)[0];
  return earliest && { index: earliest.index, failure: earliest.error as F };
}

function failureOf<Ts extends [unknown, ...unknown[]]>(
  p: PropertyCheck<Ts>,
  s: Search<Ts>,
  reported: Reported<Ts>,
  /** The run a search replayed from: the runs before it passed side by side. */
  from: number,
): CheckFailure {
  const { run } = s;
  const budgetNote = pastShrinkBudget(p, s) ? `; shrinking stopped after its ${p.shrinkBudgetMs} ms budget` : '';
  const { message, details, clause } = detailsOf(reported.failure.error);
  return new CheckFailure(
    p.ctx.check.meta.check,
    clause ?? p.ctx.check.meta.clause,
    `${message}\n  (property failed after ${from + run.numRuns} run(s), shrunk ${run.numShrinks} time(s)${budgetNote}${reported.note})`,
    {
      ...details,
      exchanges: compactPolls(reported.failure.exchanges),
      property: {
        id: p.id,
        seed: run.seed,
        path: (reported.shrunk ? run.counterexamplePath : run.counterexamplePath?.split(':')[0]) ?? '',
        counterexample: fc.stringify(reported.failure.args),
        numRuns: from + run.numRuns,
      },
    },
    secretsWithDerived([target().token]),
  );
}
