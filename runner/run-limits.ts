/**
 * How hard a run may press a deployment and how long it waits (docs/throttling.md):
 * the gateway's limits, and the per-check timeout Playwright enforces.
 */
import type { GatewayLimits } from './gateway.ts';

export interface RunLimits extends GatewayLimits {
  /** Playwright's test timeout: a check still running after it is stopped, and inconclusive. */
  checkTimeoutMs?: number;
}

export const DEFAULT_CHECK_TIMEOUT_MS = 120_000;

/** Requests one worker may have in flight within a check (FLIS_CONCURRENCY; suites/lib/parallel.ts). */
export const DEFAULT_WORKER_CONCURRENCY = 6;
