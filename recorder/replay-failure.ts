/**
 * Replaying an upstream that failed after its answer had begun (a reset
 * mid-body): the client must meet the same failure again, not a clean answer
 * with a short body. The recorded status and headers go out, then the bytes
 * that arrived, then the connection is destroyed, as the upstream's was.
 */
import type { ServerResponse } from 'node:http';
import type { Exchange } from './cassette-format.ts';
import { failureStatus } from './upstream.ts';

/**
 * True when the exchange records a failure that came after the upstream's
 * headers. A failure before them is answered by the recorder's own 502/504
 * JSON (code FLIS_ERR_UPSTREAM), which replays as the clean answer it was; any
 * other response beside a failure is the upstream's own, cut short. Read from
 * what every cassette already holds, so older cassettes replay truthfully too.
 */
export function failedMidBody(e: Pick<Exchange, 'failure' | 'response'>): boolean {
  if (!e.failure) return false;
  const b = e.response.body;
  const value = b?.encoding === 'json' ? (b.value as { code?: unknown } | null) : null;
  const ownAnswer = value?.code === 'FLIS_ERR_UPSTREAM' && e.response.status === failureStatus(e.failure);
  return !ownAnswer;
}

/** The recorded status, headers and bytes, then the connection destroyed: no length, so nothing looks whole. */
export function serveCutOff(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | string[]>,
  bytes: Buffer,
): void {
  const { 'content-length': _length, ...rest } = headers;
  res.writeHead(status, rest);
  // Destroyed once the bytes are handed to the socket, so the client reads them and then the reset.
  res.write(bytes, () => res.destroy());
}
