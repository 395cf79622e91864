/**
 * A deployment as partners meet it, made of the embedded mock: an HTTPS
 * reverse proxy (private CA, client certificate required) that accepts the
 * JWTs of a real authorization server. A valid token (signature by the
 * issuer's JWKS, not expired) is exchanged for the mock's own token; anything
 * else reaches the mock as sent, which refuses it with 401 and
 * WWW-Authenticate: Bearer error="invalid_token", an expired token included.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'undici';
import type { OAuth } from './servers.ts';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'expect', 'proxy-connection']);

export interface GateCounts {
  valid: number;
  expired: number;
  other: number;
}

export function tokenGate(oauth: OAuth, mockBaseUrl: string, mockToken: string, counts: GateCounts) {
  const origin = new URL(mockBaseUrl).origin;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const bearer = (req.headers.authorization ?? '').match(/^Bearer (\S+)$/)?.[1] ?? '';
    const verdict = bearer ? oauth.verify(bearer) : 'invalid';
    counts[verdict === 'valid' ? 'valid' : verdict === 'expired' ? 'expired' : 'other']++;
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    if (verdict === 'valid') headers.authorization = `Bearer ${mockToken}`;
    const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    request(`${origin}${req.url}`, {
      method: (req.method ?? 'GET') as 'GET',
      headers,
      ...(hasBody ? { body: req } : {}),
    }).then(
      (up) => {
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
        res.writeHead(up.statusCode, out);
        up.body.pipe(res);
      },
      () => {
        res.writeHead(502);
        res.end();
      },
    );
  };
}
