/**
 * Turning captured body bytes into a stored body and back. The rule is
 * byte-faithfulness: a body is stored as native JSON only when re-serialising
 * it gives back the exact bytes received, so replay never alters a body.
 */
import type { StoredBody } from './cassette-format.ts';

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

function asUtf8(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The text a JSON body arrived as (its canonical serialisation), kept so it need not be built again. */
const jsonTexts = new WeakMap<StoredBody, string>();

/** A JSON body's text: as it arrived when this process stored it, otherwise serialised afresh (the same bytes). */
export function jsonTextOf(body: StoredBody): string {
  return jsonTexts.get(body) ?? JSON.stringify(body.value);
}

/** Store `bytes`; `size`/`truncated` describe what arrived on the wire. */
export function encodeBody(
  bytes: Buffer,
  contentType: string | undefined,
  size = bytes.length,
  truncated = false,
): StoredBody | null {
  if (size === 0) return null;
  const text = truncated ? undefined : asUtf8(bytes);
  if (text !== undefined && isJsonType(contentType)) {
    const value = tryJson(text);
    if (value !== undefined && JSON.stringify(value) === text) {
      const body: StoredBody = { encoding: 'json', value, size, truncated };
      jsonTexts.set(body, text);
      return body;
    }
  }
  const kept = truncated ? asUtf8(bytes) : text;
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
