/**
 * A deployment's right to throttle (spec 8: rate limits are "not shown"): the
 * `throttled` variant answers `429 Too Many Requests` with `Retry-After` when
 * its token bucket is empty, as a shared sandbox does. Conformant: a client
 * that honours Retry-After (the flis gateway) sees every answer in the end.
 */
import type { FastifyInstance } from 'fastify';

export interface ThrottleSettings {
  /** Tokens added per second: the sustained rate the deployment allows. */
  perSecond: number;
  /** The bucket's size: how many requests may come at once after a quiet spell. */
  burst: number;
  /**
   * The bucket's clock in ms (default performance.now). A test gives its own so that what is throttled depends on
   * the requests alone, not on how fast a busy machine sends them.
   */
  clock?: () => number;
}

export class TokenBucket {
  private tokens: number;
  private last: number;
  /** Requests answered 429, for tests. */
  throttled = 0;

  constructor(
    private readonly settings: ThrottleSettings,
    now = (settings.clock ?? performance.now.bind(performance))(),
  ) {
    this.tokens = settings.burst;
    this.last = now;
  }

  /** Take a token: 0 when there was one, else the whole seconds to wait for the next (Retry-After, at least 1). */
  take(now = (this.settings.clock ?? performance.now.bind(performance))()): number {
    const { perSecond, burst } = this.settings;
    this.tokens = Math.min(burst, this.tokens + ((now - this.last) / 1000) * perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    this.throttled++;
    return Math.max(1, Math.ceil((1 - this.tokens) / perSecond));
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
