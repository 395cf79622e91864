/**
 * `flis cassette export-har`: a cassette file to a HAR 1.2 file, exchange by
 * exchange, so a cassette of any size converts in bounded memory (the whole
 * HAR is never one object or one string). The HAR goes to a temp file beside
 * OUT, renamed over it when complete: a failure leaves an existing OUT as it was.
 */
import { closeSync, mkdirSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileParts, parseExchange, readCassetteHeader, walkCassette } from './cassette-reader.ts';
import { ConfigError } from '../errors/flis-error.ts';
import { claimFile, reasonOf } from '../errors/owned-paths.ts';
import { harBase, harEntry } from './har.ts';
import { toolInfo } from './header.ts';

/** Written in pieces of about this size: few system calls, little held. */
const FLUSH_BYTES = 1024 * 1024;

/** JSON.stringify(value, null, 2), as it reads nested `depth` levels deep in the document. */
function indented(value: unknown, depth: number): string {
  return JSON.stringify(value, null, 2).replaceAll('\n', `\n${'  '.repeat(depth)}`);
}

/** The HAR exporter writes its creator near the top: a file that starts so is one flis exported. */
function isFlisHar(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(512);
    const text = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('utf8');
    const start = `{"log":{"version":"1.2","creator":{"name":${JSON.stringify(toolInfo().name)}`;
    return text.replace(/\s+/g, '').startsWith(start);
  } finally {
    closeSync(fd);
  }
}

/** Writes the HAR of `file` to `out`; returns the number of entries. Throws CassetteParseError for a bad cassette. */
export function exportHarFile(file: string, out: string): number {
  const header = readCassetteHeader(file);
  const base = harBase(header);
  // Before a byte is written: OUT must be a file flis may replace (absent, empty, or a HAR flis exported).
  claimFile(out, { flag: 'OUT.har', kind: 'a HAR file', isOurs: isFlisHar });
  mkdirSync(dirname(out), { recursive: true });
  const temp = join(dirname(out), `.${basename(out)}.${process.pid}.tmp`);
  let fd: number;
  try {
    fd = openSync(temp, 'w', 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    throw new ConfigError(`the HAR file cannot be written (${code}); give an OUT.har path in a folder you can write`, {
      file: out,
    });
  }
  let pending: string[] = [];
  let size = 0;
  const write = (text: string): void => {
    pending.push(text);
    size += text.length;
    if (size < FLUSH_BYTES) return;
    writeSync(fd, pending.join(''));
    pending = [];
    size = 0;
  };
  let entries = 0;
  try {
    write(`{\n  "log": {\n    "version": "1.2",\n    "creator": ${indented(toolInfo(), 2)},\n    "entries": [`);
    walkCassette(file, fileParts(file), {}, (doc) => {
      write(`${entries ? ',' : ''}\n      ${indented(harEntry(parseExchange(file, doc), base, header.recordedAt), 3)}`);
      entries += 1;
    });
    write(`${entries ? '\n    ' : ''}],\n    "_flis": ${indented({ header }, 2)}\n  }\n}\n`);
    writeSync(fd, pending.join(''));
  } catch (e) {
    closeSync(fd);
    unlinkSync(temp);
    throw e;
  }
  closeSync(fd);
  try {
    renameSync(temp, out);
  } catch (e) {
    unlinkSync(temp);
    throw new ConfigError(`the HAR file cannot be written (${reasonOf(e)}); give an OUT.har file name you can write`, {
      file: out,
    });
  }
  return entries;
}
