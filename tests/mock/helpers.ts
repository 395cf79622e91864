/**
 * Shared pieces of the mock's tests: a running mock per test file, a small
 * HTTP client that never throws on a status, the operations of
 * specs/openapi.yaml read with the yaml package, and polling with a deadline.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { startMock, type MockOptions, type RunningMock } from '../../mock/server.ts';

export const TOKEN = 'test-token-5b1c0e';

/**
 * A parsed JSON body as the mock's tests read it: walked field by field and asserted on, so typed loosely on purpose
 * (the schemas, validated elsewhere, are the types).
 */
// biome-ignore lint/suspicious/noExplicitAny: JSON bodies read by the tests, asserted on field by field.
export type Json = any;

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  body: Json;
}

export interface CallOptions {
  json?: unknown;
  /** Sent as is, with the given content type (default application/json). */
  raw?: string;
  contentType?: string | null;
  /** undefined: the test token; null: no Authorization header; a string: that token. */
  token?: string | null;
  authorization?: string;
  query?: Record<string, string>;
}

export async function call(mock: RunningMock, method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  const token = opts.token === undefined ? TOKEN : opts.token;
  if (opts.authorization !== undefined) headers.authorization = opts.authorization;
  else if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (opts.json !== undefined) body = JSON.stringify(opts.json);
  if (opts.raw !== undefined) body = opts.raw;
  const contentType =
    opts.contentType === undefined ? (body !== undefined ? 'application/json' : null) : opts.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const qs = opts.query ? `?${new URLSearchParams(opts.query).toString()}` : '';
  const res = await fetch(`${mock.baseUrl}${path}${qs}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, body: parsed };
}

export async function withMock<T>(opts: Partial<MockOptions>, run: (mock: RunningMock) => Promise<T>): Promise<T> {
  const mock = await startMock({ token: TOKEN, ...opts });
  try {
    return await run(mock);
  } finally {
    await mock.close();
  }
}

export interface SpecOperation {
  operationId: string;
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  path: string;
  clause: string;
  deprecated: boolean;
  pathParams: string[];
}

/** The operations of specs/openapi.yaml, read directly: the test must not trust the mock's own route table. */
export function specOperations(): SpecOperation[] {
  const file = fileURLToPath(new URL('../../specs/openapi.yaml', import.meta.url));
  const doc = parse(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, Json>> };
  const ops: SpecOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'put', 'post', 'delete'] as const) {
      const op = item[method];
      if (!op) continue;
      ops.push({
        operationId: op.operationId,
        method: method.toUpperCase() as SpecOperation['method'],
        path,
        clause: op['x-flis-clause'],
        deprecated: op.deprecated === true,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ''),
      });
    }
  }
  return ops;
}

export function fill(path: string, values: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? `unknown-${name}`));
}

/** A complete, valid offer write body; `tag` keeps ids of different tests apart. */
export function offerBody(tag: string, overrides: Record<string, unknown> = {}): Record<string, Json> {
  return {
    offer: {
      references: [`${tag}-ref-1`, `${tag}-ref-2`],
      offerVersion: '3',
      bookingId: `${tag}-booking`,
      carrierId: `${tag}-carrier`,
      quantity: 12.5,
      properties: { lane: 'north', ключ: 'значение' },
      noPayment: true,
      productSpatialRequirement: { pallets: 26 },
      productMassKg: 18000,
      metadata: { source: 'test' },
      priceTransport: 640.5,
      priceFaf: null,
      fromLocation: {
        addressText: 'Trafford Park, Manchester',
        latitude: 53.46,
        longitude: -2.32,
        locationName: 'TP',
        locationId: `${tag}-loc-a`,
        externalId: 'A',
        timezone: 'Europe/London',
        properties: null,
      },
      toLocation: {
        addressText: 'Tilbury',
        latitude: 51.46,
        longitude: 0.36,
        locationName: 'Tilbury',
        locationId: `${tag}-loc-b`,
        externalId: 'B',
        timezone: 'Europe/London',
        properties: { dock: '4' },
      },
      transportTimestamp: '2030-05-06T07:08:09+02:00',
      ...overrides,
    },
  };
}

/** The written fields of an offer write that must read back exactly (metadata excepted). */
export const WRITTEN_FIELDS = [
  'references',
  'offerVersion',
  'bookingId',
  'carrierId',
  'quantity',
  'properties',
  'noPayment',
  'productSpatialRequirement',
  'productMassKg',
  'priceTransport',
  'priceFaf',
  'fromLocation',
  'toLocation',
  'transportTimestamp',
] as const;

export async function firstId(mock: RunningMock, path: string): Promise<string> {
  const a = await call(mock, 'GET', path);
  const id = Array.isArray(a.body) ? a.body[0]?.id : undefined;
  if (typeof id !== 'string') throw new Error(`GET ${path} listed no record with an id (status ${a.status})`);
  return id;
}
