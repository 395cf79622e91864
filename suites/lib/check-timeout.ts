/**
 * The check timeout (--check-timeout DUR) counts time without progress, not time in total: every answer the check's
 * client receives (a poll's included) gives the check DUR more from that moment. How long a deployment's answers take
 * to arrive and be read depends on the machine's load, and a busy machine may make a run slower, never change its
 * verdict (the same verdict on any machine); a check the deployment stopped answering is still stopped after DUR.
 *
 * Playwright enforces it: its test timeout is the check's whole budget from the start of the test, so after each
 * answer the budget becomes (time since the start + DUR), never less than it was (a check that asked for more time
 * keeps it). A check that keeps getting answers still ends: progress extends it to CAP_FACTOR × DUR at most.
 *
 * A check stopped by either limit judged nothing and is inconclusive, never failed (reporting/outcomes.ts); the
 * reason it carries says which limit stopped it.
 */
import { performance } from 'node:perf_hooks';
import type { TestInfo } from '@playwright/test';

/**
 * The hard cap is this many times DUR: a check that keeps getting answers may run at most ten times as long as one
 * that gets none, which lets the slowest checks finish on a machine ten times busier than the one DUR was chosen on
 * (the default 2m gives 20m), yet still ends a check whose deployment answers forever (a poll that never settles).
 * At the largest DUR (24h) the cap, 240h, stays below the 2^31-1 ms Node's timers hold.
 */
export const CAP_FACTOR = 10;

/** The part of a TestInfo the clock reads and sets. */
export type TimedTest = Pick<TestInfo, 'timeout' | 'setTimeout'>;

/** "2m", "20m", "3s", "1500ms": a duration as --check-timeout takes it. */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const)
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  return `${ms}ms`;
}

export class CheckTimeout {
  readonly capMs: number;
  private readonly startedAt: number;
  private lastAnswerAt: number;
  private closed = false;

  /** `idleMs`: DUR, the project's timeout (0: no timeout, as Playwright reads it). `now`: a monotonic clock in ms. */
  constructor(
    private readonly test: TimedTest,
    readonly idleMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.capMs = CAP_FACTOR * idleMs;
    this.startedAt = now();
    this.lastAnswerAt = this.startedAt;
  }

  /**
   * An answer arrived: the check has DUR more from now, up to the cap. One that arrives past the deadline rescues
   * nothing, even if a busy machine has not yet fired Playwright's timer: which comes first is the load's doing, and
   * the rule (no answer for DUR) has already been met.
   */
  answered(): void {
    if (this.closed || this.idleMs <= 0) return;
    const at = this.now();
    const elapsed = at - this.startedAt;
    if (elapsed >= this.test.timeout) return;
    this.lastAnswerAt = at;
    const wanted = Math.min(Math.ceil(elapsed) + this.idleMs, this.capMs);
    // Only ever later: a check that set itself a longer budget (a property's visibility waits) keeps it.
    if (wanted > this.test.timeout) this.test.setTimeout(wanted);
  }

  /**
   * The test is over: answers that still arrive (a body a timeout cut short runs on in the background) move nothing,
   * so they cannot stretch the time Playwright gives the hooks and fixtures after the test.
   */
  close(): void {
    this.closed = true;
  }

  /**
   * Why a check Playwright stopped at its timeout was stopped. Its deadline was set from the last answer, so a deadline
   * at least DUR after that answer means the deployment went quiet; one sooner means the cap (or a longer budget the
   * check set itself) ended a check that was still getting answers.
   */
  stopReason(): string {
    const deadline = this.test.timeout;
    if (deadline - Math.floor(this.lastAnswerAt - this.startedAt) >= this.idleMs)
      return `the check got no answer for ${formatDuration(this.idleMs)} (--check-timeout)`;
    if (deadline > this.capMs)
      return `the check ran for the ${formatDuration(deadline)} it set itself while still getting answers`;
    return `the check ran for the ${formatDuration(deadline)} cap (${CAP_FACTOR} × --check-timeout) while still getting answers`;
  }
}
