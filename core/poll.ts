/**
 * Waiting for an asynchronous write to show up (spec 1: offers are written
 * asynchronously). Never a fixed sleep: ask again until the answer is
 * acceptable or the deadline passes, and let the caller decide what a miss means.
 *
 * A judge may also answer that the value can never become acceptable (a field
 * that is neither the value before the write nor the one written, or a value
 * still old once the batch says it was processed): polling stops at once
 * instead of waiting out the deadline (issue 17: a wrong server fails fast).
 *
 * Checks wait through `pollVisible` (suites/lib/visibility-deadline.ts), which calls this
 * with the visibility deadline in force: the full one, or the cut one while a
 * property shrinks. Only it calls pollUntil directly.
 */
import { setTimeout as delay } from 'node:timers/promises';

export interface PollOptions {
  /** Give up once this much time has passed since the first attempt. */
  timeoutMs: number;
  /** Pause between attempts; shortened so the last attempt lands on the deadline. */
  intervalMs: number;
}

/** accept: done; wait: not yet, ask again; impossible: it can never become acceptable, stop now. */
export type Verdict = 'accept' | 'wait' | 'impossible';

export interface PollResult<T> {
  /** The last value fetched: the accepted one, or the last miss when the deadline passed or the judge gave up. */
  value: T;
  ok: boolean;
  /** True when the judge answered 'impossible': the miss did not wait for the deadline. */
  impossible: boolean;
  attempts: number;
  elapsedMs: number;
}

function verdictOf(v: boolean | Verdict): Verdict {
  if (v === true) return 'accept';
  if (v === false) return 'wait';
  return v;
}

export async function pollUntil<T>(
  fn: () => Promise<T>,
  judge: (v: T) => boolean | Verdict,
  { timeoutMs, intervalMs }: PollOptions,
): Promise<PollResult<T>> {
  const started = Date.now();
  const deadline = started + Math.max(0, timeoutMs);
  for (let attempts = 1; ; attempts++) {
    const value = await fn();
    const verdict = verdictOf(judge(value));
    const elapsedMs = Date.now() - started;
    if (verdict === 'accept') return { value, ok: true, impossible: false, attempts, elapsedMs };
    if (verdict === 'impossible') return { value, ok: false, impossible: true, attempts, elapsedMs };
    const left = deadline - Date.now();
    if (left <= 0) return { value, ok: false, impossible: false, attempts, elapsedMs };
    await delay(Math.min(Math.max(1, intervalMs), left));
  }
}
