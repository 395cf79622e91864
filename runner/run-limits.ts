/**
 * How hard a run may press a deployment and how long it waits (docs/throttling.md):
 * the gateway's limits, and the per-check timeout Playwright enforces.
 */
import { DEFAULT_CONCURRENCY, DEFAULT_WORKERS } from '../core/suite-env.ts';
import type { GatewayLimits } from './gateway.ts';

export interface RunLimits extends GatewayLimits {
  /** A check without an answer this long is stopped, and inconclusive; each answer restarts it (suites/lib/check-timeout.ts). */
  checkTimeoutMs?: number;
}

/** A round trip at least this long (ms) makes a target distant: its checks wait on the network, not on the CPU. */
export const DISTANT_ROUND_TRIP_MS = 20;
/** The workers of a near target: the suites' own default (core/suite-env.ts). */
export { DEFAULT_WORKERS };
/** Playwright workers for a distant target: they mostly wait, so more of them overlap the round trips. */
export const DISTANT_WORKERS = 8;

/** Requests in flight within one check against a distant target: the gateway's --max-in-flight still bounds the run. */
export const DISTANT_WORKER_CONCURRENCY = 12;

/** Requests one worker may have in flight within a check (FLIS_CONCURRENCY). */
export function workerConcurrency(roundTripMs: number | undefined): number {
  return isDistant(roundTripMs) ? DISTANT_WORKER_CONCURRENCY : DEFAULT_CONCURRENCY;
}

function isDistant(roundTripMs: number | undefined): boolean {
  return roundTripMs !== undefined && roundTripMs >= DISTANT_ROUND_TRIP_MS;
}

/** The Playwright workers a run uses when --workers is not given. */
export function defaultWorkers(roundTripMs: number | undefined): number {
  return isDistant(roundTripMs) ? DISTANT_WORKERS : DEFAULT_WORKERS;
}

/** The workers of a run: --workers when given (always), else as many as the round trip calls for. */
export function runWorkers(given: number | undefined, roundTripMs: number | undefined): number {
  return given ?? defaultWorkers(roundTripMs);
}

/**
 * A host on this machine: 127.0.0.0/8, ::1 (bracketed or not, or IPv4-mapped) and localhost. Its round trip measures
 * how busy the machine is, not a network, so it is never distant.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(host)
  );
}

/** The median of some round trips: one slow probe (a busy machine, a first TLS handshake) does not decide. */
export function medianMs(samples: readonly number[]): number | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
