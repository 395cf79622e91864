/**
 * Sends one replayed request to the target with the run's token (never the
 * partner's: theirs is redacted in the cassette). A 401 error="invalid_token"
 * is refreshed once and sent again: a token's expiry is the deployment's
 * right. Throttling (429, or 503 with Retry-After) is waited out, up to a
 * bound: the deployment's right too, never a verdict.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Dispatcher, request } from 'undici';
import { FlisError } from '../errors/flis-error.ts';
import type { Connection } from '../net/types.ts';
import { pathEscape } from '../recorder/path-escape.ts';

export interface OutgoingRequest {
  method: string;
  /** Relative to the base URL, e.g. "/offers/abc". */
  path: string;
  query: [string, string][];
  /** JSON text, or text, as the partner sent it (ids substituted). */
  body?: string | undefined;
  contentType?: string | undefined;
}

export interface Received {
  status: number;
  headers: Record<string, string | string[]>;
  bytes: Buffer;
}

const MAX_THROTTLE_WAITS = 5;

/** A request that would leave the base path: never sent (exit 2, one line). */
export class OutsideBasePath extends FlisError {
  constructor(baseUrl: string, r: OutgoingRequest, why: string) {
    super(
      'FLIS_ERR_USAGE',
      `refusing to send ${r.method} ${JSON.stringify(r.path)}: it would leave the base path of ${baseUrl} (${why})`,
    );
  }
}

/**
 * The URL of a request, which stays under the base path: the path passes recorder/path-escape.ts's rule, and the URL
 * it makes keeps the base's origin and path prefix. The cassette reader refuses such a path first; this is the last
 * guard before the token goes out (an id the target answered could hold one, or a DELETE built from it).
 */
export function urlOf(baseUrl: string, r: OutgoingRequest): string {
  const way = pathEscape(r.path);
  if (way) throw new OutsideBasePath(baseUrl, r, way);
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const u = new URL(baseUrl.replace(/\/+$/, '') + r.path);
  if (u.origin !== base.origin || (u.pathname !== prefix && !u.pathname.startsWith(`${prefix}/`)))
    throw new OutsideBasePath(baseUrl, r, `it resolves to ${u.origin}${u.pathname}`);
  for (const [k, v] of r.query) u.searchParams.append(k, v);
  return u.toString();
}

function invalidToken(status: number, headers: Record<string, string | string[] | undefined>): boolean {
  const challenge = [headers['www-authenticate'] ?? ''].flat().join(', ');
  return status === 401 && /\bBearer\b[\s\S]*\berror\s*=\s*"?invalid_token\b/i.test(challenge);
}

function throttleWaitMs(status: number, headers: Record<string, string | string[] | undefined>): number | undefined {
  const ra = [headers['retry-after'] ?? ''].flat()[0] ?? '';
  if (status !== 429 && !(status === 503 && ra)) return undefined;
  const s = Number(ra);
  return Number.isFinite(s) && s >= 0 ? Math.min(s * 1000, 30_000) : 1000;
}

function plainHeaders(h: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = v;
  return out;
}

export async function send(baseUrl: string, connection: Connection, r: OutgoingRequest): Promise<Received> {
  const url = urlOf(baseUrl, r);
  const once = async (token: string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (r.body !== undefined) headers['content-type'] = r.contentType ?? 'application/json';
    return request(url, {
      method: r.method.toUpperCase() as Dispatcher.HttpMethod,
      headers,
      dispatcher: connection.dispatcher,
      ...(r.body !== undefined ? { body: r.body } : {}),
    });
  };
  let waits = 0;
  for (;;) {
    const token = await connection.tokens.current();
    let res = await once(token);
    if (invalidToken(res.statusCode, res.headers)) {
      await res.body.dump();
      res = await once(await connection.tokens.refresh('401 invalid_token (flis regress)', token));
    }
    const wait = throttleWaitMs(res.statusCode, res.headers);
    if (wait !== undefined && waits++ < MAX_THROTTLE_WAITS) {
      await res.body.dump();
      await sleep(wait);
      continue;
    }
    const bytes = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: plainHeaders(res.headers), bytes };
  }
}
