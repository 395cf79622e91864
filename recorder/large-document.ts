/**
 * A large cassette document read without parsing its response body whole: the
 * body's one line (a JSON list, as the recorder writes it) is cut out of the
 * document's bytes where they lie, the rest of the document (a few hundred
 * bytes) is read as usual with an empty list in its place, and the list is
 * handed on as a StreamedJsonList over the cut-out bytes, never copied. Lines
 * keep their numbers: the body was one line and its stand-in is one line.
 */
import type { RawDocument } from './cassette-documents.ts';
import { StreamedJsonList } from './streamed-list.ts';

const NL = 0x0a;
/** The emitter's response body line: two spaces, the key, and a flow list on the same line. */
const BODY_LINE = '  body: [';
const STAND_IN = Buffer.from('[]');

export interface SplitDocument {
  /** The document with `[]` for its response body. */
  rest: RawDocument;
  body: StreamedJsonList;
}

/** The document's response body cut out, when it is a one-line list; else undefined (read the document whole). */
export function splitResponseBody(doc: RawDocument): SplitDocument | undefined {
  const bytes = new Pieces(doc.chunks ?? [doc.bytes]);
  const at = responseBodyLine(bytes);
  if (!at) return undefined;
  const rest = Buffer.concat([bytes.copy(0, at.start), STAND_IN, bytes.copy(at.end, bytes.length)]);
  return {
    rest: {
      kind: 'document',
      line: doc.line,
      offset: doc.offset,
      length: rest.length,
      bytes: rest,
      complete: doc.complete,
    },
    body: new StreamedJsonList(bytes.slice(at.start, at.end)),
  };
}

/** Where the value of the `  body: [` line under `response:` starts and ends (before its newline). */
function responseBodyLine(bytes: Pieces): { start: number; end: number } | undefined {
  let inResponse = false;
  for (let s = 0; s < bytes.length; ) {
    const nl = bytes.indexOf(NL, s);
    const end = nl < 0 ? bytes.length : nl;
    const head = bytes.copy(s, Math.min(end, s + BODY_LINE.length)).toString('latin1');
    if (!head.startsWith(' ')) inResponse = end - s === 'response:'.length && head === 'response:';
    else if (inResponse && head === BODY_LINE) return { start: s + BODY_LINE.length - 1, end };
    s = end + 1;
  }
  return undefined;
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
