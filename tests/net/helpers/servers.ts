/**
 * The real components the connection is tested against, on loopback, started
 * and stopped by each test: an OAuth 2.0 authorization server
 * (oauth2-mock-server), a forward proxy (the `proxy` package, optionally
 * demanding Proxy-Authorization) and an HTTPS server that requires a client
 * certificate from the test's own CA.
 */
import { createPublicKey, createVerify, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { OAuth2Server } from 'oauth2-mock-server';
import { createProxy } from 'proxy';
import type { Pki } from './pki.ts';

export const CLIENT_ID = 'flis-partner';
export const CLIENT_SECRET = 'secret-Hq4TnW8vZ2kP7xR1';

function urlOf(server: Server, protocol = 'http'): string {
  return `${protocol}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function listen(server: Server): Promise<void> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}

export interface OAuth {
  tokenUrl: string;
  /** Tokens issued so far (each an access_token answered). */
  issued: string[];
  /** Verifies a JWT the server issued: signature by its JWKS, not expired. */
  verify(token: string): 'valid' | 'expired' | 'invalid';
  close(): Promise<void>;
}

export interface OAuthOptions {
  /** Token lifetime in seconds (both the JWT's exp and expires_in). */
  ttlSeconds?: number;
  /** Answer 200 without an access_token. */
  withoutAccessToken?: boolean;
  /**
   * How late past `exp` a token is still taken, as JWT verifiers allow for clock skew and time in flight (jose's
   * clockTolerance). `exp` counts whole seconds from a floored `iat`, so a busy machine can otherwise see a token
   * expire before the client's renewal point. Default 0.
   */
  clockToleranceSeconds?: number;
}

function basicCredentials(req: IncomingMessage): { id: string; secret: string } | undefined {
  const m = (req.headers.authorization ?? '').match(/^Basic\s+(\S+)$/i);
  if (!m?.[1]) return undefined;
  const [id, ...rest] = Buffer.from(m[1], 'base64').toString('utf8').split(':');
  return { id: decodeURIComponent(id ?? ''), secret: decodeURIComponent(rest.join(':')) };
}

export async function startOAuth(options: OAuthOptions = {}): Promise<OAuth> {
  const ttl = options.ttlSeconds ?? 3600;
  const tolerance = options.clockToleranceSeconds ?? 0;
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  const issued: string[] = [];
  // A jti, as real servers add: without one, two tokens issued in the same second are the same bytes.
  server.service.on('beforeTokenSigning', (token: { payload: { iat: number; exp: number; jti?: string } }) => {
    token.payload.exp = token.payload.iat + ttl;
    token.payload.jti = randomUUID();
  });
  // The mock server accepts any client; the partner's real one checks id and secret (RFC 6749 5.2 invalid_client).
  server.service.on(
    'beforeResponse',
    (response: { statusCode: number; body: Record<string, unknown> }, req: IncomingMessage) => {
      const client = basicCredentials(req);
      if (client?.id !== CLIENT_ID || client.secret !== CLIENT_SECRET) {
        response.statusCode = 401;
        response.body = { error: 'invalid_client' };
        return;
      }
      response.body.expires_in = ttl;
      if (options.withoutAccessToken) delete response.body.access_token;
      else issued.push(String(response.body.access_token));
    },
  );
  await server.start(0, '127.0.0.1');
  const verify = (token: string): 'valid' | 'expired' | 'invalid' => {
    try {
      return verifyJwt(token);
    } catch {
      return 'invalid'; // Not a JWT at all (the auth probes send near misses: case changed, truncated...).
    }
  };
  const verifyJwt = (token: string): 'valid' | 'expired' | 'invalid' => {
    const [h, p, s] = token.split('.');
    if (!h || !p || !s) return 'invalid';
    const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { kid?: string };
    const jwk = server.issuer.keys.get(header.kid);
    if (!jwk) return 'invalid';
    const key = createPublicKey({ key: jwk as never, format: 'jwk' });
    const ok = createVerify('RSA-SHA256').update(`${h}.${p}`).verify(key, Buffer.from(s, 'base64url'));
    if (!ok) return 'invalid';
    const { exp } = JSON.parse(Buffer.from(p, 'base64url').toString()) as { exp: number };
    return (exp + tolerance) * 1000 > Date.now() ? 'valid' : 'expired';
  };
  return { tokenUrl: `${server.issuer.url}/token`, issued, verify, close: () => server.stop() };
}

export interface ForwardProxy {
  /** http://127.0.0.1:PORT, without credentials. */
  url: string;
  /** With user:password@ when the proxy demands them. */
  urlWithCredentials: string;
  /** Requests it forwarded (plain HTTP) and tunnels it opened (CONNECT), authenticated or not. */
  seen: { forwarded: number; tunnels: number; refused: number };
  close(): Promise<void>;
}

export async function startProxy(credentials?: { user: string; password: string }): Promise<ForwardProxy> {
  const server = createProxy(createServer());
  const seen = { forwarded: 0, tunnels: 0, refused: 0 };
  const expected = credentials
    ? `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`
    : undefined;
  if (expected)
    server.authenticate = (req) => {
      const ok = req.headers['proxy-authorization'] === expected;
      if (!ok) seen.refused++;
      return ok;
    };
  server.prependListener('request', () => seen.forwarded++);
  server.prependListener('connect', () => seen.tunnels++);
  await listen(server);
  const url = urlOf(server);
  const urlWithCredentials = credentials
    ? url.replace('//', `//${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@`)
    : url;
  return { url, urlWithCredentials, seen, close: () => stop(server) };
}

export interface TlsServer {
  /** https://127.0.0.1:PORT/apis/v0 */
  baseUrl: string;
  /** Client certificates' subjects seen on answered requests. */
  clients: string[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const echo: Handler = (req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ path: req.url, authorization: req.headers.authorization ?? null }));
};

/** An HTTPS server with the test CA's certificate that requires a client certificate that CA issued. */
export async function startTlsServer(pki: Pki, handler: Handler = echo): Promise<TlsServer> {
  const clients: string[] = [];
  const server = createHttpsServer(
    {
      key: pki.pem(pki.serverKey),
      cert: pki.pem(pki.serverCert),
      ca: pki.pem(pki.caCert),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      clients.push(String((req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? ''));
      handler(req, res);
    },
  );
  await listen(server);
  return { baseUrl: `${urlOf(server, 'https')}/apis/v0`, clients, close: () => stop(server) };
}
