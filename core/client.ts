/**
 * The suites' HTTP client: undici, plus a record of every exchange so a
 * failing check can show what was sent and received. Not Playwright's
 * APIRequestContext: its per-call stack capture, step and IPC message cost a
 * worker more CPU than the request itself against a local deployment
 * (docs/benchmarks.md, "Where a run's time goes").
 * Auth is chosen per call so the auth checks can send no token or a wrong one.
 * Requests go through the run's gateway (docs/throttling.md); exchanges show the
 * deployment's own URL. The gateway's own answers make the check inconclusive,
 * and a 502/503/504 to a GET is asked once more before it counts as the answer.
 */
import { test, type TestInfo } from '@playwright/test';
import { type Dispatcher, request } from 'undici';
import { IDEMPOTENT_METHODS, isConnectionReset } from '../errors/connection-reset.ts';
import { fillPath, type Operation } from '../specs/contract.ts';
import type { Exchange } from './exchange.ts';
import { syntheticAnswer, type SyntheticBody } from './gateway-answer.ts';
import { skip } from './skip.ts';
import type { Target } from './target.ts';

export type AuthMode = 'valid' | 'none' | 'wrong';

export interface CallOptions {
  /** Values for the path template's parameters. */
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON value to send as the body (serialised here). */
  json?: unknown;
  /** A raw body, sent as is (for malformed JSON and wrong content types). */
  raw?: string;
  contentType?: string;
  auth?: AuthMode;
  /** With auth 'wrong': this token instead of WRONG_TOKEN (the auth probes' near misses of the real one). */
  bearer?: string;
}

/** A token no deployment issues: used to prove wrong tokens are refused (spec 5). */
export const WRONG_TOKEN = 'flis-conformance-wrong-token-0000';

/** Methods that may change the target: never sent to a read-only target (live data without --allow-writes). */
export const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The safety net of the read-only guarantee: a check that would send a write method to a read-only target is
 * skipped with the reason instead (checks that know they write say so up front; this catches any that do not,
 * the auth probes of write operations included). Outside a test it refuses with an error.
 */
function refuseWrite(method: string, path: string, reason: string): never {
  const why = `${reason} (refused to send ${method} ${path})`;
  let info: ReturnType<typeof test.info> | undefined;
  try {
    info = test.info();
  } catch {
    throw new Error(`read-only target: ${why}`);
  }
  info.annotations.push({ type: 'skipped-because', description: why });
  info.skip(true, why);
  throw new Error(`read-only target: ${why}`); // not reached: skip() throws to end the test
}

/** Answers to a GET that are asked once more after a short pause: a proxy's or a restarting node's, often passing. */
const RETRIED_5XX: ReadonlySet<number> = new Set([502, 503, 504]);
export const RETRY_PAUSE_MS = 500;

function currentTest(): TestInfo | undefined {
  try {
    return test.info();
  } catch {
    return undefined;
  }
}

/** The gateway gave up on the request: the check cannot judge the deployment (inconclusive), or cannot reach it. */
function stopOnSynthetic(answer: SyntheticBody, method: string, path: string): never {
  const info = currentTest();
  if (answer.flisGateway === 'inconclusive' && info) skip.inconclusive({ testInfo: info }, answer.reason);
  throw new Error(
    answer.flisGateway === 'inconclusive'
      ? `inconclusive: ${answer.reason}`
      : `${method} ${path}: the deployment could not be reached (${answer.reason})`,
  );
}

