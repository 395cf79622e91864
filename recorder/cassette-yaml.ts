/**
 * Exchange → YAML document. Keys are emitted in one fixed order (the order of
 * the object literals below); recorder/yaml-emit.ts never folds a line, so a
 * token can never be split across lines where a line-wise scan would miss it.
 */
import { jsonSourceOf } from './body.ts';
import { hiddenField } from './hidden-field.ts';
import { emitEntry, emitLinesInPieces, emitYaml, FlowJson } from './yaml-emit.ts';
import type { CassetteHeader, Exchange, RecordedRequest, RecordedResponse, StoredBody } from './cassette-format.ts';

/** One YAML document, starting with `---` and ending with the `...` end marker. */
export function documentText(value: unknown): string {
  return `---\n${emitYaml(value)}...\n`;
}

export function headerDocument(h: CassetteHeader): string {
  return documentText({
    format: h.format,
    kind: h.kind,
    recordedAt: h.recordedAt,
    deployment: h.deployment,
    upstream: h.upstream,
    specVersion: h.specVersion,
    tool: { name: h.tool.name, version: h.tool.version },
    ...(h.labels && Object.keys(h.labels).length ? { labels: h.labels } : {}),
  });
}

/**
 * The body is written as `body` plus encoding and size beside it. A JSON object
 * or array is its own JSON text on one line (YAML flow style, which any YAML
 * reader reads as the same value): cheap to write and to read, and `jq` reads it.
 */
function bodyFields(b: StoredBody | null): Record<string, unknown> {
  if (!b) return {};
  // A JSON scalar (a bare string or number) stays a YAML scalar.
  const collection = b.encoding === 'json' && typeof b.value === 'object' && b.value !== null;
  const body = collection ? flowJsonOf(b) : b.value;
  return { body, bodyEncoding: b.encoding, bodySize: b.size, ...(b.truncated ? { bodyTruncated: true } : {}) };
}

/**
 * A body's flow text, made once per StoredBody (a repeated answer is the same one: recorder/body.ts storedBody):
 * kept with the text it was made from, or beside a body read from a cassette.
 */
const flowTexts = hiddenField<StoredBody, FlowJson>('the flow text of a body');

function flowJsonOf(b: StoredBody): FlowJson {
  const source = jsonSourceOf(b);
  if (source) {
    source.flow ??= new FlowJson(source.text, source);
    return source.flow;
  }
  let flow = flowTexts.get(b);
  if (!flow) {
    flow = new FlowJson(JSON.stringify(b.value));
    flowTexts.set(b, flow);
  }
  return flow;
}

function requestPlain(r: RecordedRequest): Record<string, unknown> {
  return { method: r.method, path: r.path, query: sortedKeys(r.query), headers: r.headers, ...bodyFields(r.body) };
}

function responsePlain(r: RecordedResponse): Record<string, unknown> {
  return {
    status: r.status,
    headers: r.headers,
    ...bodyFields(r.body),
    timing: { durationMs: r.timing.durationMs, firstByteMs: r.timing.firstByteMs },
  };
}

function sortedKeys<T>(o: Record<string, T>): Record<string, T> {
  const keys = Object.keys(o);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i += 1) sorted = keys[i - 1]! < keys[i]!;
  if (sorted) return o;
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function exchangePlain(e: Exchange): Record<string, unknown> {
  return {
    seq: e.seq,
    startedAt: e.startedAt,
    operationId: e.operationId,
    request: requestPlain(e.request),
    response: responsePlain(e.response),
    ...exchangeTail(e),
  };
}

/** What an exchange document holds after its response, when there is any: the failure and the violations. */
function exchangeTail(e: Exchange): Record<string, unknown> {
  return {
    ...(e.failure ? { failure: { kind: e.failure.kind, code: e.failure.code, message: e.failure.message } } : {}),
    ...(e.violations.length ? { violations: e.violations.map((v) => ({ ...v })) } : {}),
  };
}

export function exchangeDocument(e: Exchange): string {
  return documentText(exchangePlain(e));
}

/**
 * exchangeDocument's text in pieces, each body written on one line a FlowJson of its own (yaml-emit.ts
 * emitLinesInPieces). Written entry by entry in exchangePlain's order rather than through the plain object: the
 * recorder writes one per exchange, and building and walking that object was half the emission's cost. A property
 * test holds the two texts equal.
 */
export function exchangeDocumentPieces(e: Exchange): Array<string | FlowJson> {
  return emitLinesInPieces((out) => {
    out.push('---');
    emitEntry('seq', e.seq, '', out);
    emitEntry('startedAt', e.startedAt, '', out);
    emitEntry('operationId', e.operationId, '', out);
    out.push('request:');
    const q = e.request;
    emitEntry('method', q.method, '  ', out);
    emitEntry('path', q.path, '  ', out);
    emitEntry('query', sortedKeys(q.query), '  ', out);
    emitEntry('headers', q.headers, '  ', out);
    bodyEntries(q.body, out);
    out.push('response:');
    const r = e.response;
    emitEntry('status', r.status, '  ', out);
    emitEntry('headers', r.headers, '  ', out);
    bodyEntries(r.body, out);
    out.push(
      '  timing:',
      `    durationMs: ${yamlNumber(r.timing.durationMs)}`,
      `    firstByteMs: ${yamlNumber(r.timing.firstByteMs)}`,
    );
    const rest = exchangeTail(e);
    for (const k of Object.keys(rest)) emitEntry(k, rest[k], '', out);
    out.push('...');
  });
}

/** bodyFields' entries, at the indent of a request's or response's fields. */
function bodyEntries(b: StoredBody | null, out: string[]): void {
  const fields = bodyFields(b);
  for (const k of Object.keys(fields)) emitEntry(k, fields[k], '  ', out);
}

/** A number as the emitter writes it (yaml-emit.ts scalar). */
function yamlNumber(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}
