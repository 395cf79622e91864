/**
 * The gateway: a loopback HTTP server in the flis process that every suite
 * request passes through on its way to the deployment (docs/throttling.md).
 * Being the one door of the whole run, it is where the run
 * - reaches the deployment with the connection's dispatcher (proxy, CAs, client certificate);
 * - sends the current token in place of the run token a worker was given, and renews it when the
 *   deployment refuses it (401 invalid_token), retrying the request (a few times: on a slow link a
 *   short-lived token can lapse in flight again);
 * - honours throttling (429, or 503 with Retry-After) by waiting and asking again, up to the run's wait cap;
 * - keeps one bound for every Playwright worker together: requests in flight and requests per second;
 * - gives up on a request the deployment does not answer in time.
 * What it gives up on is answered with a synthetic answer carrying the run's nonce, which the
 * suites' client (core/client.ts) turns into an inconclusive check, never a failed one.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import { IDEMPOTENT_METHODS, isConnectionReset } from '../errors/connection-reset.ts';
import type { Connection } from '../net/types.ts';
import { emptyStats, type GatewayStats, ThrottlePause } from './gateway-stats.ts';
import { GATEWAY_HEADER, type SyntheticBody, type SyntheticKind } from '../core/gateway-answer.ts';
import { forwardRequestHeaders, forwardResponseHeaders } from '../recorder/upstream.ts';
import { describeNetworkError } from './probe-target.ts';
import { RateLimit, Slots, sleep } from './rate-limit.ts';
import { throttleDelay } from './throttle.ts';

export { GATEWAY_HEADER } from '../core/gateway-answer.ts';

export const DEFAULT_MAX_IN_FLIGHT = 32;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_THROTTLE_WAIT_MS = 300_000;

export interface GatewayLimits {
  /** Requests in flight to the deployment at once, across every worker. */
  maxInFlight?: number;
  /** Requests started per second, across every worker; no ceiling when absent. */
  maxRps?: number;
  /** How long one attempt may wait for the whole answer. */
  requestTimeoutMs?: number;
  /** The run's total time paused by throttling; past it, throttled requests are given up on. */
  maxThrottleWaitMs?: number;
}

export interface GatewayOptions extends GatewayLimits {
  /** The deployment's base URL (ending in /apis/v0). */
  upstreamBaseUrl: string;
  connection: Pick<Connection, 'dispatcher' | 'tokens'>;
}

export interface Gateway {
  /** Where the workers send: the gateway's loopback origin with the deployment's base path. */
  baseUrl: string;
  /** The per-run value of GATEWAY_HEADER on synthetic answers. */
  nonce: string;
  stats(): GatewayStats;
  close(): Promise<void>;
}

/**
 * Renewals one request may cause before it is given up on as inconclusive. More than one: on a slow or busy link a
 * token of a few seconds can expire between the gateway and the deployment, the renewed one included.
 */
export const MAX_TOKEN_RENEWALS = 3;

const INVALID_TOKEN = /\bbearer\b[\s\S]*\berror\s*=\s*"?invalid_token\b/i;

interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

type Outcome = { answer: Answer } | { synthetic: SyntheticKind; reason: string };

/** What one request to the deployment carries, kept whole so it can be sent again. */
interface Forward {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body: Buffer | undefined;
  /** Aborted when the worker stops waiting. */
  gone: AbortSignal;
}

function bearerOf(authorization: string | string[] | undefined): string | undefined {
  const m = typeof authorization === 'string' ? /^bearer\s+(.+)$/i.exec(authorization) : null;
  return m?.[1]?.trim();
}

