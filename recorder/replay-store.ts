/**
 * A cassette as replay holds it: one streaming pass builds the match index
 * (each exchange's request and where it is in the file), and an exchange is
 * read from the file by offset when it is asked for, through a cache bounded
 * in bytes. Memory stays low whatever the cassette's size; start-up reads
 * each request but never parses a response body.
 */
import { closeSync, openSync } from 'node:fs';
import { readRange } from './cassette-documents.ts';
import type { LocatedExchange } from './cassette-format.ts';
import { type CassetteTail, fileParts, parseExchange, parseRequestHead, walkCassette } from './cassette-reader.ts';
import { type IndexEntry, Matcher, type MatchOptions } from './match.ts';

/** Parsed exchanges kept for serving again, by the bytes of their response text. */
const CACHE_BYTES = 64 * 1024 * 1024;
const MAX_BY_OFFSET = 1024;

export interface ReplayIndex {
  matcher: Matcher;
  store: ExchangeStore;
  /** The highest seq recorded, so appended exchanges go on from it. */
  lastSeq: number;
  /** A torn last exchange or junk after the last document: ignored, and said so once. */
  tail?: CassetteTail | undefined;
}

/** Throws CassetteParseError for a cassette whose header or any request cannot be read. */
export function openReplayIndex(file: string, options: MatchOptions): ReplayIndex {
  const matcher = new Matcher(options);
  const same = new SameAnswers();
  let lastSeq = 0;
  const walked = walkCassette(file, fileParts(file), { allowTorn: true }, (doc) => {
    const head = parseRequestHead(file, doc);
    if (head.seq > lastSeq) lastSeq = head.seq;
    const { entry, previous } = matcher.add(head, doc);
    same.group(entry, previous, doc.bytes);
  });
  return { matcher, store: new ExchangeStore(file), lastSeq, tail: walked.tail };
}

const RESPONSE_LINE = Buffer.from('\nresponse:');
const TIMING_LINE = Buffer.from('\n  timing:');

/**
 * What replay serves of an exchange document, to compare with the ones already
 * parsed: its bytes from the `response:` line on, without the response's timing
 * block (which differs between otherwise identical answers and is never
 * served). Undefined when the document is not laid out as the recorder writes
 * it (then it is not cached).
 */
function servedBytes(bytes: Buffer): Buffer | undefined {
  const span = servedSpan(bytes);
  return span && servedCopy(span);
}

/** Where in a document what it serves lies: [start, end) without the timing block [cutFrom, cutTo). */
interface ServedSpan {
  bytes: Buffer;
  start: number;
  cutFrom: number;
  cutTo: number;
}

function servedSpan(bytes: Buffer): ServedSpan | undefined {
  const at = bytes.indexOf(RESPONSE_LINE);
  if (at < 0) return undefined;
  const timing = bytes.indexOf(TIMING_LINE, at);
  if (timing < 0) return { bytes, start: at, cutFrom: bytes.length, cutTo: bytes.length };
  let end = timing + TIMING_LINE.length;
  for (let nl = bytes.indexOf(10, end); nl >= 0 && nl + 1 < bytes.length; nl = bytes.indexOf(10, nl + 1)) {
    end = nl + 1;
    if (bytes[end] !== 0x20) break;
  }
  return { bytes, start: at, cutFrom: timing, cutTo: end };
}

/** What a span serves, as one buffer (a copy: the document's buffer is not kept). */
function servedCopy(s: ServedSpan): Buffer {
  return Buffer.concat([s.bytes.subarray(s.start, s.cutFrom), s.bytes.subarray(s.cutTo)]);
}

/** Whether a span serves exactly `served`, compared in place. */
function servesSame(s: ServedSpan, served: Buffer): boolean {
  const head = s.cutFrom - s.start;
  const tail = s.bytes.length - s.cutTo;
  return (
    head + tail === served.length &&
    s.bytes.compare(served, 0, head, s.start, s.cutFrom) === 0 &&
    s.bytes.compare(served, head, served.length, s.cutTo) === 0
  );
}

/**
 * While indexing: an exchange that serves the same bytes as the one recorded
 * before it for the same request (polling, a list read again) joins its group
 * (IndexEntry.same), so replay reads and parses a group once, not once per
 * exchange. Only the last served text of each request is held, within a byte
 * budget; past it, later requests are not grouped (and replay reads them as before).
 */
class SameAnswers {
  private readonly last = new Map<IndexEntry, Buffer>();
  private held = 0;

