/**
 * Appends exchanges to a cassette, one complete YAML document each, on a file
 * opened for appending. With `batch`, documents are gathered until flush() (the
 * recorder's write queue flushes once per event-loop turn) and written in one
 * write(2); otherwise each is written at once. Either way a document is handed
 * to the kernel whole, and writes are synchronous on one thread, so concurrent
 * exchanges never interleave and a crash can tear only the last document.
 */
import { closeSync, existsSync, fdatasyncSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CassetteHeader, Exchange } from './cassette-format.ts';
import { exchangeDocument, headerDocument } from './cassette-yaml.ts';
import { CassetteSecretError } from './errors.ts';
import { findSecret, type SecretForm } from './secrets.ts';

export interface WriterOptions {
  /** 'truncate' starts the file afresh with `header`; 'append' keeps it (writing `header` only if it is new or empty). */
  mode: 'truncate' | 'append';
  header: CassetteHeader;
  /** Sequence number of the first exchange written. */
  firstSeq?: number;
  /** fdatasync after each exchange: survives power loss too, at a cost in throughput. */
  durable?: boolean;
  /** Gather documents until flush() instead of writing each at once. */
  batch?: boolean;
}

/**
 * Redaction deferred to the written text: given the exchange and its YAML,
 * returns a redacted exchange, or undefined when there is nothing to redact.
 * Walking a large JSON body costs more than searching the text it becomes.
 */
export type LateRedaction = (e: Exchange, text: string) => Exchange | undefined;

export class CassetteWriter {
  private readonly fd: number;
  private seq: number;
  private closed = false;
  private pending: Buffer[] = [];
  written = 0;

  constructor(
    readonly file: string,
    private readonly options: WriterOptions,
  ) {
    mkdirSync(dirname(file), { recursive: true });
    const fresh = options.mode === 'truncate' || !existsSync(file) || statSync(file).size === 0;
    this.fd = openSync(file, options.mode === 'truncate' ? 'w' : 'a');
    this.seq = options.firstSeq ?? 1;
    if (fresh) this.writeText(headerDocument(options.header));
  }

  /**
   * Write one exchange (its seq is assigned here, in completion order), after
   * `redactLate` has had its look at the text. The last guard: if any form of a known secret appears in the text about to be
   * written, nothing is written and CassetteSecretError says which secret.
   */
  append(exchange: Omit<Exchange, 'seq'>, guard: SecretForm[], redactLate?: LateRedaction): Exchange {
    let full: Exchange = { ...exchange, seq: this.seq };
    let text = exchangeDocument(full);
    const redacted = redactLate?.(full, text);
    if (redacted) {
      full = redacted;
      text = exchangeDocument(full);
    }
    const leak = findSecret(text, guard);
    if (leak)
      throw new CassetteSecretError(
        `exchange ${exchange.request.method} ${exchange.request.path} to ${this.file}`,
        leak.label,
        leak.form,
      );
    if (this.options.batch) this.pending.push(Buffer.from(text, 'utf8'));
    else this.writeText(text);
    this.seq += 1;
    this.written += 1;
    return full;
  }

  /** Write the gathered documents in one write. */
  flush(): void {
    if (this.pending.length === 0) return;
    const buf = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.writeBytes(buf);
  }

  private writeText(text: string): void {
    this.writeBytes(Buffer.from(text, 'utf8'));
  }

  private writeBytes(buf: Buffer): void {
    let off = 0;
    while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
    if (this.options.durable) fdatasyncSync(this.fd);
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    closeSync(this.fd);
  }
}

/** Write a whole cassette at once (HAR import), through the same guard as live recording. */
export function writeCassette(
  file: string,
  header: CassetteHeader,
  exchanges: Array<Omit<Exchange, 'seq'>>,
  guard: SecretForm[],
): number {
  const w = new CassetteWriter(file, { mode: 'truncate', header });
  try {
    for (const e of exchanges) w.append(e, guard);
  } finally {
    w.close();
  }
  return w.written;
}
