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

/** A round trip at least this long (ms) makes a target distant: its checks wait on the network, not on the CPU. */
export const DISTANT_ROUND_TRIP_MS = 20;
export const DEFAULT_WORKERS = 2;
/** Playwright workers for a distant target: they mostly wait, so more of them overlap the round trips. */
export const DISTANT_WORKERS = 8;

/** Requests in flight within one check against a distant target: the gateway's --max-in-flight still bounds the run. */
export const DISTANT_WORKER_CONCURRENCY = 12;

/** Requests one worker may have in flight within a check (FLIS_CONCURRENCY). */
export function workerConcurrency(roundTripMs: number | undefined): number {
  return isDistant(roundTripMs) ? DISTANT_WORKER_CONCURRENCY : DEFAULT_WORKER_CONCURRENCY;
}

function isDistant(roundTripMs: number | undefined): boolean {
  return roundTripMs !== undefined && roundTripMs >= DISTANT_ROUND_TRIP_MS;
}

/** The Playwright workers a run uses when --workers is not given. */
export function defaultWorkers(roundTripMs: number | undefined): number {
  return isDistant(roundTripMs) ? DISTANT_WORKERS : DEFAULT_WORKERS;
}
