/**
 * Runs a fast-check property inside a check: with the target's seed and number
 * of runs (so `flis run --seed N` reproduces the same inputs), and on failure
 * throws a CheckFailure carrying the seed, the path, the shrunk counterexample
 * and the requests and responses of the failing case — only those of the last,
 * shrunk execution, so the report shows the smallest exchange that fails.
 *
 * fc.check (not fc.assert) is used so the run details (seed, path,
 * counterexample, error) come back as data instead of as a formatted message.
 */
import { secretsWithDerived } from './worker/redact.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import fc from 'fast-check';
import { CheckBlocked } from './check-blocked.ts';
import type { CheckContext } from './check-test.ts';
import { CheckFailure, type FailureDetails } from './check-failure.ts';
import type { Exchange } from './exchange.ts';
import { concurrency, settleBounded } from './parallel.ts';
import { pollUntil, type PollResult, type Verdict } from './poll.ts';
import { nextPropertyId, replayPathOf } from './replay-path.ts';
import { target } from './target.ts';

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
        ...(r.operationId ? { operationId: r.operationId } : {}),
        ...(r.method ? { method: r.method } : {}),
        ...(r.path ? { path: r.path } : {}),
        ...(r.pointer !== undefined ? { pointer: r.pointer } : {}),
        ...(r.schemaPath ? { schemaPath: r.schemaPath } : {}),
        ...(r.severity ? { severity: r.severity } : {}),
      },
    };
  }
  return { message: error instanceof Error ? `${error.name}: ${error.message}` : String(error), details: {} };
}

/**
 * Visibility deadlines inside a property. A failing run of a visibility check
 * waits out the whole deadline, and shrinking runs many failing candidates, so
 * the deadline is cut to a few times the usual visibility time seen so far
 * (once a few writes were seen to show): in the runs of the property and while
 * it shrinks. A miss under a cut deadline is only provisional: the shrunk
 * counterexample is confirmed once with the full deadline (and, should it pass,
 * the first failing case, and should that pass too, the whole property runs
 * again with full deadlines), so a slow server is never reported on the
 * strength of a cut deadline, and a server that leaves a value unchanged (slow
 * or never: no one can tell) costs one full deadline, not one per run.
 */
/** full: the target's deadline; cut: the cut one (shrinking); speculate: the cut one once enough writes were seen. */
type DeadlineMode = 'full' | 'cut' | 'speculate';
/**
 * One run of a property: its deadline mode, and its polls that ran out of a cut deadline (each makes the run's
 * failure provisional). Kept per run, not per worker, since independent runs go side by side.
 */
interface RunScope {
  mode: DeadlineMode;
  cutMisses: number;
}
const runScope = new AsyncLocalStorage<RunScope>();
/** Set while a property shrinks: visibility times seen then are not the server's usual ones. */
let shrinking = false;
const visibleAfterMs: number[] = [];
/** Writes seen to show before the deadline may be cut in a property's runs: too few say nothing of the server. */
const MIN_SAMPLES_TO_CUT = 3;

/** The deadline a visibility poll inside a property should use now. */
export function visibilityDeadlineMs(): number {
  const mode = runScope.getStore()?.mode ?? 'full';
  const cut = mode === 'cut' || (mode === 'speculate' && visibleAfterMs.length >= MIN_SAMPLES_TO_CUT);
  return cut ? cutDeadline() : target().visibilityTimeoutMs;
}

/** Between polls: a fortieth of the deadline, 20–250 ms, so a slow deployment is not hammered and a fast one not waited on. */
export function pollIntervalMs(deadlineMs = visibilityDeadlineMs()): number {
  return Math.min(250, Math.max(20, Math.floor(deadlineMs / 40)));
}

/**
 * Polls with the visibility deadline in force now (inside a property, possibly the cut one) and its interval: the one
 * way the suites wait for a write to show. The judge may answer 'impossible' to stop before the deadline. A miss
 * under a cut deadline is counted, so the property's run that met it fails only provisionally.
 */
