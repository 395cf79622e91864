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
import fc from 'fast-check';
import { CheckBlocked } from './check-blocked.ts';
import type { CheckContext } from './check-test.ts';
import { CheckFailure, type FailureDetails } from './check-failure.ts';
import type { Exchange } from './exchange.ts';
import { concurrency, settleBounded } from './parallel.ts';
import { pollUntil, type PollResult, type Verdict } from './poll.ts';
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
 * while shrinking the deadline is cut to a few times the usual visibility time seen
 * in the passing runs. The shrunk counterexample is then confirmed once with the
 * full deadline, so a slow server is never reported on the strength of a cut one.
 */
let shrinkDeadlineMs: number | undefined;
const visibleAfterMs: number[] = [];

/** The deadline a visibility poll inside a property should use now. */
export function visibilityDeadlineMs(): number {
  return shrinkDeadlineMs ?? target().visibilityTimeoutMs;
}

/** Between polls: a fortieth of the deadline, 20–250 ms, so a slow deployment is not hammered and a fast one not waited on. */
export function pollIntervalMs(deadlineMs = visibilityDeadlineMs()): number {
  return Math.min(250, Math.max(20, Math.floor(deadlineMs / 40)));
}

/**
 * Polls with the visibility deadline in force now (the cut one while a property shrinks) and its interval: the one
 * way the suites wait for a write to show. The judge may answer 'impossible' to stop before the deadline.
 */
export function pollVisible<T>(
  fn: () => Promise<T>,
  judge: (v: T) => boolean | Verdict,
  /** The share of the deadline this poll may use (one write waited on in two halves). */
  share = 1,
): Promise<PollResult<T>> {
  const timeoutMs = Math.ceil(visibilityDeadlineMs() * share);
  return pollUntil(fn, judge, { timeoutMs, intervalMs: pollIntervalMs(timeoutMs) });
}

