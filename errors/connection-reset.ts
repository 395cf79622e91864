/**
 * The other side closed or reset a connection a request went out on before its answer was whole: most often a
 * kept-alive connection closed as idle just as the client reused it. A busy machine widens that race, so a request
 * that may be repeated (an idempotent method) is sent again rather than failing the run. Both the gateway (to the
 * deployment, runner/gateway.ts: up to 3 times more, RESENDS_ON_RESET) and the suites' client (to the gateway,
 * core/client.ts: once more) use it.
 */

const RESET_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** The methods RFC 9110 (9.2.2) calls idempotent: sending one twice means what sending it once does. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** True for a reset or closed connection, whether the error is undici's own or global fetch's (code in `cause`). */
export function isConnectionReset(error: unknown): boolean {
  const e = (error ?? {}) as { code?: string; cause?: { code?: string } };
  return RESET_CODES.has(e.code ?? '') || RESET_CODES.has(e.cause?.code ?? '');
}