export async function pollVisible<T>(
  fn: () => Promise<T>,
  judge: (v: T) => boolean | Verdict,
  /** The share of the deadline this poll may use (one write waited on in two halves). */
  share = 1,
): Promise<PollResult<T>> {
  const deadlineMs = visibilityDeadlineMs();
  const cut = deadlineMs < target().visibilityTimeoutMs;
  const timeoutMs = Math.ceil(deadlineMs * share);
  const r = await pollUntil(fn, judge, { timeoutMs, intervalMs: pollIntervalMs(timeoutMs) });
  const scope = runScope.getStore();
  if (cut && !r.ok && !r.impossible && scope) scope.cutMisses++;
  return r;
}

/** Record how long a write took to become visible (not while shrinking: a shrunk case says little of the server). */
export function noteVisibleAfter(ms: number): void {
  if (!shrinking) visibleAfterMs.push(ms);
}

/** Four times the 90th percentile of the visibility times seen, plus 100 ms; never more than the full deadline. */
function cutDeadline(): number {
  const sorted = [...visibleAfterMs].sort((a, b) => a - b);
  const p90 = sorted[Math.floor(sorted.length * 0.9)] ?? sorted.at(-1) ?? 0;
  return Math.min(target().visibilityTimeoutMs, 4 * p90 + 100);
}

interface Failure<Ts> {
  args: Ts;
  error: unknown;
  exchanges: Exchange[];
  /** A poll ran out of a cut deadline in this run: the failure stands only once the full deadline confirms it. */
  provisional: boolean;
}

