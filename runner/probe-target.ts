/**
 * Reachability of a target before any suite runs: an unreachable deployment is
 * a configuration error (exit 2, naming the URL and what failed), not 54 failed
 * checks after minutes of timeouts. The probe goes the way the suites will
 * (net/preflight.ts): through the proxy, trusting --ca-file, presenting
 * --client-cert; a TLS failure names the flag that fixes it.
 */
import type { Dispatcher } from 'undici';
import { buildDispatcher } from '../net/dispatcher.ts';
import { checkConnection, PROBE_TIMEOUT_MS } from '../net/preflight.ts';
import type { ConnectionSettings } from '../net/types.ts';

export { describeNetworkError } from '../net/network-error.ts';
export { PROBE_TIMEOUT_MS } from '../net/preflight.ts';

/**
 * Probe `baseUrl` through the connection's dispatcher. Without one (a command not yet given the connection
 * flags), a dispatcher from the environment's proxy settings is built for the probe and closed after it.
 */
export async function probeTarget(
  baseUrl: string,
  timeoutMs = PROBE_TIMEOUT_MS,
  connection?: { settings: ConnectionSettings; dispatcher: Dispatcher },
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (connection) return checkConnection(connection, baseUrl, env, timeoutMs);
  const settings: ConnectionSettings = {};
  const dispatcher = buildDispatcher(settings, env);
  try {
    await checkConnection({ settings, dispatcher }, baseUrl, env, timeoutMs);
  } finally {
    await dispatcher.close();
  }
}
