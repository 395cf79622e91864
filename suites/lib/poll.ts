/**
 * Waiting for an asynchronous write to show up (spec 1: offers are written
 * asynchronously). Never a fixed sleep: ask again until the answer is
 * acceptable or the deadline passes, and let the caller decide what a miss means.
 */
import { setTimeout as delay } from 'node:timers/promises';

export interface PollOptions {
  /** Give up once this much time has passed since the first attempt. */
  timeoutMs: number;
  /** Pause between attempts; shortened so the last attempt lands on the deadline. */
  intervalMs: number;
}

export interface PollResult<T> {
  /** The last value fetched: the accepted one, or the last miss when the deadline passed. */
  value: T;
  ok: boolean;
  attempts: number;
  elapsedMs: number;
}

export async function pollUntil<T>(
  fn: () => Promise<T>,
  accept: (v: T) => boolean,
  { timeoutMs, intervalMs }: PollOptions,
): Promise<PollResult<T>> {
  const started = Date.now();
  const deadline = started + Math.max(0, timeoutMs);
  for (let attempts = 1; ; attempts++) {
    const value = await fn();
    if (accept(value)) return { value, ok: true, attempts, elapsedMs: Date.now() - started };
    const left = deadline - Date.now();
    if (left <= 0) return { value, ok: false, attempts, elapsedMs: Date.now() - started };
    await delay(Math.min(Math.max(1, intervalMs), left));
  }
}
