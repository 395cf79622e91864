/**
 * The contract as data: the operations of specs/openapi.yaml, read once.
 * Suites, the recorder and the reports enumerate operations from here, so the
 * OpenAPI document stays the one list of what the service promises.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { SchemaName } from '../schemas/registry.ts';
import { CACHE_DIR } from './tool-files.ts';

export const SPEC_DIR = dirname(fileURLToPath(import.meta.url));
export const OPENAPI_FILE = join(SPEC_DIR, 'openapi.yaml');

export type HttpMethod = 'get' | 'put' | 'post' | 'delete';

export interface QueryParam {
  name: string;
  type: 'string' | 'integer' | 'boolean';
  format?: 'date' | 'date-time';
}

export interface Operation {
  operationId: string;
  method: HttpMethod;
  /** Path template relative to the base URL, e.g. "/offers/{offerId}". */
  path: string;
  tag: string;
  /** The spec clause that documents the operation: "spec 4.1", "spec 4.2" or "spec 4.3". */
  clause: string;
  /** True for 4.1 and 4.2, whose bodies the spec documents; 4.3 lists method and path only. */
  documented: boolean;
  deprecated: boolean;
  pathParams: string[];
  query: QueryParam[];
  requestSchema?: SchemaName;
  responseSchema?: SchemaName;
}

// biome-ignore lint/suspicious/noExplicitAny: the parsed OpenAPI document is walked dynamically; what leaves this file is typed (Operation).
type Json = Record<string, any>;

function schemaNameOf(schema: Json | undefined): SchemaName | undefined {
  const ref = schema?.$ref as string | undefined;
  const m = ref?.match(/([\w-]+)\.schema\.json$/);
  return m ? (m[1] as SchemaName) : undefined;
}

function withSchema<K extends 'requestSchema' | 'responseSchema'>(key: K, name: SchemaName | undefined) {
  return name ? ({ [key]: name } as { [P in K]: SchemaName }) : {};
}

function toOperation(path: string, method: HttpMethod, op: Json): Operation {
  const params = (op.parameters ?? []) as Json[];
  const ok = op.responses?.['2XX']?.content?.['application/json']?.schema as Json | undefined;
  const req = op.requestBody?.content?.['application/json']?.schema as Json | undefined;
  return {
    operationId: op.operationId,
    method,
    path,
    tag: op.tags[0],
    clause: op['x-flis-clause'],
    documented: op['x-flis-clause'] !== 'spec 4.3',
    deprecated: op.deprecated === true,
    pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
    query: params
      .filter((p) => p.in === 'query')
      .map((p) => ({ name: p.name, type: p.schema.type, ...(p.schema.format ? { format: p.schema.format } : {}) })),
    ...withSchema('requestSchema', schemaNameOf(req)),
    ...withSchema('responseSchema', schemaNameOf(ok)),
  };
}

let cached: { doc: Json; operations: Operation[] } | undefined;

/**
 * specs/openapi.yaml, parsed: from the cache (CACHE_DIR) when one was made from these very bytes, else parsed and
 * cached. Every Playwright worker reads the contract: parsing its YAML took ~250 ms each time, reading the JSON ~2 ms.
 */
function parsedOpenapi(): Json {
  const text = readFileSync(OPENAPI_FILE, 'utf8');
  const name = `openapi-${createHash('sha256').update(text).digest('hex').slice(0, 32)}.json`;
  const file = join(CACHE_DIR, name);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Json;
  } catch {
    // No cache yet, or one cut short: parse the YAML.
  }
  const doc = parse(text) as Json;
  saveCache(file, name, doc);
  return doc;
}

/** Atomically (temp file, then rename), replacing the caches of earlier versions; a cache that cannot be written is only a cost. */
function saveCache(file: string, name: string, doc: Json): void {
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(doc));
    renameSync(temp, file);
    for (const old of readdirSync(CACHE_DIR))
      if (/^openapi-[0-9a-f]{32}\.json$/.test(old) && old !== name) unlinkSync(join(CACHE_DIR, old));
  } catch {
    // A read-only install: every process parses the YAML.
  }
}

function load(): { doc: Json; operations: Operation[] } {
  if (cached) return cached;
  const doc = parsedOpenapi();
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const method of ['get', 'put', 'post', 'delete'] as const) {
      if (item[method]) operations.push(toOperation(path, method, item[method]));
    }
  }
  cached = { doc, operations };
  return cached;
}

export function openapiDocument(): Json {
  return load().doc;
}

export function operations(): Operation[] {
  return load().operations;
}

export function operationById(operationId: string): Operation {
  const op = operations().find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation '${operationId}' in ${OPENAPI_FILE}`);
  return op;
}

/** The interface version of spec 9 rule 1, as the document states it. */
export function specVersion(): string {
  return openapiDocument().info.version as string;
}

interface CompiledTemplate {
  op: Operation;
  regex: RegExp;
  literals: number;
}

let templatesByMethod: Map<string, CompiledTemplate[]> | undefined;

/** Path templates compiled once, most literal segments first: the recorder matches on its hot path. */
function compileTemplates(): Map<string, CompiledTemplate[]> {
  const out = new Map<string, CompiledTemplate[]>();
  for (const op of operations()) {
    const body = op.path
      .split('/')
      .map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const literals = op.path.split('/').filter((s) => s && !s.startsWith('{')).length;
    const list = out.get(op.method) ?? [];
    list.push({ op, regex: new RegExp(`^${body}/?$`), literals });
    out.set(op.method, list);
  }
  // A literal segment beats a template segment (/customers/bulk is not /customers/{customerId}).
  for (const list of out.values()) list.sort((a, b) => b.literals - a.literals);
  return out;
}

/** The operation a concrete request path belongs to ("/offers/abc" → getOffer), or undefined. */
export function matchOperation(method: string, path: string): Operation | undefined {
  templatesByMethod ??= compileTemplates();
  return templatesByMethod.get(method.toLowerCase())?.find((c) => c.regex.test(path))?.op;
}

/** Fill a path template with values: fillPath("/offers/{offerId}", {offerId: "x"}) → "/offers/x". */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? `missing-${name}`));
}
