/**
 * What the gateway did for the run, for run.json and the certificate: how many
 * requests it forwarded, how many the deployment throttled, how long the run
 * waited because of that, how many token refreshes, retries and timeouts.
 */

export interface GatewayStats {
  /** Requests the suites sent (each counted once, however often it was retried). */
  requests: number;
  /** Answers of 429, or 503 with Retry-After, that the gateway waited out instead of passing on. */
  throttled: number;
  /** Wall-clock time during which the run held requests back because the deployment asked it to (ms). */
  waitedMs: number;
  /** Requests sent again: after throttling, or once after a refused token was renewed. */
  retries: number;
  /** Tokens renewed because the deployment refused the run's token (401 invalid_token). */
  tokenRefreshes: number;
  /** Requests the deployment did not answer within the request timeout: their checks are inconclusive. */
  timeouts: number;
  /** Requests given up on because waiting for them would pass the run's wait cap: inconclusive too. */
  waitCapReached: number;
}

export function emptyStats(): GatewayStats {
  return { requests: 0, throttled: 0, waitedMs: 0, retries: 0, tokenRefreshes: 0, timeouts: 0, waitCapReached: 0 };
}

/**
 * The pause the deployment asked for, shared by the whole run: a request that
 * is told to wait holds every new request back too (they would be throttled
 * alike), and the time waited is the wall-clock time paused, not the sum over
 * requests waiting side by side.
 */
export class ThrottlePause {
  private until = 0;
  waitedMs = 0;
  constructor(private readonly capMs: number) {}

  /**
   * Pause the run for `ms` from now (or longer, if already paused longer). False, and no pause, when the time
   * waited would pass the cap.
   */
  extend(ms: number, now = Date.now()): boolean {
    const from = Math.max(this.until, now);
    const added = Math.max(0, now + ms - from);
    if (this.waitedMs + added > this.capMs) return false;
    this.waitedMs += added;
    this.until = from + added;
    return true;
  }

  /** Milliseconds until the pause ends (0 when not paused). */
  remaining(now = Date.now()): number {
    return Math.max(0, this.until - now);
  }
}
