/**
 * The recorder: a reverse proxy on loopback that forwards `/apis/v0/...` to the
 * upstream deployment over one keep-alive undici Pool, streams bodies both
 * ways unchanged, and appends each completed exchange — redacted and
 * contract-checked — to the cassette before the client sees its response end.
 * The mode (recorder/modes.ts) decides whether the cassette answers first and
 * what a request it cannot answer leads to; in `replay` mode no upstream exists.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { listenError } from '../errors/listen-error.ts';
import { BodyCapture, decodeBody } from './body.ts';
import type { LocatedExchange, RecordedRequest } from './cassette-format.ts';
import { checkReadableCassette } from './cassette-path.ts';
import { CassetteWriter } from './cassette-writer.ts';
import { recordedRequest } from './exchange-record.ts';
import { forward, hasBody } from './forward.ts';
import { cassetteHeader } from './header.ts';
import { defaultMatchOptions, type MatchOptions, matchKey } from './match.ts';
import { missAnswer, MISS_STATUS } from './miss.ts';
import { modePolicies } from './modes.ts';
import { headerValue, type Ctx, type Pending, type Recorder, type RecorderOptions } from './proxy-context.ts';
import { credentialHeaders, redactionPolicy, Redactor } from './redact.ts';
import { failedMidBody, serveCutOff } from './replay-failure.ts';
import { pathEscape } from './path-escape.ts';
import { openReplayIndex } from './replay-store.ts';
import { credentialsOf, secretsFromEnv } from './secrets.ts';
import { openUpstream, publicBaseUrl } from './upstream.ts';
import { WriteQueue } from './write-queue.ts';

export type { LogKind, Recorder, RecorderOptions, RecorderStats } from './proxy-context.ts';

/** The path prefix the recorder serves, the same as every deployment's (spec 9 rule 2). */
export const BASE_PATH = '/apis/v0';
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The largest request body held in memory to be matched (modes new and replay). */
const MAX_BUFFERED_BODY = 64 * 1024 * 1024;

