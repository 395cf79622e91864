/**
 * The connection to the upstream deployment: one keep-alive undici Pool for
 * the recorder's life, or the dispatcher of the command's connection (proxy,
 * CAs, client certificate: net/), bodies streamed both ways, and the classification of
 * what can go wrong into refused / reset / timeout, each answered to the
 * client as a 502 or 504 JSON body that names the upstream, never a secret.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { type Dispatcher, Pool } from 'undici';
import type { UpstreamFailure } from './cassette-format.ts';
import { earlyAnswerConnector } from '../net/early-answer.ts';

export interface Upstream {
  /** Origin and base path of the upstream, e.g. http://127.0.0.1:4010 and /apis/v0. */
  origin: string;
  basePath: string;
  /** Requests carry `origin`, so a Pool for the one origin and a connection's Agent or ProxyAgent serve alike. */
  dispatcher: Dispatcher;
  timeoutMs: number;
  /** Closes the Pool the upstream opened; a connection's dispatcher is its command's to close. */
  close(): Promise<void>;
}

export interface UpstreamOptions {
  /** Headers and body timeout, each; also the connect timeout. */
  timeoutMs?: number | undefined;
  connections?: number | undefined;
  /** The command's connection dispatcher (net/dispatcher.ts); default: a Pool of its own, straight to the origin. */
  dispatcher?: Dispatcher | undefined;
}

export function openUpstream(baseUrl: string, options: UpstreamOptions = {}): Upstream {
  const url = new URL(baseUrl);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const basePath = url.pathname.replace(/\/+$/, '');
  if (options.dispatcher)
    return { origin: url.origin, basePath, dispatcher: options.dispatcher, timeoutMs, close: async () => {} };
  const pool = new Pool(url.origin, {
    connections: options.connections ?? 128,
    keepAliveTimeout: 10_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    // An answer sent before the whole body was read is the upstream's answer (net/early-answer.ts).
    connect: earlyAnswerConnector({ timeout: timeoutMs }),
  });
  return { origin: url.origin, basePath, dispatcher: pool, timeoutMs, close: () => pool.close() };
}

/** The base URL without credentials, for the cassette header and messages. */
export function publicBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'proxy-authenticate',
  // Node's server has already answered `100 Continue` to the client (no 'checkContinue' listener), so the body is
  // on its way; undici refuses a request carrying Expect, and the upstream has nothing left to agree to.
  'expect',
]);

/**
 * Request headers as forwarded: hop-by-hop ones dropped, and identity encoding
 * asked for so bodies arrive readable, which is what lets the recorder store
 * JSON natively and find secrets inside bodies.
 */
export function forwardRequestHeaders(h: IncomingHttpHeaders): Record<string, string | string[]> {
  const out = withoutHopByHop(h);
  out['accept-encoding'] = 'identity';
  return out;
}

/** Response headers as passed back to the client. */
export function forwardResponseHeaders(
  h: Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  return withoutHopByHop(h);
}

/** The headers that are the message's own (set ones, hop-by-hop ones left out); a loop over keys, no entry arrays. */
function withoutHopByHop(h: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const k of Object.keys(h)) {
    const v = h[k];
    if (v !== undefined && !hopByHop.has(k)) out[k] = v;
  }
  return out;
}

const refusedCodes = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const resetCodes = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const timeoutCodes = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

export function classifyFailure(err: unknown, timeoutMs: number): UpstreamFailure {
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  const code = e.code && e.code !== 'UND_ERR' ? e.code : (e.cause?.code ?? 'UNKNOWN');
  const kind: UpstreamFailure['kind'] =
    refusedCodes.has(code) || refusedCodes.has(e.cause?.code ?? '')
      ? 'refused'
      : timeoutCodes.has(code)
        ? 'timeout'
        : resetCodes.has(code)
          ? 'reset'
          : 'other';
  const message = {
    refused: 'the upstream refused the connection',
    reset: 'the upstream closed or reset the connection before answering completely',
    timeout: `the upstream did not answer within ${timeoutMs} ms`,
    other: `the upstream request failed: ${e.message ?? String(err)}`,
  }[kind];
  return { kind, code, message };
}

/** 504 for a timeout (a gateway that waited), 502 for anything else the upstream did wrong. */
export function failureStatus(f: UpstreamFailure): number {
  return f.kind === 'timeout' ? 504 : 502;
}

export function failureBody(f: UpstreamFailure, upstream: string): Record<string, unknown> {
  return {
    code: 'FLIS_ERR_UPSTREAM',
    kind: f.kind,
    upstreamCode: f.code,
    message: `${f.message} (${upstream}); the recorder recorded this failure and keeps running`,
    upstream,
  };
}
