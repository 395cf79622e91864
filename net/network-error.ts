/**
 * A failed connection in the words a person fixes it with: refused, DNS,
 * timeout, TLS (naming --ca-file, or --client-cert when the deployment refused
 * the certificate), proxy (unreachable, 407). Used by the reachability probe,
 * the token endpoint and the gateway.
 */

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL)/;
/** TLS alerts by which a server refuses the client certificate (or its absence). */
const CLIENT_CERT_ALERTS =
  /ALERT_(CERTIFICATE_REQUIRED|UNKNOWN_CA|BAD_CERTIFICATE|CERTIFICATE_UNKNOWN|UNSUPPORTED_CERTIFICATE|CERTIFICATE_REVOKED|CERTIFICATE_EXPIRED|ACCESS_DENIED|HANDSHAKE_FAILURE|DECRYPT_ERROR)|alert (certificate required|unknown ca|bad certificate|certificate unknown|handshake failure)/i;

export const PROXY_407 =
  'the proxy refused the credentials (407 Proxy Authentication Required); check the user:password in --proxy (or HTTPS_PROXY)';

interface ErrorShape {
  name?: string;
  code?: string;
  message?: string;
  cause?: ErrorShape;
}

/** The innermost code and message: global fetch wraps undici's error in `cause`, undici.request does not. */
export function errorParts(error: unknown): { name: string; code: string; detail: string } {
  const e = (error ?? {}) as ErrorShape;
  const inner = e.cause && (e.cause.code || e.cause.message) ? e.cause : e;
  return {
    name: e.name ?? '',
    code: inner.code ?? e.code ?? '',
    detail: oneLine(inner.message ?? e.message ?? String(error)),
  };
}

/** OpenSSL's "8034...:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required:../deps/..." → its reason. */
function oneLine(message: string): string {
  const openssl = message.match(/error:[0-9A-Fa-f]+:[^:]*:[^:]*:([^:\n]+)/);
  return (openssl?.[1] ?? message).replace(/\s+/g, ' ').trim();
}

export function isTlsError(error: unknown): boolean {
  const { code, detail } = errorParts(error);
  return TLS_CODES.test(code) || /certificate|TLS|SSL/i.test(detail);
}

export function isClientCertificateRefused(error: unknown): boolean {
  const { code, detail } = errorParts(error);
  return CLIENT_CERT_ALERTS.test(`${code} ${detail}`);
}

/** The status a proxy answered a CONNECT with, when it refused the tunnel (undici says "Proxy response (407)"). */
export function proxyRefusal(error: unknown): number | undefined {
  const m = errorParts(error).detail.match(/Proxy (?:response|Authentication Required) \((\d{3})\)/);
  return m ? Number(m[1]) : undefined;
}

/** What failed, in the words a person fixes it with. */
export function describeNetworkError(error: unknown, timeoutMs: number): string {
  const { name, code, detail } = errorParts(error);
  // undici reports a refused CONNECT as an AbortError: ask about the proxy before calling it a timeout.
  const refusedBy = proxyRefusal(error);
  if (refusedBy === 407) return PROXY_407;
  if (refusedBy) return `the proxy refused the tunnel (${refusedBy}); check --proxy`;
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs / 1000} s (timeout)`;
  if (code === 'ECONNREFUSED') return `connection refused (${detail})`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `DNS lookup failed (${detail})`;
  if (isClientCertificateRefused(error))
    return `TLS handshake failed: the server refused the client certificate (${detail}); check --client-cert and --client-key`;
  if (TLS_CODES.test(code) || /certificate|TLS|SSL/i.test(detail))
    return `TLS handshake failed (${detail}); if the server's certificate comes from a private CA, give that CA with --ca-file`;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return `connection timed out (${detail})`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `connection reset (${detail})`;
  return `${code ? `${code}: ` : ''}${detail}`;
}
