/**
 * Test helpers for the recorder: a tiny loopback upstream of our own (the
 * recorder must work against any deployment, so its unit tests do not lean on
 * the embedded mock), temp cassettes, and a small HTTP client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import type { Exchange } from '../../recorder/cassette-format.ts';

export const TOKEN = 'tok-Q8vX2mZr7LpK4nW9sB3yH6dF1cJ5gT0e';

export interface Upstream {
  baseUrl: string;
  port: number;
  hits: number;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

/** The default upstream: a small, deterministic imitation of a few FLIS operations. */
export const flisLike: Handler = (() => {
  const polls = new Map<string, number>();
  return (req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.replace(/^\/apis\/v0/, '');
    const json = (status: number, value: unknown): void => {
      const bytes = Buffer.from(JSON.stringify(value));
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': bytes.length,
        'x-secret-internal': 'drop-me',
      });
      res.end(bytes);
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(401, { message: 'unauthorized' });
    const batch = path.match(/^\/bookings\/requestsStatus\/batch\/(.+)$/);
    if (batch) {
      const n = (polls.get(batch[1]!) ?? 0) + 1;
      polls.set(batch[1]!, n);
      return json(200, { batchId: batch[1], status: n < 3 ? 'PENDING' : 'DONE', poll: n });
    }
    if (req.method === 'POST' && path === '/offers')
      return json(201, { batchId: 'b-1', id: 'o-1', echo: body.length ? JSON.parse(body.toString()) : null });
    if (path === '/echo-token')
      return json(200, {
        token: TOKEN,
        url: encodeURIComponent(TOKEN),
        b64: Buffer.from(TOKEN).toString('base64'),
        note: `Bearer ${TOKEN}`,
      });
    if (path === '/text') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('plain text answer');
    }
    if (path === '/binary') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(Buffer.from([0, 1, 2, 255, 254]));
    }
    if (path === '/fail') return json(503, { message: 'down for maintenance' });
    json(200, { path, query: Object.fromEntries(url.searchParams), method: req.method });
  };
})();

export async function startUpstream(handler: Handler = flisLike): Promise<Upstream> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      up.hits += 1;
      handler(req, res, Buffer.concat(chunks));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const up: Upstream = {
    baseUrl: `http://127.0.0.1:${port}/apis/v0`,
    port,
    hits: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  return up;
}

export function tempDir(): { dir: string; file(name: string): string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'flis-recorder-'));
  return { dir, file: (name) => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const agent = new Agent({ connections: 2000, keepAliveTimeout: 1000 });

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer, asserted on field by field.
  json(): any;
}

export async function call(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  const token = init.token === undefined ? TOKEN : init.token;
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const r = await request(`${baseUrl}${path}`, {
    method: (init.method ?? 'GET') as 'GET',
    headers,
    ...(body !== undefined ? { body } : {}),
    dispatcher: agent,
  });
  const text = await r.body.text();
  return { status: r.statusCode, headers: r.headers, text, json: () => JSON.parse(text) };
}

/** A cassette header for tests that write cassettes by hand. */
export const testCassetteHeader = {
  format: 1,
  kind: 'flis-cassette',
  recordedAt: '2026-11-26T00:00:00.000Z',
  deployment: null,
  upstream: 'http://127.0.0.1:9/apis/v0',
  specVersion: '1.0.0',
  tool: { name: 'flis-conformance', version: '0.0.0' },
} as const;

/** One `GET` (of `/offers` by default) answered 200 with `items` as its JSON body. */
export function listExchange(items: unknown[], path = '/offers'): Omit<Exchange, 'seq'> {
  const text = JSON.stringify(items);
  return {
    startedAt: '2026-11-26T00:00:00.000Z',
    operationId: 'listOffers',
    request: { method: 'GET', path, query: {}, headers: { authorization: 'Bearer [REDACTED]' }, body: null },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { encoding: 'json', value: items, size: Buffer.byteLength(text), truncated: false },
      timing: { durationMs: 1, firstByteMs: 1 },
    },
    violations: [],
  };
}

/** Bodies over this are answered 413 before they are read (answerOversizeEarly). */
export const EARLY_ANSWER_LIMIT = 1024 * 1024;

/**
 * A handler that answers a body declared over EARLY_ANSWER_LIMIT at once with 413, as Fastify does, and closes
 * without reading it (the unread bytes make a TCP reset); a smaller body is read and answered 200.
 */
export function answerOversizeEarly(req: IncomingMessage, res: ServerResponse): void {
  if (Number(req.headers['content-length'] ?? 0) > EARLY_ANSWER_LIMIT) {
    const body = JSON.stringify({ statusCode: 413, error: 'Payload Too Large', message: 'Request body is too large' });
    res.writeHead(413, { 'content-type': 'application/json', connection: 'close', 'content-length': body.length });
    res.end(body, () => req.socket.destroy());
    return;
  }
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
}
