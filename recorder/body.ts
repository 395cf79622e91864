/**
 * Turning captured body bytes into a stored body and back. The rule is
 * byte-faithfulness: a body is stored as native JSON only when re-serialising
 * it gives back the exact bytes received, so replay never alters a body.
 */
import { isAscii } from 'node:buffer';
import type { CappedValidationResult, SchemaName } from '../schemas/registry.ts';
import { isCanonicalJson } from './canonical-json.ts';
import { hiddenField } from './hidden-field.ts';
import type { StoredBody } from './cassette-format.ts';
import { STAGE_TIMES, stageEnd, stageStart } from './stage-times.ts';
import type { FlowJson } from './yaml-emit.ts';

/** Collects up to `cap` bytes of a streamed body while counting all of them. */
export class BodyCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  size = 0;
  constructor(private readonly cap: number) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.kept >= this.cap) return;
    const room = this.cap - this.kept;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(part);
    this.kept += part.length;
  }

  get truncated(): boolean {
    return this.size > this.kept;
  }

  bytes(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.kept);
  }
}

function isJsonType(contentType: string | undefined): boolean {
  return !contentType || /[/+]json\b/i.test(contentType);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function asUtf8(bytes: Buffer, ascii = isAscii(bytes)): string | undefined {
  // ASCII is valid UTF-8 that decodes byte for byte: checking it (SIMD) and copying is several times cheaper.
  if (ascii) return bytes.toString('latin1');
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The text a JSON body arrived as (its canonical serialisation) and the bytes it was decoded from (its UTF-8
 * encoding, exactly), kept so that neither need be made again; `ascii` when every byte is below 0x80.
 */
export interface JsonSource {
  text: string;
  bytes: Buffer;
  ascii: boolean;
  /**
   * What later stages derive from the body, kept here: fields of this plain object cost less to set than more
   * hidden properties of the body (each one an Object.defineProperty; four of them were 5 µs of a new answer).
   * The body's flow text (cassette-yaml.ts), and its verdicts by schema (contract-check.ts).
   */
  flow: FlowJson | undefined;
  verdicts: Map<SchemaName, CappedValidationResult> | undefined;
}

const jsonSources = hiddenField<StoredBody, JsonSource>('the JSON text and bytes a body arrived as');

/** A JSON body's text and bytes as they arrived, when this process stored it. */
export function jsonSourceOf(body: StoredBody): JsonSource | undefined {
  return jsonSources.get(body);
}

/**
 * Recently stored bodies by their exact bytes. A recorded client asks the same
 * things again and again (polling, the same list page), and the answers are
 * often byte for byte the same: storing one again (decoding, parsing, proving
 * it canonical) would give the same StoredBody, so the one already made is
 * handed out after a memcmp. Bounded in bytes; the StoredBody must not be
 * mutated by its users (none does: redaction makes a copy).
 */
class RecentBodies {
  private readonly byLength = new Map<number, Recent[]>();
  /** Every body held, oldest first. */
  private readonly order: Buffer[] = [];
  private held = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxBody: number,
  ) {}

  get(bytes: Buffer, json: boolean): Recent | undefined {
    const list = this.byLength.get(bytes.length);
    if (!list) return undefined;
    for (const e of list) if (e.json === json && e.bytes.equals(bytes)) return e;
    return undefined;
  }

  /** Remember `bytes` (a copy, or the bytes themselves; returned), with no body yet. */
  add(bytes: Buffer, json: boolean): Buffer | undefined {
    if (bytes.length > this.maxBody || bytes.length === 0) return undefined;
    const own = ownBytes(bytes);
    let list = this.byLength.get(own.length);
    if (!list) this.byLength.set(own.length, (list = []));
    // Answers that change in place (a timestamp, a counter) keep their length: a few of each length are compared, not all.
    if (list.length >= PER_LENGTH) this.forget(list.shift()!.bytes);
    list.push({ bytes: own, json, body: undefined });
    this.order.push(own);
    this.held += own.length;
    while (this.held > this.maxBytes) this.evict(this.order[0]!);
    return own;
  }

  /** Drop the entry of `bytes` from its length's list (if still there) and from the order. */
  private evict(bytes: Buffer): void {
    const list = this.byLength.get(bytes.length);
    const at = list ? list.findIndex((e) => e.bytes === bytes) : -1;
    if (at >= 0) list!.splice(at, 1);
    if (list?.length === 0) this.byLength.delete(bytes.length);
    this.forget(bytes);
  }

  private forget(bytes: Buffer): void {
    const at = this.order.indexOf(bytes);
    if (at < 0) return;
    this.order.splice(at, 1);
    this.held -= bytes.length;
  }
}

/**
 * Bytes that may be kept: a captured chunk is a view into the buffer of one socket read (undici, node:http), which
 * holds the head too; kept as it is when the body is most of it, else copied, so that the memo never keeps alive
 * much more than it counts. (Buffer.from of a 14 kB body, zero-filled then copied, was 3 µs of a new answer.)
 */
function ownBytes(bytes: Buffer): Buffer {
  if (bytes.length * 2 >= bytes.buffer.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

/**
 * A body's bytes seen recently, and what they were stored as once they came a second time. The first time, only
 * the bytes are kept (a copy, outside the heap): an answer that never comes again (a new one every time) then
 * leaves no parsed value behind to be promoted and collected in the old generation, which cost more than the
 * parse itself.
 */
interface Recent {
  bytes: Buffer;
  json: boolean;
  body: StoredBody | null | undefined;
}

/** Bodies of one length compared at most (the newest). */
const PER_LENGTH = 4;
// 4 MB of bodies (at most twice that in buffers: a body kept as a view holds its whole read), and their parsed
// values beside them (a few times that in heap).
const recent = new RecentBodies(4 * 1024 * 1024, 1024 * 1024);

/**
 * encodeBody for live traffic: a whole body (not cut at the cap) whose exact
 * bytes were stored a moment ago is the same StoredBody (same object, so what
 * was derived from it, e.g. its contract verdict, can be reused too).
 */
export function storedBody(
  bytes: Buffer,
  contentType: string | undefined,
  size = bytes.length,
  truncated = false,
): StoredBody | null {
  if (truncated || size !== bytes.length || size === 0) return encodeBody(bytes, contentType, size, truncated);
  const json = isJsonType(contentType);
  const t = stageStart();
  const seen = recent.get(bytes, json);
  if (STAGE_TIMES) stageEnd('byte check', t);
  if (seen?.body !== undefined) return seen.body;
  const own = seen?.bytes ?? recent.add(bytes, json) ?? bytes;
  const body = encodeBody(own, contentType, size, truncated);
  // The second time these bytes come, what they are stored as is kept for the next times.
  if (seen) seen.body = body;
  return body;
}

/** Store `bytes`; `size`/`truncated` describe what arrived on the wire. */
export function encodeBody(
  bytes: Buffer,
  contentType: string | undefined,
  size = bytes.length,
  truncated = false,
): StoredBody | null {
  if (size === 0) return null;
  let t = stageStart();
  const ascii = isAscii(bytes);
  const text = truncated ? undefined : asUtf8(bytes, ascii);
  if (text !== undefined && isJsonType(contentType)) {
    const value = tryJson(text);
    if (STAGE_TIMES) t = stageEnd('parse', t);
    const canonical = value !== undefined && isCanonicalJson(text, value, ascii ? bytes : undefined);
    if (STAGE_TIMES) stageEnd('byte check', t);
    if (canonical) {
      const body: StoredBody = { encoding: 'json', value, size, truncated };
      jsonSources.set(body, { text, bytes, ascii, flow: undefined, verdicts: undefined });
      return body;
    }
  }
  const kept = truncated ? asUtf8(bytes, ascii) : text;
  if (kept !== undefined && !/[\u0000-\u0008\u000e-\u001f]/.test(kept))
    return { encoding: 'text', value: kept, size, truncated };
  return { encoding: 'base64', value: bytes.toString('base64'), size, truncated };
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The bytes a stored body replays as. */
export function decodeBody(body: StoredBody | null): Buffer {
  if (!body) return Buffer.alloc(0);
  if (body.encoding === 'json') return Buffer.from(JSON.stringify(body.value));
  if (body.encoding === 'text') return Buffer.from(body.value as string, 'utf8');
  return Buffer.from(body.value as string, 'base64');
}

/** The JSON value of a body, when it has one (contract checks and matching use it). */
export function jsonValue(body: StoredBody | null): { ok: true; value: unknown } | { ok: false } {
  if (body?.encoding === 'json') return { ok: true, value: body.value };
  return { ok: false };
}
