/**
 * A cassette split into its YAML documents, line by line, from a file read in
 * fixed-size chunks: the file is never one string (a 600 MB cassette is past
 * V8's string limit), and each document keeps its byte offset so replay can
 * read it again later. A document starts at a `---` line and ends at a `...`
 * line (recorder/cassette-yaml.ts writes both at column 0; every line of a
 * document's content is a key or indented, so neither marker can occur inside
 * one). Text outside documents is reported as stray, not guessed at.
 */
import { closeSync, constants, openSync, readSync } from 'node:fs';

/** One document: its lines from `---` to `...` (or to where the file or the next `---` cut it). */
export interface RawDocument {
  kind: 'document';
  /** 1-based line of the `---` line. */
  line: number;
  /** Byte offset of the `---` line, and the bytes up to and including the `...` line. */
  offset: number;
  length: number;
  bytes: Buffer;
  /**
   * The same bytes in the pieces they were read in, not joined: a reader that can take them piece by piece (the lint
   * of a large body, recorder/streamed-list.ts) never holds a copy of the whole. Empty once `bytes` joined them.
   */
  readonly chunks?: readonly Buffer[];
  /** Ended by a `...` line. False for a document the file (or a following `---`) cut short. */
  complete: boolean;
}

/** A line outside any document that is neither blank, a comment nor a directive. */
export interface StrayLine {
  kind: 'stray';
  line: number;
  offset: number;
  text: string;
  /** The line's first characters, for messages: set on a line longer than a chunk, whose `text` is made when read. */
  readonly head?: string;
}

/** What a message shows of a stray line: its first `n` characters, without decoding a long line whole. */
export function strayHead(s: StrayLine, n: number): string {
  return (s.head ?? s.text).slice(0, n);
}

export type CassettePart = RawDocument | StrayLine;

const CHUNK = 4 * 1024 * 1024;
const DASH = 0x2d;
const DOT = 0x2e;
const NL = 0x0a;

/** `---` or `...` alone on its line (trailing spaces, a comment or CR allowed); `---` may carry content after a space. */
function marker(buf: Buffer, start: number, end: number, ch: number): boolean {
  if (end - start < 3 || buf[start] !== ch || buf[start + 1] !== ch || buf[start + 2] !== ch) return false;
  if (end - start === 3) return true;
  const next = buf[start + 3];
  return next === 0x20 || next === 0x09 || next === 0x0d || next === NL;
}

function ignorable(text: string): boolean {
  const t = text.trim();
  return t === '' || t.startsWith('#') || t.startsWith('%');
}

/**
 * Splits byte chunks (in file order) into documents and stray lines. Blank,
 * comment and directive lines between documents are no part of either; they
 * go to `onIgnored` (the secret scan reads every line of a file).
 */
export function* splitDocuments(
  chunks: Iterable<Buffer>,
  onIgnored?: (line: StrayLine) => void,
): Generator<CassettePart> {
  let carry: Buffer = Buffer.alloc(0);
  /** Byte offset of `carry[0]` in the file. */
  let base = 0;
  let lineNo = 0;
  let doc: { line: number; offset: number; parts: Buffer[]; from: number } | undefined;
  const out: CassettePart[] = [];

  const finish = (complete: boolean, buf: Buffer, end: number): void => {
    const d = doc!;
    doc = undefined;
    d.parts.push(buf.subarray(d.from, end));
    out.push(
      d.parts.length === 1
        ? { kind: 'document', line: d.line, offset: d.offset, length: d.parts[0]!.length, bytes: d.parts[0]!, complete }
        : new PiecedDocument(d.line, d.offset, d.parts, complete),
    );
  };

  /** One line [start, end) of buf (end past its newline); only lines that can matter are looked at closely. */
  const line = (buf: Buffer, start: number, end: number): void => {
    lineNo += 1;
    const c = buf[start];
    if (c === DASH && marker(buf, start, end, DASH)) {
      if (doc) finish(false, buf, start);
      doc = { line: lineNo, offset: base + start, parts: [], from: start };
      return;
    }
    if (doc) {
      if (c === DOT && marker(buf, start, end, DOT)) finish(true, buf, end);
      return;
    }
    const text = buf.toString('utf8', start, end);
    const stray: StrayLine = { kind: 'stray', line: lineNo, offset: base + start, text: text.replace(/\r?\n$/, '') };
    if (!ignorable(text)) out.push(stray);
    else onIgnored?.(stray);
  };

  /** A stray line held in pieces (longer than a chunk): counted, and a StrayLine that decodes it when it is read. */
  const strayPieces = (pieces: Buffer[]): void => {
    lineNo += 1;
    const stray = new PiecedStray(lineNo, base, pieces);
    if (!stray.ignorable()) out.push(stray);
    else onIgnored?.(stray);
  };

  /** Chunks of a line longer than a chunk, joined once its newline comes: joining at every chunk is quadratic. */
  let waiting: Buffer[] = [];
  for (const chunk of chunks) {
    if (carry.length && chunk.indexOf(NL) < 0) {
      waiting.push(chunk);
      continue;
    }
    let buf = chunk;
    let start = 0;
    if (!doc && waiting.length && !couldBeMarker(carry, waiting)) {
      // A long line outside any document (a file of one line that is no cassette): kept in its pieces and decoded
      // only if read whole (the secret scan); joined and decoded here, it was held three times over.
      const end = chunk.indexOf(NL) + 1;
      strayPieces([carry, ...waiting, chunk.subarray(0, end)]);
      for (const w of waiting) base += w.length;
      base += carry.length;
      start = end;
    } else if (doc && waiting.length && !couldBeMarker(carry, waiting)) {
      // A long line inside a document that is no marker (a body on one line): only its end matters here, and its
      // pieces go to the document as they are. Joining them would copy the line, twice its size held at once.
      lineNo += 1;
      doc.parts.push(carry, ...waiting);
      doc.from = 0;
      for (const w of waiting) base += w.length;
      base += carry.length;
      start = chunk.indexOf(NL) + 1;
    } else if (carry.length) buf = Buffer.concat([carry, ...waiting, chunk]);
    waiting = [];
    for (let nl = buf.indexOf(NL, start); nl >= 0; nl = buf.indexOf(NL, start)) {
      line(buf, start, nl + 1);
      start = nl + 1;
    }
    // An open document keeps what it has of this buffer (which is never reused), and goes on in the next.
    if (doc) {
      doc.parts.push(buf.subarray(doc.from, start));
      doc.from = 0;
    }
    carry = buf.subarray(start);
    base += start;
    yield* out.splice(0);
  }
  if (waiting.length && !doc && !couldBeMarker(carry, waiting)) strayPieces([carry, ...waiting]);
  else {
    if (waiting.length) carry = Buffer.concat([carry, ...waiting]);
    if (carry.length) line(carry, 0, carry.length);
  }
  if (doc) finish(false, carry, carry.length);
  yield* out.splice(0);
}

