/**
 * The run's one bound on what it asks of a deployment, shared by every
 * Playwright worker because all their requests pass through the gateway:
 * at most N requests in flight, at most R requests started per second, and
 * nothing started while the deployment has asked the run to wait.
 */

/** At most `limit` holders at once, served in the order they asked. */
export class Slots {
  private held = 0;
  private readonly queue: (() => void)[] = [];
  constructor(readonly limit: number) {}

  async acquire(): Promise<() => void> {
    if (this.held < this.limit) this.held++;
    else await new Promise<void>((granted) => this.queue.push(granted));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      // The slot passes straight to the next in line, so `held` stays as it is.
      if (next) next();
      else this.held--;
    };
  }

  get inFlight(): number {
    return this.held;
  }
}

/**
 * A request rate ceiling as a token bucket (GCRA: each start reserves the next
 * free moment). `burst` 1 spaces requests evenly, which is what a shared
 * sandbox's own bucket forgives best.
 */
export class RateLimit {
  private readonly intervalMs: number;
  private nextAt = 0;
  constructor(
    readonly perSecond: number,
    private readonly burst = 1,
  ) {
    this.intervalMs = 1000 / perSecond;
  }

  /** Milliseconds to wait before this start; the start is reserved. */
  reserve(now = performance.now()): number {
    const earliest = Math.max(now, this.nextAt - (this.burst - 1) * this.intervalMs);
    this.nextAt = Math.max(this.nextAt, now) + this.intervalMs;
    return earliest - now;
  }
}

export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((done) => setTimeout(done, ms)) : Promise.resolve();
}
