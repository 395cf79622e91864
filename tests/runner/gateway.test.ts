/**
 * The gateway every suite request goes through (runner/gateway.ts), against
 * loopback servers started here: it forwards faithfully, swaps and renews the
 * run's token (never a probe's), waits out throttling up to the run's cap,
 * gives up on a silent deployment with a synthetic answer, and keeps the
 * run's bound on requests in flight.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { Agent } from 'undici';
import type { TokenSource } from '../../net/types.ts';
import {
  GATEWAY_HEADER,
  MAX_TOKEN_RENEWALS,
  startGateway,
  type Gateway,
  type GatewayLimits,
} from '../../runner/gateway.ts';
import { ThrottlePause } from '../../runner/gateway-stats.ts';
import { RateLimit, Slots } from '../../runner/rate-limit.ts';
import { parseRetryAfter, throttleDelay } from '../../runner/throttle.ts';

/** Tokens issued in turn, as an OAuth source renews them. */
class RotatingTokens implements TokenSource {
  issued = ['run-token-1'];
  reasons: string[] = [];
  async current(): Promise<string> {
    return this.issued.at(-1) as string;
  }
  async refresh(reason: string): Promise<string> {
    this.reasons.push(reason);
    this.issued.push(`run-token-${this.issued.length + 1}`);
    return this.current();
  }
  isRunToken(token: string): boolean {
    return this.issued.includes(token);
  }
  secrets(): string[] {
    return [...this.issued];
  }
  onSecret(): void {}
  refreshes(): { at: string; reason: string }[] {
    return this.reasons.map((reason) => ({ at: '', reason }));
  }
  async close(): Promise<void> {}
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

async function upstream(handler: Handler): Promise<{ baseUrl: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    handler(req, res, Buffer.concat(chunks).toString('utf8'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/apis/v0`, server };
}

async function gatewayTo(
  baseUrl: string,
  limits: GatewayLimits = {},
  tokens = new RotatingTokens(),
): Promise<{ gw: Gateway; tokens: RotatingTokens }> {
  const dispatcher = new Agent();
  const gw = await startGateway({ upstreamBaseUrl: baseUrl, connection: { dispatcher, tokens }, ...limits });
  closers.push(async () => {
    await gw.close();
    await dispatcher.close();
  });
  return { gw, tokens };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

test('Retry-After in seconds or as an HTTP date; 429 without it backs off; 503 without it is an answer', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('2', now), 2000);
  assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:03 GMT', now), 3000);
  assert.equal(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now), 0, 'a date already past means now');
  assert.equal(parseRetryAfter('soon', now), undefined);
  assert.equal(parseRetryAfter('-1', now), undefined);
  assert.equal(throttleDelay(429, undefined, 0), 500);
  assert.equal(throttleDelay(429, undefined, 2), 2000);
  assert.equal(throttleDelay(503, '1', 0), 1000);
  assert.equal(throttleDelay(503, undefined, 0), undefined);
  assert.equal(throttleDelay(500, '1', 0), undefined);
});

test('the rate ceiling spaces starts evenly, and the wait cap refuses a pause that would pass it', () => {
  const rate = new RateLimit(10);
  assert.deepEqual([rate.reserve(0), rate.reserve(0), rate.reserve(0), rate.reserve(250)], [0, 100, 200, 50]);
  const pause = new ThrottlePause(1500);
  assert.equal(pause.extend(1000, 0), true);
  assert.equal(pause.extend(1000, 0), true, 'a pause overlapping the current one adds nothing');
  assert.equal(pause.waitedMs, 1000);
  assert.equal(pause.extend(1100, 500), false, 'to 1600 ms from the start: 1000 waited + 600 more > the cap');
  assert.equal(pause.remaining(400), 600);
});

test('forwards method, path, query, body and headers, and passes the answer on unchanged', async () => {
  let seen:
    | {
        method?: string | undefined;
        url?: string | undefined;
        body: string;
        type?: string | undefined;
        host?: string | undefined;
      }
    | undefined;
  const up = await upstream((req, res, body) => {
    seen = { method: req.method, url: req.url, body, type: req.headers['content-type'], host: req.headers.host };
    res.writeHead(201, [
      'Content-Type',
      'application/json',
      'X-Extra',
      'a',
      'Set-Cookie',
      'x=1',
      'Set-Cookie',
      'y=2',
      'Location',
      '/apis/v0/offers/1',
    ]);
    res.end('{"ok":true}');
  });
  const { gw } = await gatewayTo(up.baseUrl);
  assert.match(gw.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/apis\/v0$/);
  const res = await fetch(`${gw.baseUrl}/offers/abc?x=1&y=%20`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: 'Bearer run-token-1' },
    body: '{"a":1}',
  });
  assert.equal(res.status, 201);
  assert.equal(await res.text(), '{"ok":true}');
  assert.equal(res.headers.get('x-extra'), 'a');
  assert.deepEqual(res.headers.getSetCookie(), ['x=1', 'y=2']);
  assert.equal(res.headers.get('location'), '/apis/v0/offers/1');
  assert.equal(res.headers.get(GATEWAY_HEADER), null);
  assert.deepEqual(seen, {
    method: 'PUT',
    url: '/apis/v0/offers/abc?x=1&y=%20',
    body: '{"a":1}',
    type: 'application/json',
    host: new URL(up.baseUrl).host,
  });
  assert.equal(gw.stats().requests, 1);
});

test("the run's token is swapped for the current one and renewed once on 401 invalid_token; a probe's token never is", async () => {
  const tokensSeen: string[] = [];
  let valid = 'run-token-1';
  const up = await upstream((req, res) => {
    const auth = req.headers.authorization ?? '';
    tokensSeen.push(auth);
    if (auth === `Bearer ${valid}`) return json(res, 200, { ok: true });
    json(res, 401, { error: 'no' }, { 'www-authenticate': 'Bearer realm="flis", error="invalid_token"' });
  });
  const { gw, tokens } = await gatewayTo(up.baseUrl);
  // The deployment now wants a token the source has not issued yet: the gateway must renew and retry once.
  valid = 'run-token-2';
  const ok = await fetch(`${gw.baseUrl}/offers`, { headers: { authorization: 'Bearer run-token-1' } });
  assert.equal(ok.status, 200);
  assert.deepEqual(tokensSeen, ['Bearer run-token-1', 'Bearer run-token-2']);
  // A worker still holding the first token gets the current one swapped in.
  tokensSeen.length = 0;
  assert.equal((await fetch(`${gw.baseUrl}/offers`, { headers: { authorization: 'Bearer run-token-1' } })).status, 200);
  assert.deepEqual(tokensSeen, ['Bearer run-token-2']);
  // Wrong tokens and no token pass untouched, and their 401 is the answer.
  tokensSeen.length = 0;
  const wrong = await fetch(`${gw.baseUrl}/offers`, { headers: { authorization: 'Bearer run-token-2x' } });
  const none = await fetch(`${gw.baseUrl}/offers`);
  assert.deepEqual([wrong.status, none.status], [401, 401]);
  assert.deepEqual(tokensSeen, ['Bearer run-token-2x', '']);
  assert.equal(tokens.issued.length, 2, 'no renewal for a probe');
  assert.equal(gw.stats().tokenRefreshes, 1);
  assert.equal(gw.stats().retries, 1);
});

test('a token that lapses in flight again is renewed again, up to MAX_TOKEN_RENEWALS; then the request is inconclusive', async () => {
  // The deployment takes only the token issued after `acceptFrom` renewals: a slow link where renewed tokens lapse too.
  let acceptFrom = MAX_TOKEN_RENEWALS;
  const up = await upstream((req, res) => {
    const n = Number((req.headers.authorization ?? '').replace('Bearer run-token-', ''));
    if (n > acceptFrom) return json(res, 200, { ok: true });
    json(res, 401, { error: 'expired' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
  });
  const { gw, tokens } = await gatewayTo(up.baseUrl);
  const ok = await fetch(`${gw.baseUrl}/offers`, { headers: { authorization: 'Bearer run-token-1' } });
  assert.equal(ok.status, 200, 'served once the last allowed renewal came');
  assert.equal(tokens.issued.length, MAX_TOKEN_RENEWALS + 1);
  acceptFrom = Number.POSITIVE_INFINITY;
  const given = await fetch(`${gw.baseUrl}/offers`, { headers: { authorization: 'Bearer run-token-1' } });
  assert.equal(given.status, 504);
  assert.equal(
    given.headers.get(GATEWAY_HEADER),
    gw.nonce,
    'a synthetic answer: the check is inconclusive, not failed',
  );
  const body = (await given.json()) as { flisGateway: string; reason: string };
  assert.equal(body.flisGateway, 'inconclusive');
  assert.match(body.reason, new RegExp(`refused ${MAX_TOKEN_RENEWALS + 1} tokens in a row for GET /apis/v0/offers`));
  assert.ok(!body.reason.includes('run-token'), 'the reason names no token');
});

test('429 and 503 with Retry-After are waited out and retried; the wait is counted, never passed on', async () => {
  const answers = [
    [429, { 'retry-after': '0' }],
    [503, { 'retry-after': new Date(Date.now() - 1000).toUTCString() }],
    [429, {}],
    [200, {}],
  ] as const;
  let n = 0;
  const up = await upstream((_req, res) => {
    const [status, headers] = answers[Math.min(n++, answers.length - 1)] as (typeof answers)[number];
    json(res, status, { n }, headers);
  });
  const { gw } = await gatewayTo(up.baseUrl);
  const res = await fetch(`${gw.baseUrl}/billingGroups`);
  assert.equal(res.status, 200);
  assert.equal(n, 4);
  const s = gw.stats();
  assert.equal(s.throttled, 3);
  assert.equal(s.retries, 3);
  assert.ok(s.waitedMs >= 500, `the 429 without Retry-After backed off (waited ${s.waitedMs} ms)`);
});

test('past the wait cap the worker gets a synthetic inconclusive answer carrying the nonce', async () => {
  const up = await upstream((_req, res) => json(res, 429, {}, { 'retry-after': '3600' }));
  const { gw } = await gatewayTo(up.baseUrl, { maxThrottleWaitMs: 1000 });
  const res = await fetch(`${gw.baseUrl}/offers`);
  assert.equal(res.status, 504);
  assert.equal(res.headers.get(GATEWAY_HEADER), gw.nonce);
  const body = (await res.json()) as { flisGateway: string; reason: string };
  assert.equal(body.flisGateway, 'inconclusive');
  assert.match(body.reason, /wait cap of 1 s \(--max-throttle-wait\)/);
  assert.equal(gw.stats().waitCapReached, 1);
  assert.equal(gw.stats().waitedMs, 0);
});

test('a deployment that does not answer in time gets a synthetic inconclusive answer; others go on', async () => {
  const up = await upstream((req, res) => {
    if (req.url?.includes('silent')) return; // accepted, never answered
    json(res, 200, { ok: true });
  });
  const { gw } = await gatewayTo(up.baseUrl, { requestTimeoutMs: 300 });
  const [silent, fine] = await Promise.all([fetch(`${gw.baseUrl}/silent`), fetch(`${gw.baseUrl}/offers`)]);
  assert.equal(fine.status, 200);
  assert.equal(silent.status, 504);
  assert.equal(silent.headers.get(GATEWAY_HEADER), gw.nonce);
  assert.match(((await silent.json()) as { reason: string }).reason, /did not answer GET \/apis\/v0\/silent within/);
  assert.equal(gw.stats().timeouts, 1);
});

test('a refused connection is a synthetic "unreachable" answer, not a hang', async () => {
  const up = await upstream((_req, res) => json(res, 200, {}));
  const url = up.baseUrl;
  await new Promise<void>((done) => {
    up.server.closeAllConnections();
    up.server.close(() => done());
  });
  const { gw } = await gatewayTo(url);
  const res = await fetch(`${gw.baseUrl}/offers`);
  assert.equal(res.status, 502);
  assert.equal(res.headers.get(GATEWAY_HEADER), gw.nonce);
  assert.match(((await res.json()) as { reason: string }).reason, /connection refused/);
});

test('a connection reset before any answer is sent again for GET, PUT and DELETE; a POST is not, and is inconclusive', async () => {
  // Each path's first request has its connection closed without an answer, as a kept-alive connection closed as idle
  // just when it is reused; the next one is answered.
  const seen = new Map<string, number>();
  const up = await upstream((req, res) => {
    const key = `${req.method} ${req.url}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    if (seen.get(key) === 1) return req.socket.destroy();
    json(res, 200, { ok: true });
  });
  const { gw } = await gatewayTo(up.baseUrl);
  for (const method of ['GET', 'PUT', 'DELETE']) {
    const res = await fetch(`${gw.baseUrl}/offers/reset-${method}`, { method });
    assert.equal(res.status, 200, `${method}: answered on the second try`);
    assert.equal(seen.get(`${method} /apis/v0/offers/reset-${method}`), 2, `${method} was sent twice`);
  }
  assert.equal(gw.stats().retries, 3);
  const post = await fetch(`${gw.baseUrl}/offers`, { method: 'POST', body: '{}' });
  assert.equal(post.status, 504, 'a POST is never sent twice (the deployment may have acted on it), nor failed');
  assert.equal(post.headers.get(GATEWAY_HEADER), gw.nonce);
  assert.deepEqual(await post.json(), {
    flisGateway: 'inconclusive',
    reason:
      'the connection to the deployment was closed before the whole answer to POST /apis/v0/offers, and a POST is not sent again (the deployment may have acted on it)',
  });
  assert.equal(seen.get('POST /apis/v0/offers'), 1);
  assert.equal(gw.stats().closedBeforeAnswer, 1);
});

