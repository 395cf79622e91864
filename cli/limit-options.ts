/**
 * The options `flis run` and `flis certify` share for how hard a run may press
 * a deployment and how long it waits: the rate ceiling, the bound on requests
 * in flight, the request and check timeouts and the cap on waiting out
 * throttling (docs/throttling.md). Each has an environment variable; a bad
 * value exits 2 naming the form it takes.
 */
import { UsageError } from '../errors/flis-error.ts';
import type { RunLimits } from '../runner/run-limits.ts';
import { flagOrEnvValue, sourceName, wholeNumber } from './args.ts';

export const limitOptionSpec = {
  'max-rps': { type: 'string' },
  'max-in-flight': { type: 'string' },
  'request-timeout': { type: 'string' },
  'check-timeout': { type: 'string' },
  'max-throttle-wait': { type: 'string' },
} as const;

export const LIMITS_HELP = `Throttling, rate and timeouts (docs/throttling.md):
  --max-rps N              at most N requests a second to the deployment, all workers together
                           (default: no ceiling)                                 [env FLIS_MAX_RPS]
  --max-in-flight N        at most N requests in flight at once (default 32)      [env FLIS_MAX_IN_FLIGHT]
  --request-timeout DUR    a request unanswered after DUR is given up on and its check is
                           inconclusive (default 30s)                            [env FLIS_REQUEST_TIMEOUT]
  --check-timeout DUR      a check without an answer for DUR is stopped and inconclusive; each answer
                           restarts DUR, up to 10 x DUR in all (default 2m)      [env FLIS_CHECK_TIMEOUT]
  --max-throttle-wait DUR  the longest the whole run waits out throttling (429, or 503 with
                           Retry-After); past it throttled checks are inconclusive (default 5m)
                                                                                 [env FLIS_MAX_THROTTLE_WAIT]
  DUR is a number and a unit (1500ms, 30s, 2m, 1h), at most 24h. Throttling is waited out and never fails a check.`;

type LimitValues = { [K in keyof typeof limitOptionSpec]?: string };

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * The longest duration any flag takes. Node's timers hold at most 2^31-1 ms (about 24.8 days) and fire at once
 * past it, so an unbounded value would make every request fail, a bad setting judged as the server's fault.
 */
export const MAX_DURATION_MS = 24 * 3_600_000;

/**
 * "1500ms", "30s", "2.5m", "1h" in milliseconds; a bare number, a negative one, another unit, blanks around it or more
 * than 24h exits 2.
 */
export function parseDuration(flag: string, raw: string, { min = 1, max = MAX_DURATION_MS } = {}): number {
  const m = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)$/.exec(raw);
  const ms = m ? Math.round(Number(m[1]) * (UNIT_MS[m[2] as string] as number)) : Number.NaN;
  if (!(ms >= min && ms <= max))
    throw new UsageError(
      `${sourceName(flag)} must be a duration from ${min === 0 ? '0' : '1'}ms to ${max / 3_600_000}h, a number and a unit (1500ms, 30s, 2m); got '${raw}'`,
    );
  return ms;
}

/** Each flag, else its environment variable; absent when neither is given (the defaults live with the gateway). */
export function parseLimits(v: LimitValues, env: NodeJS.ProcessEnv): RunLimits {
  const from = (flag: keyof LimitValues, variable: string) => flagOrEnvValue(flag, v[flag], env, variable);
  const maxRps = from('max-rps', 'FLIS_MAX_RPS');
  const maxInFlight = from('max-in-flight', 'FLIS_MAX_IN_FLIGHT');
  const request = from('request-timeout', 'FLIS_REQUEST_TIMEOUT');
  const check = from('check-timeout', 'FLIS_CHECK_TIMEOUT');
  const wait = from('max-throttle-wait', 'FLIS_MAX_THROTTLE_WAIT');
  return {
    ...(maxRps.raw !== undefined ? { maxRps: wholeNumber(maxRps.name, maxRps.raw, { min: 1, max: 100_000 }) } : {}),
    ...(maxInFlight.raw !== undefined
      ? { maxInFlight: wholeNumber(maxInFlight.name, maxInFlight.raw, { min: 1, max: 1024 }) }
      : {}),
    ...(request.raw !== undefined ? { requestTimeoutMs: parseDuration(request.name, request.raw) } : {}),
    ...(check.raw !== undefined ? { checkTimeoutMs: parseDuration(check.name, check.raw) } : {}),
    ...(wait.raw !== undefined ? { maxThrottleWaitMs: parseDuration(wait.name, wait.raw, { min: 0 }) } : {}),
  };
}
