/**
 * `flis cassette repair`: cuts a torn last exchange, or junk after the last
 * document, off a cassette. The kept bytes are copied to a temporary file
 * beside it, flushed, and renamed over the original, so at every moment the
 * file on disk is either the old one or the repaired one: never truncated in
 * place, never half-written.
 */
import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type CassetteTail, fileParts, walkCassette } from './cassette-reader.ts';

export interface RepairResult {
  file: string;
  /** Complete exchanges kept. */
  exchanges: number;
  /** What was cut off; undefined when there was nothing to cut (the file is left untouched). */
  cut?: CassetteTail;
  bytesCut: number;
}

const CHUNK = 4 * 1024 * 1024;

/** Throws CassetteParseError when the cassette is broken anywhere but its tail (that is not repair's to guess at). */
export function repairCassette(file: string): RepairResult {
  const walked = walkCassette(file, fileParts(file), { allowTorn: true }, () => {});
  if (!walked.tail) return { file, exchanges: walked.exchanges, bytesCut: 0 };
  const size = statSync(file).size;
  copyPrefixOver(file, walked.tail.offset);
  return { file, exchanges: walked.exchanges, cut: walked.tail, bytesCut: size - walked.tail.offset };
}

/** Replace `file` by its first `length` bytes: write a temporary copy, fsync it, rename it over `file`. */
function copyPrefixOver(file: string, length: number): void {
  const tmp = join(dirname(file), `.${basename(file)}.repair-${process.pid}.tmp`);
  const from = openSync(file, 'r');
  let to: number | undefined;
  try {
    to = openSync(tmp, 'wx', statSync(file).mode & 0o777);
    const buf = Buffer.allocUnsafe(CHUNK);
    for (let done = 0; done < length; ) {
      const n = readSync(from, buf, 0, Math.min(CHUNK, length - done), done);
      if (n === 0) break;
      for (let w = 0; w < n; ) w += writeSync(to, buf, w, n - w);
      done += n;
    }
    fsyncSync(to);
    closeSync(to);
    to = undefined;
    renameSync(tmp, file);
  } catch (e) {
    if (to !== undefined) closeSync(to);
    rmSync(tmp, { force: true });
    throw e;
  } finally {
    closeSync(from);
  }
  // The rename itself is durable once the directory is flushed (not every platform allows it: best effort).
  try {
    const dir = openSync(dirname(file), 'r');
    fsyncSync(dir);
    closeSync(dir);
  } catch {}
}
