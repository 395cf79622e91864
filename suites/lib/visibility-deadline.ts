/**
 * How long the suites wait for an asynchronous write to show (spec 1), and the one way they wait: `pollVisible`.
 *
 * The deadline is the target's (FLIS_VISIBILITY_TIMEOUT_MS), except inside a property (suites/lib/property.ts). A
 * failing run of a visibility check waits out the whole deadline, and shrinking runs many failing candidates, so
 * there the deadline is cut to a few times the usual visibility time seen so far (once a few writes were seen to
 * show): in the runs of the property and while it shrinks. A miss under a cut deadline is only provisional: the
 * property confirms its shrunk counterexample once with the full deadline (and, should it pass, the first failing
 * case, and should that pass too, runs the whole property again with full deadlines), so a slow server is never
 * reported on the strength of a cut deadline, and a server that leaves a value unchanged (slow or never: no one can
 * tell) costs one full deadline, not one per run.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { pollUntil, type PollResult, type Verdict } from '../../core/poll.ts';
import { target } from '../../core/target.ts';

/** full: the target's deadline; cut: the cut one (shrinking); speculate: the cut one once enough writes were seen. */
export type DeadlineMode = 'full' | 'cut' | 'speculate';

/**
 * One run of a property: its deadline mode, and its polls that ran out of a cut deadline (each makes the run's
 * failure provisional). Kept per run, not per worker, since independent runs go side by side.
 */
interface RunScope {
  mode: DeadlineMode;
  cutMisses: number;
}
const runScope = new AsyncLocalStorage<RunScope>();

/** How long writes took to show in this worker so far: the usual visibility time a cut deadline is sized from. */
const visibleAfterMs: number[] = [];
/** Writes seen to show before the deadline may be cut in a property's runs: too few say nothing of the server. */
const MIN_SAMPLES_TO_CUT = 3;

/**
 * Runs `fn` as one run of a property under the deadlines of `mode`. `cutMisses` tells, when asked, how many of the
 * run's polls so far ran out of a cut deadline.
 */
export function underDeadlines<T>(mode: DeadlineMode, fn: (cutMisses: () => number) => Promise<T>): Promise<T> {
  const scope: RunScope = { mode, cutMisses: 0 };
  return runScope.run(scope, () => fn(() => scope.cutMisses));
}

/** The deadline a visibility poll should use now (inside a property's run, possibly the cut one). */
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

/**
 * Record how long a write took to become visible. Not while a property shrinks (its runs have the cut deadline): a
 * shrunk case says little of the server.
 */
export function noteVisibleAfter(ms: number): void {
  if (runScope.getStore()?.mode !== 'cut') visibleAfterMs.push(ms);
}

/** Four times the 90th percentile of the visibility times seen, plus 100 ms; never more than the full deadline. */
function cutDeadline(): number {
  const sorted = [...visibleAfterMs].sort((a, b) => a - b);
  const p90 = sorted[Math.floor(sorted.length * 0.9)] ?? sorted.at(-1) ?? 0;
  return Math.min(target().visibilityTimeoutMs, 4 * p90 + 100);
}
