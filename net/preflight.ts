/**
 * The checks a connection passes before any suite runs: the deployment
 * answers at all, through the proxy, with its certificate trusted and ours
 * accepted. One GET of the base URL without a token: any HTTP answer (401 and
 * 404 included) proves the way there works, except a proxy's 407.
 */
import { type Dispatcher, request } from 'undici';
import { FlisError, type FlisErrorCode } from '../errors/flis-error.ts';
import { environmentProxies, splitProxyUrl } from './dispatcher.ts';
import {
  describeNetworkError,
  errorParts,
  isClientCertificateRefused,
  isTlsError,
  PROXY_407,
  proxyRefusal,
} from './network-error.ts';
import { tlsOutcomeOfRequest } from './tls-diagnosis.ts';
import type { ConnectionSettings } from './types.ts';

/** Well under the 10 s a user waits for the verdict "unreachable". */
export const PROBE_TIMEOUT_MS = 8_000;

const NOTHING_RAN = 'No suite ran and no certificate was written.';

/** The proxy a request to `url` goes through, printable (no credentials); undefined when none. */
export function proxyFor(url: string, settings: ConnectionSettings, env: NodeJS.ProcessEnv): string | undefined {
  const { httpProxy, httpsProxy } = environmentProxies(env);
  const raw = settings.proxy ?? (new URL(url).protocol === 'https:' ? httpsProxy : httpProxy);
  if (!raw) return undefined;
  try {
    return splitProxyUrl(raw).uri.replace(/\/$/, '');
  } catch {
    return undefined;
  }
}

/** Whether the refused connection was the one to the proxy (its host:port is in the error). */
function proxyUnreachable(error: unknown, proxy: string | undefined): boolean {
  if (!proxy) return false;
  const { code, detail } = errorParts(error);
  if (!/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT/.test(code)) return false;
  const url = new URL(proxy);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return detail.includes(`:${port}`) || detail.includes(url.hostname.replace(/^\[|\]$/g, ''));
}

function failure(code: FlisErrorCode, message: string): FlisError {
  return new FlisError(code, `${message} ${NOTHING_RAN}`);
}

/** The error for a failed probe of `baseUrl`: which part to fix, by the flag that fixes it. */
export function probeFailure(
  error: unknown,
  baseUrl: string,
  proxy: string | undefined,
  timeoutMs = PROBE_TIMEOUT_MS,
): FlisError {
  const why = describeNetworkError(error, timeoutMs);
  if (proxyRefusal(error) !== undefined)
    return failure('FLIS_ERR_PROXY', `proxy ${proxy ?? ''} refused ${baseUrl}: ${why}.`);
  if (proxyUnreachable(error, proxy))
    return failure(
      'FLIS_ERR_PROXY',
      `proxy ${proxy} is unreachable: ${why}; check --proxy (or HTTPS_PROXY/HTTP_PROXY).`,
    );
  if (isClientCertificateRefused(error) || isTlsError(error))
    return failure('FLIS_ERR_TLS', `target ${baseUrl}: ${why}.`);
  return failure(
    'FLIS_ERR_DEPLOYMENT',
    `target ${baseUrl} is unreachable: ${why}; check the URL and that the deployment is up.`,
  );
}

/**
 * An HTTPS server that closed the connection unanswered most often refused our client certificate (TLS 1.3
 * sends that alert after the handshake, which undici reports as "other side closed"): ask the server again
 * on a bare TLS connection, which reads the alert. Through a proxy the first error stands.
 */
async function closedWhy(
  error: unknown,
  baseUrl: string,
  settings: ConnectionSettings,
  proxy: string | undefined,
  timeoutMs: number,
): Promise<unknown> {
  const { code } = errorParts(error);
  if (new URL(baseUrl).protocol !== 'https:' || !/UND_ERR_SOCKET|ECONNRESET|EPIPE/.test(code)) return error;
  // Through a tunnel the server's alert cannot be read from here; the likeliest cause is still the certificate.
  if (proxy)
    return failure(
      'FLIS_ERR_TLS',
      `target ${baseUrl} (through proxy ${proxy}) closed the connection without answering; if it requires a client certificate, check --client-cert and --client-key.`,
    );
  const outcome = await tlsOutcomeOfRequest(baseUrl, settings, timeoutMs);
  if (outcome === 'answered') return error;
  if (outcome !== 'closed-after-handshake') return outcome.error;
  return failure(
    'FLIS_ERR_TLS',
    `target ${baseUrl} closed the connection after the TLS handshake without answering: it refused ${settings.clientCert ? 'the client certificate; check --client-cert and --client-key (issued by a CA the deployment trusts?)' : 'to answer without a client certificate; give --client-cert and --client-key'}.`,
  );
}

/** One GET of the base URL through `dispatcher`; throws a FlisError (exit 2) naming what to fix. */
export async function probeThrough(
  dispatcher: Dispatcher,
  settings: ConnectionSettings,
  baseUrl: string,
  proxy: string | undefined,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<void> {
  let status: number;
  try {
    const res = await request(baseUrl, { method: 'GET', dispatcher, signal: AbortSignal.timeout(timeoutMs) });
    status = res.statusCode;
    await res.body.dump();
  } catch (error) {
    const why = await closedWhy(error, baseUrl, settings, proxy, timeoutMs);
    throw why instanceof FlisError ? why : probeFailure(why, baseUrl, proxy, timeoutMs);
  }
  if (status === 407) throw failure('FLIS_ERR_PROXY', `proxy ${proxy ?? ''} refused ${baseUrl}: ${PROXY_407}.`);
}

/** Everything a connection must pass before the run: its first token is fetched by openConnection already. */
export async function checkConnection(
  connection: { settings: ConnectionSettings; dispatcher: Dispatcher },
  baseUrl: string,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<void> {
  await probeThrough(
    connection.dispatcher,
    connection.settings,
    baseUrl,
    proxyFor(baseUrl, connection.settings, env),
    timeoutMs,
  );
}
