/**
 * A large cassette document read without parsing its bodies whole: each body's one line (as the recorder writes
 * it) is cut out of the document's bytes where they lie, the rest of the document (a few hundred bytes) is read as
 * usual with a stand-in in its place, and the body is handed on without being copied: a JSON list as a
 * StreamedJsonList over the cut-out bytes, judged item by item; a long text or base64 scalar as its length only
 * (the contract check reads no more of such a body than that it is there). Lines keep their numbers: the body was
 * one line and its stand-in is one line.
 */
import type { RawDocument } from './cassette-documents.ts';
import { StreamedJsonList } from './streamed-list.ts';

const NL = 0x0a;
/** The emitter's body line under `request:` or `response:`: two spaces, the key, and the value on the same line. */
const BODY_LINE = '  body: ';
const LIST_STAND_IN = Buffer.from('[]');
const SCALAR_STAND_IN = Buffer.from('""');
/** A scalar body shorter than this is read with the rest of the document: cutting it out would save nothing. */
const LONG_SCALAR = 64 * 1024;

/** A body cut out of its document: a JSON list to read item by item, or a long scalar known by its length. */
export type CutBody = { kind: 'list'; list: StreamedJsonList } | { kind: 'scalar'; bytes: number };

export interface SplitDocument {
  /** The document with `[]` or `""` where its bodies were. */
  rest: RawDocument;
  request?: CutBody;
  response?: CutBody;
}

/** The document's bodies cut out, when one is a one-line list or a long scalar; else undefined (read it whole). */
export function splitBodies(doc: RawDocument): SplitDocument | undefined {
  const bytes = new Pieces(doc.chunks ?? [doc.bytes]);
  const lines = bodyLines(bytes);
  if (lines.length === 0) return undefined;
  const kept: Buffer[] = [];
  const out: Omit<SplitDocument, 'rest'> = {};
  let from = 0;
  for (const at of lines) {
    kept.push(bytes.copy(from, at.start), at.list ? LIST_STAND_IN : SCALAR_STAND_IN);
    from = at.end;
    out[at.side] = at.list
      ? { kind: 'list', list: new StreamedJsonList(bytes.slice(at.start, at.end)) }
      : { kind: 'scalar', bytes: at.end - at.start };
  }
  kept.push(bytes.copy(from, bytes.length));
  const rest = Buffer.concat(kept);
  return {
    rest: {
      kind: 'document',
      line: doc.line,
      offset: doc.offset,
      length: rest.length,
      bytes: rest,
      complete: doc.complete,
    },
    ...out,
  };
}

interface BodyLine {
  side: 'request' | 'response';
  /** Where the value starts and ends (before its newline). */
  start: number;
  end: number;
  list: boolean;
}

/**
 * The body lines worth cutting out: a flow list (`  body: [`), or a long scalar (LONG_SCALAR bytes or more) that the
 * whole read would take as it is: base64 text written plain, or a double-quoted string whose escapes are all YAML's.
 * Anything else (a flow mapping, a block scalar, an anchor, a broken escape) is left to the whole read, which names
 * its line when it is wrong.
 */
function bodyLines(bytes: Pieces): BodyLine[] {
  const found: BodyLine[] = [];
  let side: BodyLine['side'] | undefined;
  for (let s = 0; s < bytes.length; ) {
    const nl = bytes.indexOf(NL, s);
    const end = nl < 0 ? bytes.length : nl;
    const head = bytes.copy(s, Math.min(end, s + BODY_LINE.length + 1)).toString('latin1');
    if (!head.startsWith(' ')) {
      const key = bytes.copy(s, Math.min(end, s + 10)).toString('latin1');
      side = key === 'request:' ? 'request' : key === 'response:' ? 'response' : undefined;
    } else if (side && head.startsWith(BODY_LINE) && head.length > BODY_LINE.length) {
      const start = s + BODY_LINE.length;
      const list = head[BODY_LINE.length] === '[';
      if (list || (end - start >= LONG_SCALAR && plainScalar(bytes.slice(start, end))))
        found.push({ side, start, end, list });
    }
    s = end + 1;
  }
  return found;
}

const BASE64 = new Uint8Array(256);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=') BASE64[c.charCodeAt(0)] = 1;
/** What may follow a backslash in a YAML double-quoted scalar, and how many hex digits then. */
const ESCAPES: Record<number, number> = Object.fromEntries(
  [...'0abt\tnvfre "/\\N_LP']
    .map((c) => [c.charCodeAt(0), 0])
    .concat([
      [0x78, 2],
      [0x75, 4],
      [0x55, 8],
    ]),
);
const HEX = /^[0-9A-Fa-f]$/;

/** Whether the value is base64 written plain, or a double-quoted string the whole read would take as it is. */
function plainScalar(pieces: Buffer[]): boolean {
  const first = pieces[0]?.[0];
  if (first === undefined) return false;
  if (first !== 0x22) return pieces.every((p) => p.every((b) => BASE64[b] === 1));
  let hex = 0;
  let escaped = false;
  let closed = false;
  for (const p of pieces)
    for (let i = p === pieces[0] ? 1 : 0; i < p.length; i++) {
      const b = p[i]!;
      if (closed || b < 0x20 || b === 0x7f) return false;
      if (hex > 0) {
        if (!HEX.test(String.fromCharCode(b))) return false;
        hex -= 1;
      } else if (escaped) {
        const digits = ESCAPES[b];
        if (digits === undefined) return false;
        hex = digits;
        escaped = false;
      } else if (b === 0x5c) escaped = true;
      else if (b === 0x22) closed = true;
    }
  return closed && !escaped && hex === 0;
}

/** Bytes held as pieces, addressed as one run: searched and sliced without joining them. */
class Pieces {
  readonly length: number;
  private readonly starts: number[] = [];

  constructor(private readonly pieces: readonly Buffer[]) {
    let n = 0;
    for (const p of pieces) {
      this.starts.push(n);
      n += p.length;
    }
    this.length = n;
  }

  indexOf(byte: number, from: number): number {
    for (let k = 0; k < this.pieces.length; k++) {
      const start = this.starts[k]!;
      const piece = this.pieces[k]!;
      if (start + piece.length <= from) continue;
      const i = piece.indexOf(byte, Math.max(0, from - start));
      if (i >= 0) return start + i;
    }
    return -1;
  }

  /** The bytes [from, to) as views into the pieces. */
  slice(from: number, to: number): Buffer[] {
    const out: Buffer[] = [];
    for (let k = 0; k < this.pieces.length; k++) {
      const start = this.starts[k]!;
      const piece = this.pieces[k]!;
      const a = Math.max(from, start);
      const b = Math.min(to, start + piece.length);
      if (a < b) out.push(piece.subarray(a - start, b - start));
    }
    return out;
  }

  /** The bytes [from, to) copied into one buffer (for the short parts of a document). */
  copy(from: number, to: number): Buffer {
    return Buffer.concat(this.slice(from, to));
  }
}