/**
 * Whether a line starting with `carry` then `waiting` (its newline still to come) might be a `---` or `...` line: its
 * first four bytes say. Fewer than four before the chunk with its newline: it might (the caller joins them, cheaply).
 */
function couldBeMarker(carry: Buffer, waiting: Buffer[]): boolean {
  const parts = [carry];
  let n = carry.length;
  for (let i = 0; n < 4 && i < waiting.length; i++) {
    const w = waiting[i]!.subarray(0, 4 - n);
    parts.push(w);
    n += w.length;
  }
  if (n < 4) return true;
  const head = Buffer.concat(parts, 4);
  return marker(head, 0, 4, DASH) || marker(head, 0, 4, DOT);
}

/** Bytes a YAML reader takes as blank: space, tab, the line breaks, vertical tab and form feed. */
const BLANK = new Set([0x20, 0x09, 0x0a, 0x0d, 0x0b, 0x0c]);
/** The head a long stray line shows in messages. */
const HEAD_BYTES = 64 * 1024;

/** A stray line longer than a chunk, in its pieces: its text is decoded only when asked for, its head at once. */
class PiecedStray implements StrayLine {
  readonly kind = 'stray';
  readonly head: string;
  private decoded: string | undefined;

  constructor(
    readonly line: number,
    readonly offset: number,
    private readonly pieces: Buffer[],
  ) {
    const first = Buffer.concat(
      pieces,
      Math.min(
        HEAD_BYTES,
        pieces.reduce((n, p) => n + p.length, 0),
      ),
    );
    this.head = first.toString('utf8');
  }

  get text(): string {
    this.decoded ??= Buffer.concat(this.pieces)
      .toString('utf8')
      .replace(/\r?\n$/, '');
    return this.decoded;
  }

  /** As ignorable() decides for a short line, from the head; a head of blanks alone, by whether any byte is not. */
  ignorable(): boolean {
    if (this.head.trim() !== '') return ignorable(this.head);
    return this.pieces.every((p) => p.every((b) => BLANK.has(b)));
  }
}

/**
 * A document read in several pieces: they are joined only when its bytes are asked for, and then let go. A large
 * body held as pieces is held once; joined, it was held twice until the pieces were collected.
 */
class PiecedDocument implements RawDocument {
  readonly kind = 'document';
  readonly length: number;
  private pieces: Buffer[] | undefined;
  private joined: Buffer | undefined;

  constructor(
    readonly line: number,
    readonly offset: number,
    pieces: Buffer[],
    readonly complete: boolean,
  ) {
    this.pieces = pieces;
    this.length = pieces.reduce((n, p) => n + p.length, 0);
  }

  get bytes(): Buffer {
    if (!this.joined) {
      this.joined = Buffer.concat(this.pieces!, this.length);
      this.pieces = undefined;
    }
    return this.joined;
  }

  get chunks(): readonly Buffer[] {
    return this.pieces ?? [this.joined!];
  }
}

/** The file's bytes in chunks of a few MB, never all at once. */
export function* fileChunks(file: string): Generator<Buffer> {
  // Never blocking: a pipe put where the regular file was checked fails its first read rather than waiting for ever.
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(CHUNK);
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) return;
      yield n === CHUNK ? buf : buf.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

/** Bytes [offset, offset + length) of an open file. */
export function readRange(fd: number, offset: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, offset + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}
