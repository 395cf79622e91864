/**
 * A deployment's right to throttle (spec 8: rate limits are "not shown"): the
 * `throttled` variant answers `429 Too Many Requests` with `Retry-After` when
 * its quota is spent, as a shared sandbox does. Conformant: a client that
 * honours Retry-After (the flis gateway) sees every answer in the end.
 *
 * The quota is renewed whole, `burst / perSecond` seconds after it was spent, rather than trickling back with time:
 * what is throttled then depends on the requests alone, not on how fast a busy machine sends them (a steady refill
 * lets a slow enough sender through a burst it would be refused at idle, and a client's robustness verdict would
 * change with the load).
 */
import type { FastifyInstance } from 'fastify';

export interface ThrottleSettings {
  /** The sustained rate the deployment allows: a spent quota comes back `burst / perSecond` seconds later. */
  perSecond: number;
  /** The quota: how many requests may come before the deployment asks to wait. */
  burst: number;
  /**
   * The bucket's clock in ms (default performance.now). A test gives its own so that what is throttled depends on
   * the requests alone, not on how fast a busy machine sends them.
   */
  clock?: () => number;
}

export class TokenBucket {
  private tokens: number;
  /** When the spent quota comes back whole (ms on the bucket's clock); undefined while some is left. */
  private renewAt: number | undefined;
  /** Requests answered 429, for tests. */
  throttled = 0;

  constructor(private readonly settings: ThrottleSettings) {
    this.tokens = settings.burst;
  }

  /** Take a token: 0 when there was one, else the whole seconds until the quota comes back (Retry-After, at least 1). */
  take(now = (this.settings.clock ?? performance.now.bind(performance))()): number {
    const { perSecond, burst } = this.settings;
    if (this.renewAt !== undefined && now >= this.renewAt) {
      this.tokens = burst;
      this.renewAt = undefined;
    }
    if (this.tokens >= 1) {
      this.tokens -= 1;
      if (this.tokens < 1) this.renewAt = now + (burst / perSecond) * 1000;
      return 0;
    }
    this.throttled++;
    return Math.max(1, Math.ceil(((this.renewAt ?? now) - now) / 1000));
  }
}

export function installThrottle(app: FastifyInstance, settings: ThrottleSettings): TokenBucket {
  const bucket = new TokenBucket(settings);
  // First of all hooks: a throttling front end answers before it looks at the token or the body.
  app.addHook('onRequest', async (_request, reply) => {
    const wait = bucket.take();
    if (wait === 0) return;
    await reply
      .code(429)
      .header('retry-after', String(wait))
      .send({ code: 'TOO_MANY_REQUESTS', message: `too many requests; retry after ${wait} s` });
  });
  return bucket;
}