interface Search<Ts> {
  run: fc.RunDetails<Ts>;
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

/** What a failed property reports: the confirmed shrunk case, or else the first failing case. */
interface Reported<Ts> {
  failure: Failure<Ts>;
  shrunk: boolean;
  note: string;
}

export async function checkProperty<Ts extends [unknown, ...unknown[]]>(
  ctx: CheckContext,
  arbitraries: Arbs<Ts>,
  predicate: (...args: Ts) => Promise<void>,
  options: PropertyOptions = {},
): Promise<void> {
  const t = target();
  const propertyId = nextPropertyId(ctx.testInfo);
  const replay = replayPathOf(propertyId, t.path);
  const numRuns = Math.max(1, options.numRuns ?? t.runs);
  const shrinkBudgetMs = options.shrinkBudgetMs ?? 8 * t.visibilityTimeoutMs;
  // Room for a second search with full deadlines, after a first one whose cut deadlines misled it.
  ctx.testInfo.setTimeout(
    ctx.testInfo.timeout + (numRuns * (options.waitsPerRun ?? 1) + 3) * t.visibilityTimeoutMs + 2 * shrinkBudgetMs,
  );

  /** Runs the predicate once with the deadlines of `mode`, returning how it failed, if it did. */
  const attempt = (args: Ts, mode: DeadlineMode): Promise<Failure<Ts> | undefined> => {
    const scope: RunScope = { mode, cutMisses: 0 };
    return runScope.run(scope, async () => {
      const start = ctx.api.exchanges.length;
      try {
        await predicate(...args);
        return undefined;
      } catch (error) {
        if (fc.PreconditionFailure.isFailure(error)) throw error;
        return { args, error, exchanges: ctx.api.exchanges.slice(start), provisional: scope.cutMisses > 0 };
      }
    });
  };

  /**
   * One fast-check search; `speculate`: its runs may use the cut deadline too, not only its shrinking. `from`: it
   * starts at that run (one that failed side by side), replayed alone, and goes on with the runs after it; or, a
   * path, at the case a failure printed (--path).
   */
  const search = async (speculate: boolean, from?: number | string): Promise<Search<Ts>> => {
    const s: Omit<Search<Ts>, 'run'> = { firstFailureAt: 0 };
    const body = async (...args: Ts): Promise<void> => {
      // Once blocked or skipped, or past the shrink budget, the search ends: an interrupting precondition stops
      // fast-check at once, keeping the last failure. (Skipping or passing each further candidate made fast-check
      // build every shrink of the failing value, over a second of CPU for a blocked property over arrays.)
      if (s.blocked || s.skipped || (s.first && Date.now() - s.firstFailureAt > shrinkBudgetMs))
        throw new fc.PreconditionFailure(true);
      let failure = await attempt(args, s.first ? 'cut' : speculate ? 'speculate' : 'full');
      // Blocked stops the whole property, so a block met under a cut deadline is believed only at the full one.
      if (failure?.provisional && !s.first && failure.error instanceof CheckBlocked)
        failure = await attempt(args, 'full');
      if (!failure) return;
      if (ctx.testInfo.expectedStatus === 'skipped') {
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
        shrinking = true;
      }
      throw failure.error;
    };
    const property = (fc.asyncProperty as (...a: unknown[]) => fc.IAsyncPropertyWithHooks<Ts>)(...arbitraries, body);
    try {
      // A path given to replay (--path) is the failing case itself: reported as it is, not shrunk on past it, so the
      // replay shows the very failure that printed the path (a shrink cut short by its budget would go on otherwise).
      const replaying = typeof from === 'string' ? { endOnFailure: true } : {};
      const run = await fc.check(property, {
        ...params,
        ...(from !== undefined ? { path: String(from) } : {}),
        ...replaying,
      });
      // Only now: the body has filled `s` in while fast-check ran.
      return { ...s, run };
    } finally {
      shrinking = false;
    }
  };

  /** The failure to report, each judged with the full deadline; undefined when no failure stands at it. */
  const judge = async (s: Search<Ts>): Promise<Reported<Ts> | undefined> => {
    const { run, first } = s;
    // Confirm the shrunk case with the full deadline; if it passes, the cut deadline misled the shrinker.
    const confirmed = run.counterexample ? await attempt(run.counterexample, 'full') : undefined;
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
    const again = await attempt(first.args, 'full');
    return again && !(again.error instanceof CheckBlocked) ? { failure: again, shrunk: false, note } : undefined;
  };

  const params = { seed: t.seed, numRuns };
  // Side by side first, where the runs share nothing; a failure is then judged the sequential way: fast-check replays
  // the earliest failing run alone and goes on with the runs after it.
  let from: number | undefined;
  if (options.independentRuns && replay === undefined) {
    const early = await earliestFailingRun(arbitraries, params, (args) => attempt(args, 'speculate'));
    if (!early) return;
    if (ctx.testInfo.expectedStatus === 'skipped') throw early.failure.error;
    from = early.index;
  }
  // A failure found under cut deadlines that the full deadline does not confirm: search again with full deadlines.
  for (const speculate of [true, false]) {
    const s = await search(speculate, replay ?? (speculate ? from : undefined));
    if (s.skipped) throw s.skipped;
    if (s.blocked) throw s.blocked;
    if (!s.run.failed) {
      // The run that failed beside the others passed alone, and so did the runs after it (one run's writes met
      // another's, say two creates answered one id, which offer-create-ids owns): not this check's verdict.
      if (from !== undefined && speculate)
        ctx.testInfo.annotations.push({
          type: 'note',
          description: `run ${from + 1} of ${numRuns} failed while the runs went side by side and passed alone, as did the runs after it`,
        });
      return;
    }
    const reported = await judge(s);
    if (reported) throw failureOf(ctx, s, reported, shrinkBudgetMs, speculate ? (from ?? 0) : 0, propertyId);
  }
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
  await fc.check(
    (fc.asyncProperty as (...a: unknown[]) => fc.IAsyncPropertyWithHooks<Ts>)(...arbitraries, keep),
    params,
  );
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

function failureOf<Ts>(
  ctx: CheckContext,
  s: Search<Ts>,
  reported: Reported<Ts>,
  shrinkBudgetMs: number,
  /** The run a search replayed from: the runs before it passed side by side. */
  from: number,
  propertyId: string,
): CheckFailure {
  const t = target();
  const { run, first, firstFailureAt } = s;
  const budgetNote =
    first && Date.now() - firstFailureAt > shrinkBudgetMs
      ? `; shrinking stopped after its ${shrinkBudgetMs} ms budget`
      : '';
  const { message, details, clause } = detailsOf(reported.failure.error);
  return new CheckFailure(
    ctx.check.meta.check,
    clause ?? ctx.check.meta.clause,
    `${message}\n  (property failed after ${from + run.numRuns} run(s), shrunk ${run.numShrinks} time(s)${budgetNote}${reported.note})`,
    {
      ...details,
      exchanges: compactPolls(reported.failure.exchanges),
      property: {
        id: propertyId,
        seed: run.seed,
        path: (reported.shrunk ? run.counterexamplePath : run.counterexamplePath?.split(':')[0]) ?? '',
        counterexample: fc.stringify(reported.failure.args),
        numRuns: from + run.numRuns,
      },
    },
    secretsWithDerived([t.token]),
  );
}
