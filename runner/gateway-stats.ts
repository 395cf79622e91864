/**
 * What the gateway did for the run, for run.json and the certificate: how many
 * requests it forwarded, how many the deployment throttled, how long the run
 * waited because of that, how many token refreshes, retries and timeouts.
 */
import type { NetworkFacts } from '../reporting/certificate-types.ts';

/**
 * The gateway's counts are the certificate's network facts, field for field; the gateway counts every one of them
 * (a field is optional in NetworkFacts only because reports written before it was counted lack it).
 */
export type GatewayStats = Required<NetworkFacts>;

export function emptyStats(): GatewayStats {
  return {
    requests: 0,
    throttled: 0,
    waitedMs: 0,
    retries: 0,
    tokenRefreshes: 0,
    timeouts: 0,
    waitCapReached: 0,
    closedBeforeAnswer: 0,
  };
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