  group(entry: IndexEntry, previous: IndexEntry | undefined, bytes: Buffer): void {
    const span = servedSpan(bytes);
    if (!span) return;
    const before = previous && this.last.get(previous);
    if (previous && before && servesSame(span, before)) {
      previous.same ??= {};
      entry.same = previous.same;
      // The request's last entry is now this one; the text is the same.
      this.last.delete(previous);
      this.last.set(entry, before);
      return;
    }
    if (before) {
      this.last.delete(previous!);
      this.held -= before.length;
    }
    const size = span.cutFrom - span.start + span.bytes.length - span.cutTo;
    if (this.held + size > SAME_BUDGET) return;
    this.last.set(entry, servedCopy(span));
    this.held += size;
  }
}

/** The served text held per request while indexing, in all. */
const SAME_BUDGET = 32 * 1024 * 1024;

interface Parsed {
  served: Buffer;
  exchange: LocatedExchange;
}

export class ExchangeStore {
  private fd: number | undefined;
  /**
   * Parsed exchanges by what they serve (their document from the `response:`
   * line on: response, failure, violations), found by length and then compared
   * byte for byte. A recorded cassette repeats the same answers many times
   * under other seqs: an exchange that serves the same bytes as one already
   * parsed is served from that parse, with its own seq and line, and without
   * parsing its body again. Least recently used first, bounded in bytes.
   */
  private readonly cache = new Map<number, Parsed[]>();
  private readonly recency = new Set<Parsed>();
  private cached = 0;
  /** The exchanges served last, by offset (they share their parsed parts with `cache`, so this costs little). */
  private readonly byOffset = new Map<number, LocatedExchange>();
  /** A parsed exchange of each group of entries that serve the same bytes (IndexEntry.same), the last groups used. */
  private readonly bySame = new Map<object, LocatedExchange>();

  private rememberSame(group: object, exchange: LocatedExchange): void {
    if (this.bySame.size >= MAX_BY_OFFSET) this.bySame.delete(this.bySame.keys().next().value!);
    this.bySame.set(group, exchange);
  }

  constructor(readonly file: string) {}

  /** The exchange at `entry`, parsed and checked (CassetteParseError names its line). */
  read(entry: IndexEntry): LocatedExchange {
    // The last answer of a request repeats once its recorded ones are used up (polling): no read for it at all.
    const again = this.byOffset.get(entry.offset);
    if (again) return again;
    // One of its group was parsed already: the same answer under this entry's seq and line, and no read.
    const sibling = entry.same && this.bySame.get(entry.same);
    const exchange = sibling ? { ...sibling, seq: entry.seq, line: entry.line } : this.readFromFile(entry);
    if (entry.same && !sibling) this.rememberSame(entry.same, exchange);
    if (this.byOffset.size >= MAX_BY_OFFSET) this.byOffset.delete(this.byOffset.keys().next().value!);
    this.byOffset.set(entry.offset, exchange);
    return exchange;
  }

  private readFromFile(entry: IndexEntry): LocatedExchange {
    this.fd ??= openSync(this.file, 'r');
    const bytes = readRange(this.fd, entry.offset, entry.length);
    const served = servedBytes(bytes);
    const hit = served && this.cache.get(served.length)?.find((p) => p.served.equals(served));
    if (hit) {
      this.recency.delete(hit);
      this.recency.add(hit);
      return { ...hit.exchange, seq: entry.seq, line: entry.line };
    }
    const exchange = parseExchange(this.file, {
      kind: 'document',
      line: entry.docLine,
      offset: entry.offset,
      length: bytes.length,
      bytes,
      complete: true,
    });
    // A copy when it is a view: the document's buffer is not to be kept for it.
    if (served) this.remember({ served: served.buffer === bytes.buffer ? Buffer.from(served) : served, exchange });
    return exchange;
  }

  private remember(p: Parsed): void {
    if (p.served.length > CACHE_BYTES / 4) return;
    const same = this.cache.get(p.served.length);
    if (same) same.push(p);
    else this.cache.set(p.served.length, [p]);
    this.recency.add(p);
    this.cached += p.served.length;
    for (const old of this.recency) {
      if (this.cached <= CACHE_BYTES) break;
      this.recency.delete(old);
      const list = this.cache.get(old.served.length)!;
      list.splice(list.indexOf(old), 1);
      if (list.length === 0) this.cache.delete(old.served.length);
      this.cached -= old.served.length;
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.cache.clear();
    this.recency.clear();
    this.byOffset.clear();
    this.bySame.clear();
    this.cached = 0;
  }
}
