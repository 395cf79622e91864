/**
 * Appends exchanges to a cassette, one complete YAML document each, on a file
 * opened for appending. With `batch`, documents are gathered until flush() (the
 * recorder's write queue flushes once per event-loop turn) and written in one
 * write(2); otherwise each is written at once. Either way a document is handed
 * to the kernel whole, and writes are synchronous on one thread, so concurrent
 * exchanges never interleave and a crash can tear only the last document.
 *
 * One writer per cassette (recorder/cassette-lock.ts). A new cassette, or one
 * that replaces an existing file, starts in a temp file beside it that is
 * renamed over the old one (atomic): a reader sees the old file whole or the
 * new one, never a mix. A `staged` writer renames only on commit(), so the
 * old file stays untouched until the recorder is listening.
 */
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  openSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  writevSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type CassetteLock, lockCassette } from './cassette-lock.ts';
import { cassetteFileError, checkWritableCassette } from './cassette-path.ts';
import type { CassetteHeader, Exchange } from './cassette-format.ts';
import { exchangeDocumentPieces, headerDocument } from './cassette-yaml.ts';
import { CassetteSecretError } from './errors.ts';
import { findSecretInPieces, type SecretGuard } from './secrets.ts';
import { STAGE_TIMES, stageEnd, stageStart } from './stage-times.ts';
import type { FlowJson } from './yaml-emit.ts';

export interface WriterOptions {
  /** 'truncate' starts the file afresh with `header`; 'append' keeps it (writing `header` only if it is new or empty). */
  mode: 'truncate' | 'append';
  header: CassetteHeader;
  /** Sequence number of the first exchange written. */
  firstSeq?: number;
  /** fdatasync after each exchange: survives power loss too, at a cost in throughput. */
  durable?: boolean;
  /** Keep a new or replacing file in its temp file until commit() (default: commit at once). */
  staged?: boolean;
  /** Gather documents until flush() instead of writing each at once. */
  batch?: boolean;
}

/**
 * Redaction deferred to the written text: given the exchange and whether a
 * secret shows in its YAML, returns a redacted exchange, or undefined when
 * there is nothing to redact. Walking a large JSON body costs more than
 * searching the text it becomes.
 */
export type LateRedaction = (e: Exchange, secretInText: boolean) => Exchange | undefined;

export class CassetteWriter {
  private readonly fd: number;
  private readonly lock: CassetteLock;
  /** The temp file a new or replacing cassette is written to until commit(). */
  private temp: string | undefined;
  private seq: number;
  private closed = false;
  private pending: Buffer[] = [];
  written = 0;

  /** Throws ConfigError for a path that cannot be written, CassetteLockedError when another process writes it. */
  constructor(
    readonly file: string,
    private readonly options: WriterOptions,
  ) {
    checkWritableCassette(file);
    this.lock = lockCassette(file);
    this.seq = options.firstSeq ?? 1;
    try {
      removeLeftTemps(file);
      const fresh = options.mode === 'truncate' || !existsSync(file) || statSync(file).size === 0;
      if (fresh) {
        this.temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
        this.fd = openSync(this.temp, 'w', 0o644);
        this.writeText(headerDocument(options.header));
        if (!options.staged) this.commit();
      } else this.fd = openSync(file, 'a');
    } catch (e) {
      this.discardTemp();
      this.lock.release();
      throw cassetteFileError(file, e);
    }
  }

  /** Put a staged new file in place of the old one, atomically; appending goes on to the same file. */
  commit(): void {
    if (!this.temp) return;
    fdatasyncSync(this.fd);
    renameSync(this.temp, this.file);
    this.temp = undefined;
  }

  /** Give up before commit: the old file stays as it was, the temp file goes, the lock is released. */
  abort(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    this.discardTemp();
    this.lock.release();
  }

  private discardTemp(): void {
    if (!this.temp) return;
    try {
      unlinkSync(this.temp);
    } catch {
      // Never created.
    }
    this.temp = undefined;
  }

