/**
 * Exchange → YAML document. Keys are emitted in one fixed order (the order of
 * the object literals below); recorder/yaml-emit.ts never folds a line, so a
 * token can never be split across lines where a line-wise scan would miss it.
 */
import { jsonSourceOf } from './body.ts';
import { hiddenField } from './hidden-field.ts';
import { emitEntry, emitYaml, FlowJson } from './yaml-emit.ts';
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
 * exchangeDocument's text in pieces, each body written on one line a FlowJson of its own. Written entry by entry in
 * exchangePlain's order rather than through the plain object: the recorder writes one per exchange, and building and
 * walking that object was half the emission's cost. A body's FlowJson ends the text piece it would stand in (the
 * lines before it joined once), rather than standing in the text as a mark that is split out again after. A
 * property test holds the joined pieces equal to exchangeDocument.
 */
export function exchangeDocumentPieces(e: Exchange): Array<string | FlowJson> {
  const w = new PieceLines();
  w.lines.push('---', `seq: ${yamlNumber(e.seq)}`);
  emitEntry('startedAt', e.startedAt, '', w.lines);
  emitEntry('operationId', e.operationId, '', w.lines);
  w.lines.push('request:');
  const q = e.request;
  emitEntry('method', q.method, '  ', w.lines);
  emitEntry('path', q.path, '  ', w.lines);
  emitEntry('query', sortedKeys(q.query), '  ', w.lines);
  emitEntry('headers', q.headers, '  ', w.lines);
  bodyEntries(q.body, w);
  w.lines.push('response:');
  const r = e.response;
  w.lines.push(`  status: ${yamlNumber(r.status)}`);
  emitEntry('headers', r.headers, '  ', w.lines);
  bodyEntries(r.body, w);
  w.lines.push(
    '  timing:',
    `    durationMs: ${yamlNumber(r.timing.durationMs)}`,
    `    firstByteMs: ${yamlNumber(r.timing.firstByteMs)}`,
  );
  if (e.failure || e.violations.length) {
    const rest = exchangeTail(e);
    for (const k of Object.keys(rest)) emitEntry(k, rest[k], '', w.lines);
  }
  w.lines.push('...');
  return w.done();
}

/** Lines of text, ended by a FlowJson where a body stands: the pieces of one document. */
class PieceLines {
  readonly pieces: Array<string | FlowJson> = [];
  lines: string[] = [];

  /** `head` (e.g. `  body:`) and the flow text after it, as emitEntry would write them on one line. */
  flow(head: string, f: FlowJson): void {
    this.lines.push(`${head} `);
    this.pieces.push(this.lines.join('\n'), f);
    // The next line starts after a line break, which the empty first line gives when joined.
    this.lines = [''];
  }

  done(): Array<string | FlowJson> {
    this.pieces.push(`${this.lines.join('\n')}\n`);
    return this.pieces;
  }
}

/** bodyFields' entries, at the indent of a request's or response's fields. */
function bodyEntries(b: StoredBody | null, w: PieceLines): void {
  if (!b) return;
  if (b.encoding === 'json' && typeof b.value === 'object' && b.value !== null) w.flow('  body:', flowJsonOf(b));
  else emitEntry('body', b.value, '  ', w.lines);
  emitEntry('bodyEncoding', b.encoding, '  ', w.lines);
  w.lines.push(`  bodySize: ${yamlNumber(b.size)}`);
  if (b.truncated) w.lines.push('  bodyTruncated: true');
}

/**
 * A number as the emitter writes it (yaml-emit.ts scalar). A timing is rounded to hundredths: spelt from its whole
 * hundredths, which is what String gives for it (the decimal of at most 15 digits nearest it is its shortest
 * spelling), without the double-to-shortest conversion, which cost more than the rest of the timing's line.
 */
function yamlNumber(n: number): string {
  const h = Math.round(n * 100);
  if (h > 0 && h < 1e15 && h / 100 === n) {
    const cents = h % 100;
    const whole = (h - cents) / 100;
    if (cents === 0) return `${whole}`;
    return cents % 10 === 0 ? `${whole}.${cents / 10}` : `${whole}.${cents < 10 ? '0' : ''}${cents}`;
  }
  return Number.isFinite(n) ? String(n) : 'null';
}
