/**
 * Exchange → YAML document. Keys are emitted in one fixed order (the order of
 * the object literals below); recorder/yaml-emit.ts never folds a line, so a
 * token can never be split across lines where a line-wise scan would miss it.
 */
import { jsonSourceOf } from './body.ts';
import { hiddenField } from './hidden-field.ts';
import { emitYaml, emitYamlPieces, FlowJson } from './yaml-emit.ts';
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

/** A body's flow text, made once per StoredBody (a repeated answer is the same one: recorder/body.ts storedBody). */
const flowTexts = hiddenField<StoredBody, FlowJson>('the flow text of a body');

function flowJsonOf(b: StoredBody): FlowJson {
  let flow = flowTexts.get(b);
  if (!flow) {
    const source = jsonSourceOf(b);
    flow = source ? new FlowJson(source.text, source) : new FlowJson(JSON.stringify(b.value));
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
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function exchangePlain(e: Exchange): Record<string, unknown> {
  return {
    seq: e.seq,
    startedAt: e.startedAt,
    operationId: e.operationId,
    request: requestPlain(e.request),
    response: responsePlain(e.response),
    ...(e.failure ? { failure: { kind: e.failure.kind, code: e.failure.code, message: e.failure.message } } : {}),
    ...(e.violations.length ? { violations: e.violations.map((v) => ({ ...v })) } : {}),
  };
}

export function exchangeDocument(e: Exchange): string {
  return documentText(exchangePlain(e));
}

/** exchangeDocument's text in pieces, each body written on one line a FlowJson of its own (yaml-emit.ts emitYamlPieces). */
export function exchangeDocumentPieces(e: Exchange): Array<string | FlowJson> {
  const pieces = emitYamlPieces(exchangePlain(e));
  pieces[0] = `---\n${pieces[0] as string}`;
  pieces[pieces.length - 1] = `${pieces[pieces.length - 1] as string}...\n`;
  return pieces;
}
