/**
 * What the runner tells the suites about the deployment under test. The suites
 * read only the variables of suites/lib/suite-env.ts (docs/architecture.md), so
 * they run the same under `flis run` and under a bare `npx playwright test` with
 * the variables set.
 */
import {
  DEFAULT_EXPLORE,
  DEFAULT_RUNS,
  DEFAULT_SEED,
  DEFAULT_VISIBILITY_TIMEOUT_MS,
  type SuiteEnv,
  type SuiteEnvName,
} from './suite-env.ts';

export interface Target {
  /** Where requests go: the run's gateway (or the target itself under a bare `npx playwright test`). */
  baseUrl: string;
  /** The deployment's own base URL, as exchanges, failure records and curl commands show it; baseUrl when absent. */
  publicBaseUrl?: string;
  /** The nonce of the gateway's own answers (suites/lib/worker/gateway-answer.ts); absent without a gateway. */
  gatewayNonce?: string | undefined;
  token: string;
  deployment: string;
  allowWrites: boolean;
  writesSkippedReason: string;
  runId: string;
  seed: number;
  runs: number;
  /** FLIS_EXPLORE: the world-model explorer runs this many times more sequences, this many times longer (--explore). */
  explore: number;
  visibilityTimeoutMs: number;
  /** FLIS_PATH: one failing property's path to replay (suites/lib/replay-path.ts). */
  path?: string | undefined;
  /** FLIS_WORLD_MODEL=off: the world model (suites/lib/world/) is left out, for the bench's side-by-side figure. */
  worldModelOff?: true | undefined;
}

function intFrom(env: SuiteEnv, name: SuiteEnvName, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer; got '${raw}'`);
  return n;
}

export function readTarget(env: SuiteEnv = process.env): Target {
  const baseUrl = env.FLIS_BASE_URL;
  if (!baseUrl) {
    throw new Error(
      'FLIS_BASE_URL is not set: run the suites with `npx flis run`, which starts the target and sets it',
    );
  }
  const nonce = env.FLIS_GATEWAY_NONCE;
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    publicBaseUrl: (env.FLIS_PUBLIC_BASE_URL || baseUrl).replace(/\/+$/, ''),
    gatewayNonce: nonce || undefined,
    token: env.FLIS_TOKEN ?? '',
    deployment: env.FLIS_DEPLOYMENT ?? 'ad-hoc',
    allowWrites: env.FLIS_ALLOW_WRITES === '1',
    writesSkippedReason:
      env.FLIS_WRITES_SKIPPED_REASON || 'writes are not allowed against this target (pass --allow-writes)',
    runId: env.FLIS_RUN_ID ?? 'flis-local',
    seed: intFrom(env, 'FLIS_SEED', DEFAULT_SEED),
    runs: intFrom(env, 'FLIS_RUNS', DEFAULT_RUNS),
    explore: Math.max(1, intFrom(env, 'FLIS_EXPLORE', DEFAULT_EXPLORE)),
    visibilityTimeoutMs: intFrom(env, 'FLIS_VISIBILITY_TIMEOUT_MS', DEFAULT_VISIBILITY_TIMEOUT_MS),
    path: env.FLIS_PATH || undefined,
    worldModelOff: env.FLIS_WORLD_MODEL === 'off' ? true : undefined,
  };
}

let cached: Target | undefined;
/** The target of this Playwright worker, read once. */
export function target(): Target {
  cached ??= readTarget();
  return cached;
}
