/**
 * The undici dispatcher every request to a deployment goes through: a proxy
 * (--proxy, else HTTPS_PROXY / HTTP_PROXY / NO_PROXY), extra CAs added to
 * Node's own, a client certificate, and a connect timeout. Every socket of it
 * hears an answer the deployment sends before it has read the whole body (a
 * 413), as the recorder's direct pool does (net/early-answer.ts).
 */
import { rootCertificates } from 'node:tls';
import { Agent, type Dispatcher, EnvHttpProxyAgent, ProxyAgent } from 'undici';
import { earlyAnswerFactory } from './early-answer.ts';
import { environmentProxies, splitProxyUrl } from './proxy-url.ts';
import type { ConnectionSettings } from './types.ts';

export { environmentProxies, splitProxyUrl } from './proxy-url.ts';

/** How long a TCP + TLS connect may take before the request fails as "connection timed out". */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Node reads these by destructuring (tls.createSecureContext): an undefined option is one not given. */
export interface TlsOptions {
  ca?: string[] | undefined;
  cert?: string | undefined;
  key?: string | undefined;
  passphrase?: string | undefined;
}

/** The TLS options for the deployment: Node's default CAs plus --ca-file (never instead of them), and the client certificate. */
export function tlsOptions(settings: ConnectionSettings): TlsOptions {
  return {
    ca: settings.ca ? [...rootCertificates, settings.ca] : undefined,
    cert: settings.clientCert || undefined,
    key: settings.clientKey || undefined,
    passphrase: settings.clientKeyPassphrase || undefined,
  };
}

export function buildDispatcher(
  settings: ConnectionSettings,
  env: NodeJS.ProcessEnv,
  connectTimeoutMs = CONNECT_TIMEOUT_MS,
): Dispatcher {
  const tls = { ...tlsOptions(settings), timeout: connectTimeoutMs };
  // The proxy's own TLS (an https:// proxy) trusts the same CAs; it never sees the client certificate.
  const proxyTls = { ca: tls.ca, timeout: connectTimeoutMs };
  if (settings.proxy) {
    const { uri, authorization } = splitProxyUrl(settings.proxy);
    return new ProxyAgent({
      uri,
      ...(authorization ? { token: authorization } : {}),
      requestTls: tls,
      proxyTls,
      connect: tls,
      // Plain HTTP is forwarded (GET http://...), as curl does: many proxies allow CONNECT to port 443 only.
      proxyTunnel: false,
      factory: earlyAnswerFactory,
    });
  }
  const proxies = environmentProxies(env);
  if (!proxies.httpProxy && !proxies.httpsProxy) return new Agent({ connect: tls, factory: earlyAnswerFactory });
  return new EnvHttpProxyAgent({
    ...proxies,
    requestTls: tls,
    proxyTls,
    connect: tls,
    proxyTunnel: false,
    factory: earlyAnswerFactory,
  });
}