/** One value per header, as a record shows it: repeated headers joined as HTTP allows (RFC 9110 5.3). */
function headersOf(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Without the gateway, a request gives up after this long, as Playwright's request context did. */
const DIRECT_TIMEOUT_MS = 30_000;

export class FlisClient {
  readonly exchanges: Exchange[] = [];
  /** `onAnswer`: told of every answer the deployment gave (each attempt of a retried GET), not the gateway's own. */
  constructor(
    private readonly dispatcher: Dispatcher,
    readonly target: Target,
    private readonly onAnswer: () => void = () => {},
  ) {}

  /** The URL a request goes to (the gateway's, on a run); `base` picks the deployment's own for display. */
  url(path: string, query?: CallOptions['query'], base = this.target.baseUrl): string {
    const u = new URL(base + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  /** Call a documented operation by its contract entry. */
  async op(operation: Operation, options: CallOptions = {}): Promise<Exchange> {
    const x = await this.send(operation.method, fillPath(operation.path, options.params ?? {}), options);
    x.operationId = operation.operationId;
    return x;
  }

  async send(method: string, path: string, options: CallOptions = {}): Promise<Exchange> {
    if (WRITE_METHODS.has(method.toUpperCase()) && !this.target.allowWrites)
      refuseWrite(method.toUpperCase(), path, this.target.writesSkippedReason);
    const url = this.url(path, options.query);
    const shownUrl = this.url(path, options.query, this.target.publicBaseUrl ?? this.target.baseUrl);
    const headers: Record<string, string> = { accept: 'application/json' };
    const auth = options.auth ?? 'valid';
    if (auth !== 'none')
      headers.authorization = `Bearer ${auth === 'valid' ? this.target.token : (options.bearer ?? WRONG_TOKEN)}`;
    const body = options.raw ?? (options.json !== undefined ? JSON.stringify(options.json) : undefined);
    if (body !== undefined || options.contentType) headers['content-type'] = options.contentType ?? 'application/json';
    const verb = method.toUpperCase();
    const sent = { method: verb, url: shownUrl, headers, ...(body !== undefined ? { body } : {}) };
    let exchange = await this.attempt(url, sent, path);
    if (verb === 'GET' && RETRIED_5XX.has(exchange.response.status)) {
      await new Promise((done) => setTimeout(done, RETRY_PAUSE_MS));
      // The second answer is the answer; the failure record shows both (check-failure.ts).
      exchange = { ...(await this.attempt(url, sent, path)), retryOf: exchange };
    }
    this.exchanges.push(exchange);
    return exchange;
  }

  private async attempt(url: string, sent: Exchange['request'], path: string): Promise<Exchange> {
    const started = Date.now();
    // Behind the gateway a request may wait out throttling: the gateway's request timeout and the check timeout
    // bound it, not a client timeout.
    const timeout = this.target.gatewayNonce ? 0 : DIRECT_TIMEOUT_MS;
    const ask = async () => {
      const res = await request(url, {
        dispatcher: this.dispatcher,
        method: sent.method as Dispatcher.HttpMethod,
        headers: sent.headers,
        ...(sent.body !== undefined ? { body: Buffer.from(sent.body, 'utf8') } : {}),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      // The raw bytes, not text(): decoding drops a leading byte-order mark, which json-content-type judges.
      return { res, bytes: Buffer.from(await res.body.arrayBuffer()) };
    };
    // A reset of the worker's connection (to the gateway on loopback, on a run) is never the deployment's doing; an
    // idempotent request is asked once more, as the gateway does towards the deployment (errors/connection-reset.ts).
    const { res, bytes } = await ask().catch((error: unknown) => {
      if (IDEMPOTENT_METHODS.has(sent.method) && isConnectionReset(error)) return ask();
      throw error;
    });
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    const text = UTF8.decode(bytes);
    const headers = headersOf(res.headers);
    const status = res.statusCode;
    const synthetic = syntheticAnswer(headers, text, this.target.gatewayNonce);
    if (synthetic) stopOnSynthetic(synthetic, sent.method, path);
    this.onAnswer();
    return {
      request: sent,
      response: {
        status,
        headers,
        body: parseJson(text),
        text,
        ...(bom ? { bom: true as const } : {}),
        durationMs: Date.now() - started,
      },
    };
  }
}

/** UTF-8 as undici's text() decodes it: a leading byte-order mark is dropped, invalid bytes become U+FFFD. */
const UTF8 = new TextDecoder('utf-8');

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