export async function startRecorder(o: RecorderOptions): Promise<Recorder> {
  const policy = modePolicies[o.mode];
  if (policy.needsUpstream && !o.upstream) throw new Error(`mode '${o.mode}' needs an upstream`);
  const matchOptions: MatchOptions = { ...defaultMatchOptions, ...o.match };
  checkReadableCassette(o.cassette);
  const existing =
    policy.replayFirst && (o.mode === 'replay' || existsSync(o.cassette))
      ? openReplayIndex(o.cassette, matchOptions)
      : undefined;
  const lastSeq = existing?.lastSeq ?? 0;
  if (existing?.tail) (o.log ?? (() => {}))(`${o.cassette}: ignored ${existing.tail.message}`, 'cassette-tail');
  const ctx: Ctx = {
    o,
    redactor: new Redactor(o.secrets ?? secretsFromEnv(o.env ?? process.env)),
    headers: redactionPolicy(o.keepHeaders),
    matcher: existing?.matcher,
    store: existing?.store,
    matchOptions,
    writer: undefined,
    queue: new WriteQueue(undefined, () => {}),
    upstream:
      o.upstream && policy.needsUpstream
        ? openUpstream(o.upstream.baseUrl, {
            timeoutMs: o.upstreamTimeoutMs || undefined,
            dispatcher: o.connection?.dispatcher,
          })
        : undefined,
    upstreamName: o.upstream ? publicBaseUrl(o.upstream.baseUrl) : '(none)',
    cap: o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    stats: {
      exchanges: 0,
      written: 0,
      replayed: 0,
      misses: 0,
      failures: 0,
      violations: 0,
      notJudged: 0,
      refusedWrites: 0,
    },
    log: o.log ?? (() => {}),
    tokens: o.connection?.tokens,
  };
  learnConnectionSecrets(ctx);
  if (policy.write !== 'none') {
    const header = cassetteHeader(o.upstream?.deployment ?? null, o.upstream ? ctx.upstreamName : null, o.labels ?? {});
    ctx.writer = new CassetteWriter(o.cassette, {
      mode: policy.write,
      header,
      firstSeq: lastSeq + 1,
      durable: o.durable ?? false,
      // An existing cassette stays untouched until the proxy listens (a busy port must not cost a recording).
      staged: true,
      batch: !o.durable,
    });
  }
  ctx.queue = new WriteQueue(ctx.writer, (err) =>
    ctx.log(`FLIS_ERR_INTERNAL: recording an exchange failed: ${ctx.redactor.text(String(err))}`, 'internal'),
  );
  const server = createServer({ keepAlive: true }, (req, res) => {
    // A request forwarded at once (mode record) is answered by callbacks: handle() makes no promise for it.
    try {
      handle(ctx, req, res)?.catch((err: unknown) => internalError(ctx, res, err));
    } catch (err) {
      internalError(ctx, res, err);
    }
  });
  server.keepAliveTimeout = 10_000;
  try {
    await listen(server, o.host ?? '127.0.0.1', o.port ?? 0);
    ctx.writer?.commit();
  } catch (err) {
    ctx.writer?.abort();
    await ctx.upstream?.close();
    throw listenError(err, o.host ?? '127.0.0.1', o.port ?? 0);
  }
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    baseUrl: `http://${host}:${addr.port}${BASE_PATH}`,
    stats: ctx.stats,
    close: () => closeAll(ctx, server),
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // A deep backlog: a burst of new connections must queue, not be dropped and retried a second later.
    server.listen({ host, port, backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function closeAll(ctx: Ctx, server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
  await ctx.upstream?.close();
  ctx.queue.flush();
  ctx.writer?.close();
  ctx.store?.close();
}

/**
 * The redactor that also knows this request's credential. Computing every
 * encoded form of a credential costs more than proxying a small answer, and a
 * client sends the same few credentials again and again: they are kept, a few,
 * by the Authorization value they came in (so that a value seen before is not
 * parsed again).
 */
const credentialRedactors = new WeakMap<Ctx, Map<string, Redactor>>();
const MAX_CREDENTIAL_REDACTORS = 16;

function redactorFor(ctx: Ctx, authorization: string | undefined): Redactor {
  if (!authorization) return ctx.redactor;
  let known = credentialRedactors.get(ctx);
  if (!known) credentialRedactors.set(ctx, (known = new Map()));
  let r = known.get(authorization);
  if (!r) {
    const credential = credentialsOf(authorization);
    r = credential ? ctx.redactor.with([{ label: 'the Authorization header', value: credential }]) : ctx.redactor;
    if (known.size >= MAX_CREDENTIAL_REDACTORS) known.delete(known.keys().next().value!);
    known.set(authorization, r);
  }
  return r;
}

/**
 * A request target as the WHATWG URL parser reads it (percent-encoding, dot segments, backslashes), remembered for
 * targets that come again, as a polling client's do: parsing one cost more than the rest of reading the request.
 * The URL is shared by the requests of one target and only read (recorder/exchange-record.ts reads its query).
 * Bounded; cleared when full, so targets that never come again cannot hold it for good.
 */
const targets = new Map<string, URL>();
const MAX_TARGETS = 1024;
/** Longer targets are parsed each time: the memo holds at most MAX_TARGETS of this length. */
const MAX_TARGET_LENGTH = 2048;

function targetOf(raw: string): URL {
  let url = targets.get(raw);
  if (!url) {
    url = new URL(raw, 'http://recorder.invalid');
    if (raw.length > MAX_TARGET_LENGTH) return url;
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(raw, url);
  }
  return url;
}

/**
 * Every secret of the connection (a token issued mid-run, the client secret, proxy credentials) joins the
 * redactor as it is learnt, before a request can carry it; the per-credential redactors built on the old one go.
 */
function learnConnectionSecrets(ctx: Ctx): void {
  ctx.o.connection?.tokens.onSecret((value) => {
    ctx.redactor = ctx.redactor.with([{ label: 'a secret of the connection (token, client secret, proxy)', value }]);
    credentialRedactors.delete(ctx);
    // Match keys remembered under the old redactor would hide the new secret's redaction.
    knownKeys.delete(ctx);
  });
}

/**
 * Replay's shortcut for a request without a body: the match key it had the
 * last time the same method, URL and credential came (every field matching
 * reads is made from these alone: the path, the query, and the redacted
 * headers, whose redactor is the credential's). Redacting and canonicalising
 * a request costs more than serving its answer. Bounded; dropped when full.
 */
const knownKeys = new WeakMap<Ctx, Map<string, string>>();
const MAX_KNOWN_KEYS = 4096;

function quickKey(ctx: Ctx, req: IncomingMessage): string {
  let key = `${req.method}\n${req.url}\n${req.headers.authorization}`;
  for (const h of ctx.matchOptions.headers) if (h !== 'authorization') key += `\n${req.headers[h]}`;
  return key;
}

function rememberKey(ctx: Ctx, quick: string, request: RecordedRequest): void {
  let known = knownKeys.get(ctx);
  if (!known) knownKeys.set(ctx, (known = new Map()));
  if (known.size >= MAX_KNOWN_KEYS) known.clear();
  known.set(quick, matchKey(request, ctx.matchOptions));
}

function handle(ctx: Ctx, req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
  const policy = modePolicies[ctx.o.mode];
  const quick = policy.replayFirst && !hasBody(req) ? quickKey(ctx, req) : undefined;
  if (quick !== undefined && ctx.store) {
    const key = knownKeys.get(ctx)?.get(quick);
    const hit = key === undefined ? undefined : ctx.matcher?.takeKey(key);
    if (hit) {
      serveRecorded(ctx, res, ctx.store.read(hit));
      return undefined;
    }
  }
  const t0 = performance.now();
  const startedAt = new Date().toISOString();
  const url = targetOf(req.url ?? '/');
  if (url.pathname !== BASE_PATH && !url.pathname.startsWith(`${BASE_PATH}/`)) {
    sendJson(res, 404, {
      code: 'FLIS_ERR_USAGE',
      message: `the recorder serves ${BASE_PATH}/...; point the client's base URL at it, ending in ${BASE_PATH}`,
    });
    return undefined;
  }
  const rel = url.pathname.slice(BASE_PATH.length) || '/';
  // The URL parser resolved '..' and '%2e%2e'; what it leaves (an encoded '/..', '%252e', '//') could still lead a
  // server out of the base path, and a cassette holding it could never be read back: neither forwarded nor recorded.
  const way = pathEscape(rel);
  if (way) {
    sendJson(res, 400, {
      code: 'FLIS_ERR_USAGE',
      message: `the recorder neither forwards nor records a path that could leave ${BASE_PATH}: this one has ${way}`,
    });
    return undefined;
  }
  const authorization = headerValue(req.headers.authorization);
  const redactor = redactorFor(ctx, authorization);
  const x: Pending = { t0, startedAt, rel, search: url.search, url, authorization, redactor };
  if (!policy.replayFirst) return forward(ctx, req, res, x, undefined);
  return answerFirst(ctx, req, res, x, quick);
}

/** Modes that answer from the cassette first: the request read whole, matched, then answered or forwarded. */
async function answerFirst(
  ctx: Ctx,
  req: IncomingMessage,
  res: ServerResponse,
  x: Pending,
  quick: string | undefined,
): Promise<void> {
  const policy = modePolicies[ctx.o.mode];
  // Read whole: it is matched now and may still be forwarded (mode new), so it cannot be cut at the cassette's cap.
  const capture = new BodyCapture(MAX_BUFFERED_BODY);
  // Most replayed requests are GETs without a body: no stream to drain, nothing to wait for.
  if (hasBody(req)) for await (const chunk of req) capture.add(chunk as Buffer);
  if (capture.truncated) {
    sendJson(res, 413, {
      code: 'FLIS_ERR_USAGE',
      message: `request bodies over ${MAX_BUFFERED_BODY} bytes cannot be matched against a cassette (mode ${ctx.o.mode}); record them with --mode record`,
    });
    return;
  }
  const recorded = recordedRequest(ctx, req, x, capture);
  if (quick !== undefined) rememberKey(ctx, quick, recorded);
  const hit = ctx.matcher?.take(recorded);
  if (hit && ctx.store) return serveRecorded(ctx, res, ctx.store.read(hit));
  if (policy.onMiss === 'error') return answerMiss(ctx, res, recorded);
  return forward(ctx, req, res, x, capture);
}

function serveRecorded(ctx: Ctx, res: ServerResponse, e: LocatedExchange): void {
  ctx.stats.replayed += 1;
  const a = answerOf(e);
  const headers = { ...a.headers, 'x-flis-cassette': `replayed seq=${e.seq}` };
  if (a.cutOff) {
    serveCutOff(res, e.response.status, headers, a.bytes);
    return;
  }
  res.writeHead(e.response.status, headers);
  res.end(a.bytes);
}

/** What replay sends for a recorded response: its headers (credentials left out, the length set) and its bytes. */
interface Answer {
  headers: Record<string, string | string[]>;
  bytes: Buffer;
  cutOff: boolean;
}

/**
 * Made once per parsed response (the store shares one among identical answers, and serves most many times).
 * A response's failure is part of what the store compares, so `cutOff` is the same for every exchange sharing it.
 */
const answers = new WeakMap<LocatedExchange['response'], Answer>();

function answerOf(e: LocatedExchange): Answer {
  let a = answers.get(e.response);
  if (!a) {
    const bytes = decodeBody(e.response.body);
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(e.response.headers))
      if (!(credentialHeaders as readonly string[]).includes(k)) headers[k] = v;
    headers['content-length'] = String(bytes.length);
    a = { headers, bytes, cutOff: failedMidBody(e) };
    answers.set(e.response, a);
  }
  return a;
}

function answerMiss(ctx: Ctx, res: ServerResponse, request: RecordedRequest): void {
  ctx.stats.misses += 1;
  const answer = missAnswer(ctx.o.cassette, request, ctx.matcher, ctx.o.mode);
  ctx.log(`FLIS_ERR_CASSETTE_MISS: ${answer.summary}`, 'miss');
  sendJson(res, MISS_STATUS, answer.body, { 'x-flis-cassette': 'miss' });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers });
  res.end(bytes);
}

function internalError(ctx: Ctx, res: ServerResponse, err: unknown): void {
  const message = ctx.redactor.text(err instanceof Error ? err.message : String(err));
  ctx.log(`FLIS_ERR_INTERNAL: ${message}`, 'internal');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, 500, { code: 'FLIS_ERR_INTERNAL', message: `the recorder failed on this request: ${message}` });
}