function headerOf(headers: Answer['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function isTimeout(error: unknown): boolean {
  const e = error as { name?: string; code?: string };
  return (
    e?.name === 'TimeoutError' ||
    e?.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e?.code === 'UND_ERR_BODY_TIMEOUT' ||
    (e?.name === 'AbortError' && (error as { cause?: { name?: string } }).cause?.name === 'TimeoutError')
  );
}

/** describeNetworkError reads fetch's shape (the cause holds the code); undici's request throws the cause itself. */
function asFetchError(error: unknown): unknown {
  const e = error as { cause?: unknown; message?: string };
  return e?.cause ? error : { message: e?.message, cause: error };
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? Buffer.concat(chunks) : undefined;
}

/** How often a reset idempotent request is sent again before its check is called inconclusive. */
const RESENDS_ON_RESET = 3;

/**
 * A connection closed before the whole answer, after every send the method allows, says nothing about the contract: the
 * deployment may have closed it as idle (its right, and a busy machine widens the race), or gone away for a moment.
 * The check that asked is inconclusive, never failed; a POST is not sent again, since the deployment may have acted
 * on it.
 */
function closedBeforeAnswer(method: string, path: string): string {
  const sends = IDEMPOTENT_METHODS.has(method.toUpperCase())
    ? `on each of ${RESENDS_ON_RESET + 1} sends`
    : `and a ${method.toUpperCase()} is not sent again (the deployment may have acted on it)`;
  return `the connection to the deployment was closed before the whole answer to ${method} ${path}, ${sends}`;
}

class GatewayServer {
  readonly nonce = randomBytes(12).toString('base64url');
  readonly counts = emptyStats();
  private readonly slots: Slots;
  private readonly rate: RateLimit | undefined;
  private readonly pause: ThrottlePause;
  private readonly origin: string;
  private readonly timeoutMs: number;
  private readonly capMs: number;

  constructor(private readonly opts: GatewayOptions) {
    this.slots = new Slots(opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    this.rate = opts.maxRps ? new RateLimit(opts.maxRps) : undefined;
    this.capMs = opts.maxThrottleWaitMs ?? DEFAULT_MAX_THROTTLE_WAIT_MS;
    this.pause = new ThrottlePause(this.capMs);
    this.origin = new URL(opts.upstreamBaseUrl).origin;
    this.timeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  stats(): GatewayStats {
    return { ...this.counts, waitedMs: Math.round(this.pause.waitedMs) };
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.counts.requests++;
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const outcome = await this.exchange({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: forwardRequestHeaders(req.headers),
      body: await readBody(req),
      gone: gone.signal,
    });
    if (res.destroyed) return;
    if ('answer' in outcome) this.reply(res, req.method ?? 'GET', outcome.answer);
    else this.synthetic(res, outcome.synthetic, outcome.reason);
  }

  /** One request to the deployment, retried while it throttles and after token renewals. */
  private async exchange(f: Forward): Promise<Outcome> {
    const { method, path } = f;
    const bearer = bearerOf(f.headers.authorization);
    const runToken = bearer !== undefined && this.opts.connection.tokens.isRunToken(bearer);
    let renewals = 0;
    for (let attempt = 0; ; attempt++) {
      const sent = runToken ? await this.opts.connection.tokens.current() : undefined;
      if (sent) f.headers.authorization = `Bearer ${sent}`;
      const outcome = await this.attempt(f);
      if (!('answer' in outcome)) return outcome;
      const { answer } = outcome;
      if (sent && this.refusedToken(answer)) {
        // A token that cannot be renewed (a fixed one) keeps its 401: the run started with it, so it is the answer.
        if (renewals === MAX_TOKEN_RENEWALS)
          return {
            synthetic: 'inconclusive',
            reason: `the deployment refused ${renewals + 1} tokens in a row for ${method} ${path} (401 invalid_token), each renewed from the token source: tokens that lapse in flight (a slow link, clocks apart) are the deployment's to settle, not a contract matter`,
          };
        renewals++;
        if (await this.renew(method, path, sent)) continue;
      }
      const wait = throttleDelay(answer.status, headerOf(answer.headers, 'retry-after'), attempt);
      if (wait === undefined) return outcome;
      this.counts.throttled++;
      if (!this.pause.extend(wait)) {
        this.counts.waitCapReached++;
        return {
          synthetic: 'inconclusive',
          reason: `the deployment throttled ${method} ${path} (${answer.status}) and waiting ${Math.ceil(wait / 1000)} s more would pass the run's wait cap of ${Math.round(this.capMs / 1000)} s (--max-throttle-wait)`,
        };
      }
      this.counts.retries++;
    }
  }

  private refusedToken(answer: Answer): boolean {
    return answer.status === 401 && INVALID_TOKEN.test(headerOf(answer.headers, 'www-authenticate') ?? '');
  }

  /**
   * Renew the refused token (requests refused with the same one share one renewal); true when another token came
   * (a fixed token cannot be renewed, so its 401 stands).
   */
  private async renew(method: string, path: string, refused: string): Promise<boolean> {
    const after = await this.opts.connection.tokens.refresh(
      `the deployment answered 401 invalid_token to ${method} ${path}`,
      refused,
    );
    if (after === refused) return false;
    this.counts.tokenRefreshes++;
    this.counts.retries++;
    return true;
  }

  /** Wait for the pause, a slot and the rate ceiling, then send once. */
  private async attempt(f: Forward): Promise<Outcome> {
    const { method, path } = f;
    for (let left = this.pause.remaining(); left > 0; left = this.pause.remaining()) await sleep(left);
    const release = await this.slots.acquire();
    try {
      if (this.rate) await sleep(this.rate.reserve());
      return { answer: await this.sendOnceMoreOnReset(f) };
    } catch (error) {
      if (f.gone.aborted) return { synthetic: 'unreachable', reason: 'the suite stopped waiting' };
      if (isTimeout(error)) {
        this.counts.timeouts++;
        return {
          synthetic: 'inconclusive',
          reason: `the deployment did not answer ${method} ${path} within the request timeout of ${this.timeoutMs / 1000} s (--request-timeout)`,
        };
      }
      if (isConnectionReset(error)) {
        this.counts.closedBeforeAnswer++;
        return { synthetic: 'inconclusive', reason: closedBeforeAnswer(method, path) };
      }
      return {
        synthetic: 'unreachable',
        reason: `${method} ${path}: ${describeNetworkError(asFetchError(error), this.timeoutMs)}`,
      };
    } finally {
      release();
    }
  }

  /**
   * A request of a method HTTP calls idempotent whose connection was reset before its answer was whole (mostly a
   * kept-alive connection closed as idle just as it was reused; load widens that race) is sent again, as browsers
   * and undici's retry do: the deployment did nothing wrong, and the check should judge its answer. Up to
   * RESENDS_ON_RESET times: the kept-alive connections of a pool go idle together, and the next one taken may have
   * been closed as well.
   */
  private async sendOnceMoreOnReset(f: Forward): Promise<Answer> {
    for (let resent = 0; ; resent++) {
      try {
        return await this.send(f);
      } catch (error) {
        if (f.gone.aborted || !IDEMPOTENT_METHODS.has(f.method.toUpperCase()) || !isConnectionReset(error)) throw error;
        if (resent === RESENDS_ON_RESET) throw error;
        this.counts.retries++;
      }
    }
  }

  private async send(f: Forward): Promise<Answer> {
    const res = await this.opts.connection.dispatcher.request({
      origin: this.origin,
      path: f.path,
      method: f.method as Dispatcher.HttpMethod,
      headers: f.headers,
      ...(f.body ? { body: f.body } : {}),
      signal: AbortSignal.any([f.gone, AbortSignal.timeout(this.timeoutMs)]),
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: forwardResponseHeaders(res.headers), body };
  }

  private reply(res: ServerResponse, method: string, a: Answer): void {
    // The length of the bytes passed on, except for HEAD, whose Content-Length is that of the GET it stands for.
    if (method.toUpperCase() !== 'HEAD' && a.status !== 204 && a.status !== 304)
      a.headers['content-length'] = String(a.body.length);
    res.writeHead(a.status, a.headers);
    res.end(a.body);
  }

  private synthetic(res: ServerResponse, kind: SyntheticKind, reason: string): void {
    const body = JSON.stringify({ flisGateway: kind, reason } satisfies SyntheticBody);
    res.writeHead(kind === 'inconclusive' ? 504 : 502, {
      [GATEWAY_HEADER]: this.nonce,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  }
}

export async function startGateway(opts: GatewayOptions): Promise<Gateway> {
  const gateway = new GatewayServer(opts);
  const server: Server = createServer((req, res) => {
    gateway.handle(req, res).catch((error: unknown) => {
      // A bug here must not hang the worker: it gets an answer that names the gateway.
      if (!res.headersSent) {
        res.writeHead(502, { [GATEWAY_HEADER]: gateway.nonce, 'content-type': 'text/plain' });
        res.end(`flis gateway error: ${error instanceof Error ? error.message : String(error)}`);
      } else res.destroy();
    });
  });
  // Longer than any worker keeps a socket idle, so the gateway never closes one a worker is about to reuse.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
  server.requestTimeout = 0;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const basePath = new URL(opts.upstreamBaseUrl).pathname.replace(/\/+$/, '');
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    nonce: gateway.nonce,
    stats: () => gateway.stats(),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
