/**
 * Reachability of a target before any suite runs: an unreachable deployment is
 * a configuration error (exit 2, naming the URL and what failed), not 54 failed
 * checks after minutes of timeouts. One GET of the base URL without a token:
 * any HTTP answer, 401 and 404 included, proves the target is there.
 */
import { FlisError } from '../errors/flis-error.ts';

/** Well under the 10 s a user waits for the verdict "unreachable". */
export const PROBE_TIMEOUT_MS = 8_000;

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL)/;

/** What failed, in the words a person fixes it with. */
export function describeNetworkError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s (timeout)`;
  const code = e?.cause?.code ?? '';
  const detail = e?.cause?.message ?? e?.message ?? String(error);
  if (code === 'ECONNREFUSED') return `connection refused (${detail})`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `DNS lookup failed (${detail})`;
  if (TLS_CODES.test(code) || /certificate|TLS|SSL/i.test(detail)) return `TLS handshake failed (${detail})`;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return `connection timed out (${detail})`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `connection reset (${detail})`;
  return `${code ? `${code}: ` : ''}${detail}`;
}

export async function probeTarget(baseUrl: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<void> {
  try {
    const res = await fetch(baseUrl, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
  } catch (error) {
    throw new FlisError(
      'FLIS_ERR_DEPLOYMENT',
      `target ${baseUrl} is unreachable: ${describeNetworkError(error, timeoutMs)}; check the URL and that the deployment is up. No suite ran and no certificate was written.`,
    );
  }
}