test('a request reset on every send is inconclusive after three more sends: the idle connections of a pool go stale together', async () => {
  const seen = new Map<string, number>();
  const up = await upstream((req, res) => {
    const key = `${req.method} ${req.url}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    if (req.url?.includes('always') || (seen.get(key) ?? 0) <= 3) return req.socket.destroy();
    json(res, 200, { ok: true });
  });
  const { gw } = await gatewayTo(up.baseUrl);
  const third = await fetch(`${gw.baseUrl}/offers/reset-thrice`, { method: 'DELETE' });
  assert.equal(third.status, 200, 'answered on the fourth send');
  const always = await fetch(`${gw.baseUrl}/offers/always`);
  assert.equal(always.status, 504, 'never answered: inconclusive, not a failure');
  assert.equal(always.headers.get(GATEWAY_HEADER), gw.nonce);
  assert.match(
    ((await always.json()) as { reason: string }).reason,
    /closed before the whole answer to GET \/apis\/v0\/offers\/always, on each of 4 sends/,
  );
  assert.equal(seen.get('GET /apis/v0/offers/always'), 4);
  assert.equal(gw.stats().closedBeforeAnswer, 1);
});

test('no more than --max-in-flight requests reach the deployment at once, from any number of callers', async () => {
  let inFlight = 0;
  let most = 0;
  const waiting: ServerResponse[] = [];
  const up = await upstream((_req, res) => {
    inFlight++;
    most = Math.max(most, inFlight);
    waiting.push(res);
    // Answer only once the bound is full (or all have come), so the test does not depend on timing.
    if (waiting.length >= 2)
      for (const r of waiting.splice(0)) {
        inFlight--;
        json(r, 200, {});
      }
  });
  const { gw } = await gatewayTo(up.baseUrl, { maxInFlight: 2 });
  const statuses = await Promise.all(
    Array.from({ length: 8 }, async () => (await fetch(`${gw.baseUrl}/offers`)).status),
  );
  assert.deepEqual(statuses, Array(8).fill(200));
  assert.equal(most, 2);
});

test('slots are handed on in order and released once', async () => {
  const slots = new Slots(1);
  const first = await slots.acquire();
  const order: number[] = [];
  const inOrder = (n: number) => (release: () => void) => {
    order.push(n);
    return release;
  };
  const second = slots.acquire().then(inOrder(2));
  const third = slots.acquire().then(inOrder(3));
  first();
  first();
  (await second)();
  (await third)();
  assert.deepEqual(order, [2, 3]);
  assert.equal(slots.inFlight, 0);
});