/** Record how long a write took to become visible (only outside shrinking, where the deadline is the full one). */
export function noteVisibleAfter(ms: number): void {
  if (shrinkDeadlineMs === undefined) visibleAfterMs.push(ms);
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
 * then overlap instead of queueing run after run; fast-check's own sequential run is kept for shrinking a failure.
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

export async function checkProperty<Ts extends [unknown, ...unknown[]]>(
  ctx: CheckContext,
  arbitraries: Arbs<Ts>,
  predicate: (...args: Ts) => Promise<void>,
  options: PropertyOptions = {},
): Promise<void> {
  const t = target();
  const numRuns = Math.max(1, options.numRuns ?? t.runs);
  const shrinkBudgetMs = options.shrinkBudgetMs ?? 8 * t.visibilityTimeoutMs;
  ctx.testInfo.setTimeout(
    ctx.testInfo.timeout + (numRuns * (options.waitsPerRun ?? 1) + 1) * t.visibilityTimeoutMs + shrinkBudgetMs,
  );

  /**
   * A run that met a problem another check owns (before any real failure): the property cannot judge,
   * so it stops (every further candidate is skipped) and the test reports itself blocked, not failed.
   */
  let blocked: CheckBlocked | undefined;
  /** A run that skipped the test (inconclusive: the deployment did not answer in time): no candidate can judge. */
  let skipped: unknown;

  /** Runs the predicate once, returning how it failed (with the exchanges of this run only), if it did. */
  const attempt = async (args: Ts): Promise<Failure<Ts> | undefined> => {
    const start = ctx.api.exchanges.length;
    try {
      await predicate(...args);
      return undefined;
    } catch (error) {
      if (fc.PreconditionFailure.isFailure(error)) throw error;
      return { args, error, exchanges: ctx.api.exchanges.slice(start) };
    }
  };

  let first: Failure<Ts> | undefined;
  let firstFailureAt = 0;
  const body = async (...args: Ts): Promise<void> => {
    // Once blocked, the property has stopped: the candidates fast-check still tries pass at once, without a request.
    if (blocked) return;
    if (skipped) fc.pre(false);
    // Past the shrink budget every further candidate is skipped: fast-check keeps the last failure.
    if (first && Date.now() - firstFailureAt > shrinkBudgetMs) fc.pre(false);
    const failure = await attempt(args);
    if (!failure) return;
    if (ctx.testInfo.expectedStatus === 'skipped') {
      skipped ??= failure.error;
      fc.pre(false);
    }
    if (failure.error instanceof CheckBlocked) {
      // Before any real failure the property cannot judge at all: failing this run ends the runs at once (skipping
      // every further one instead made fast-check generate up to 100 skips per run). While shrinking a real failure,
      // the candidate says nothing.
      if (!first) {
        blocked = failure.error;
        throw failure.error;
      }
      fc.pre(false);
    }
    if (!first) {
      first = failure;
      firstFailureAt = Date.now();
      shrinkDeadlineMs = cutDeadline();
    }
    throw failure.error;
  };
  const property = (fc.asyncProperty as (...a: unknown[]) => fc.IAsyncPropertyWithHooks<Ts>)(...arbitraries, body);
  const params = { seed: t.seed, numRuns };
  // Side by side first, where the runs share nothing; a failure is then judged the sequential way (below).
  let early: { index: number; failure: Failure<Ts> } | undefined;
  if (options.independentRuns) {
    early = await earliestFailingRun(arbitraries, params, attempt);
    if (!early) return;
    if (ctx.testInfo.expectedStatus === 'skipped') throw early.failure.error;
  }
  /**
   * fast-check's own run: from the start, or replaying one run alone. That run already failed with the full
   * deadline, so its replay and shrinking take the cut one; the shrunk case is confirmed with the full one (below).
   */
  const sequential = async (from?: { index: number }): Promise<fc.RunDetails<Ts>> => {
    if (from) shrinkDeadlineMs = cutDeadline();
    try {
      return await fc.check(property, from ? { ...params, path: String(from.index) } : params);
    } finally {
      shrinkDeadlineMs = undefined;
    }
  };
  let run = await sequential(early);
  if (early && !run.failed && !blocked && !skipped) {
    // It failed only beside the other runs (one run's writes met another's, say two creates answered one id, which
    // offer-create-ids owns): not this check's verdict. The runs are made again one after another, and that decides.
    ctx.testInfo.annotations.push({
      type: 'note',
      description: `run ${early.index + 1} of ${numRuns} failed while the runs went side by side and passed alone; the runs were made again one after another`,
    });
    early = undefined;
    run = await sequential();
  }
  if (skipped) throw skipped;
  if (blocked) throw blocked;
  if (!run.failed) return;

  // Confirm the shrunk case with the full deadline; if it passes, the cut deadline misled the shrinker.
  const confirmed = run.counterexample ? await attempt(run.counterexample) : undefined;
  // A confirmation that meets another check's fault says nothing about this one: report the first failure.
  const shrunk = confirmed?.error instanceof CheckBlocked ? undefined : confirmed;
  // No failure of ours recorded means fast-check itself failed (a generator threw): report its error.
  const reported = shrunk ?? first ?? { args: run.counterexample, error: run.errorInstance, exchanges: [] };
  const note =
    shrunk || !first ? '' : '; the shrunk case passed with the full deadline, so the first failing case is reported';
  const budgetNote =
    first && Date.now() - firstFailureAt > shrinkBudgetMs
      ? `; shrinking stopped after its ${shrinkBudgetMs} ms budget`
      : '';
  const { message, details, clause } = detailsOf(reported.error);
  // A replay from the earliest failing run counts only itself; the runs before it passed side by side.
  const runsDone = early ? early.index + 1 : run.numRuns;
  throw new CheckFailure(
    ctx.check.meta.check,
    clause ?? ctx.check.meta.clause,
    `${message}\n  (property failed after ${runsDone} run(s), shrunk ${run.numShrinks} time(s)${budgetNote}${note})`,
    {
      ...details,
      exchanges: compactPolls(reported.exchanges),
      property: {
        seed: run.seed,
        path: (shrunk ? run.counterexamplePath : run.counterexamplePath?.split(':')[0]) ?? '',
        counterexample: fc.stringify(reported.args),
        numRuns: runsDone,
      },
    },
    [t.token],
  );
}
