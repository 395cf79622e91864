/**
 * A webhook receiver on loopback: accepts every POST, judges it
 * (validate-delivery.ts), keeps it, and tells listeners. Used by `flis
 * webhooks listen` and by the webhooks suite, which waits for a delivery with
 * waitFor() (event-driven, with a deadline; never a sleep). It answers 204:
 * the status a receiver must give is not shown, and any 2xx acknowledges.
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { validateDelivery, type DeliveryViolation } from './validate-delivery.ts';

const MAX_BODY = 5 * 1024 * 1024;
const KEPT_HEADERS = ['content-type', 'user-agent', 'content-length'];

export interface Delivery {
  seq: number;
  receivedAt: string;
  method: string;
  path: string;
  /** A few informative headers; credentials are never kept. */
  headers: Record<string, string>;
  text: string;
  /** The parsed body, when it is JSON. */
  body?: unknown;
  /** The envelope's type, when the envelope is valid. */
  type?: string;
  payload?: unknown;
  violations: DeliveryViolation[];
}

export interface ReceiverOptions {
  /** Default 127.0.0.1: deliveries come from this machine unless the user exposes the port. */
  host?: string | undefined;
  port?: number | undefined;
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** Resolves with the first delivery (already received or arriving) that matches, or undefined at the deadline. */
  waitFor(match: (d: Delivery) => boolean, timeoutMs: number): Promise<Delivery | undefined>;
  onDelivery(listener: (d: Delivery) => void): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export async function startReceiver(opts: ReceiverOptions = {}): Promise<Receiver> {
  const events = new EventEmitter();
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then(
      (text) => {
        const verdict = validateDelivery(req.method ?? 'GET', req.headers['content-type'], text);
        const headers = Object.fromEntries(
          KEPT_HEADERS.filter((h) => typeof req.headers[h] === 'string').map((h) => [h, req.headers[h] as string]),
        );
        const body = parseJson(text);
        const d: Delivery = {
          seq: deliveries.length + 1,
          receivedAt: new Date().toISOString(),
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers,
          text,
          ...(body !== undefined ? { body } : {}),
          ...(verdict.type ? { type: verdict.type, payload: verdict.payload } : {}),
          violations: verdict.violations,
        };
        deliveries.push(d);
        res.writeHead(204).end();
        events.emit('delivery', d);
      },
      () => res.writeHead(400).end(),
    );
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => done());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);
  const host = opts.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    deliveries,
    onDelivery: (listener) => events.on('delivery', listener),
    waitFor: (match, timeoutMs) => {
      const seen = deliveries.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((done) => {
        const listener = (d: Delivery) => {
          if (!match(d)) return;
          clearTimeout(timer);
          events.off('delivery', listener);
          done(d);
        };
        const timer = setTimeout(() => {
          events.off('delivery', listener);
          done(undefined);
        }, timeoutMs);
        events.on('delivery', listener);
      });
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