  /**
   * Write one exchange (its seq is assigned here, in completion order), after
   * `redactLate` has had its say on what the text shows. The last guard: if any form of a known secret appears in the text about to be
   * written, nothing is written and CassetteSecretError says which secret.
   */
  append(exchange: Omit<Exchange, 'seq'>, guard: SecretGuard, redactLate?: LateRedaction): Exchange {
    let full: Exchange = { ...exchange, seq: this.seq };
    let t = stageStart();
    let pieces = exchangeDocumentPieces(full);
    if (STAGE_TIMES) t = stageEnd('emission', t);
    let leak = findSecretInPieces(pieces, guard);
    const redacted = redactLate?.(full, leak !== undefined);
    if (redacted) {
      full = redacted;
      pieces = exchangeDocumentPieces(full);
      leak = findSecretInPieces(pieces, guard);
    }
    if (STAGE_TIMES) t = stageEnd('redaction and scan', t);
    if (leak)
      throw new CassetteSecretError(
        `exchange ${exchange.request.method} ${exchange.request.path} to ${this.file}`,
        leak.label,
        leak.form,
      );
    const bytes = pieces.map(bytesOf);
    if (this.options.batch) this.pending.push(...bytes);
    else this.writeBytes(bytes.length === 1 ? bytes[0]! : Buffer.concat(bytes));
    if (STAGE_TIMES) stageEnd('write', t);
    this.seq += 1;
    this.written += 1;
    return full;
  }

  /** Write the gathered documents in one write. */
  flush(): void {
    if (this.pending.length === 0) return;
    const t = stageStart();
    const bufs = this.pending;
    this.pending = [];
    // One writev(2) of the gathered pieces, as one write of them joined would be, without joining them first.
    if (bufs.length > 1 && bufs.length <= MAX_IOV) this.writeVector(bufs);
    else this.writeBytes(bufs.length === 1 ? bufs[0]! : Buffer.concat(bufs));
    if (STAGE_TIMES) stageEnd('write', t);
  }

  private writeVector(bufs: Buffer[]): void {
    let total = 0;
    for (const b of bufs) total += b.length;
    const done = writevSync(this.fd, bufs);
    // A short write (rare on a file) goes on as writeBytes does, from where it stopped.
    if (done < total) this.writeBytes(Buffer.concat(bufs).subarray(done));
    else if (this.options.durable) fdatasyncSync(this.fd);
  }

  private writeText(text: string): void {
    this.writeBytes(Buffer.from(text, 'utf8'));
  }

  private writeBytes(buf: Buffer): void {
    let off = 0;
    while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
    if (this.options.durable) fdatasyncSync(this.fd);
  }

  /** Commits a staged file (everything appended is complete), then closes and releases the lock. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.commit();
    this.closed = true;
    closeSync(this.fd);
    this.lock.release();
  }
}

/** Buffers per writev(2) at most (IOV_MAX is 1024 on Linux); more are joined first. */
const MAX_IOV = 1024;

/** A body's flow text is encoded once, however many times it is written (yaml-emit.ts emitYamlPieces). */
function bytesOf(piece: string | FlowJson): Buffer {
  if (typeof piece === 'string') return Buffer.from(piece, 'utf8');
  piece.bytes ??= Buffer.from(piece.text, 'utf8');
  return piece.bytes;
}

/** Temp files of writers that crashed before their commit: only the lock's holder makes them, and it is us now. */
function removeLeftTemps(file: string): void {
  const pattern = new RegExp(`^\\.${basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\\d+\\.tmp$`);
  for (const name of readdirSync(dirname(file))) if (pattern.test(name)) unlinkSync(join(dirname(file), name));
}

/**
 * Write a whole cassette at once (HAR import), through the same guard as live
 * recording. All or nothing: a refused exchange leaves an existing file as it was.
 */
export function writeCassette(
  file: string,
  header: CassetteHeader,
  exchanges: Array<Omit<Exchange, 'seq'>>,
  guard: SecretGuard,
): number {
  const w = new CassetteWriter(file, { mode: 'truncate', header, staged: true });
  try {
    for (const e of exchanges) w.append(e, guard);
  } catch (e) {
    w.abort();
    throw e;
  }
  w.close();
  return w.written;
}
