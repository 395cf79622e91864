/**
 * The one rule for reading a file a user names (a cassette, an OpenAPI document, a HAR, a partner profile, a CA
 * file, a shard's report): it must be a regular file, and what is read of it is bounded. A named pipe blocks a read
 * for ever, a device can be endless (/dev/zero), a directory or a dangling link holds nothing: each is refused in one
 * line naming the file and what it is instead, before anything is read. The file is opened without blocking (a pipe
 * put where a file was checked would block the open itself) and judged on the open descriptor.
 *
 * It lives in errors/ because the recorder, the regress and contract commands, the reports, config/ and net/ all
 * read files users name, and errors/ is the one folder all of them may import.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { FlisError, UsageError } from './flis-error.ts';

/** What a path is when it is not a regular file ('a named pipe'), or undefined for a regular file. */
export function notRegular(st: Stats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** A file opened for reading, or why not: an fs error's code, or what the path is instead of a regular file. */
export type Opened = { fd: number; size: number } | { code: string } | { found: string };

function errnoOf(e: unknown): string {
  return (e as NodeJS.ErrnoException | undefined)?.code ?? String(e);
}

/** A link whose target is gone reads as ENOENT: said so, since the name itself is there to be seen. */
function danglingLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Opens `file` for reading when it is a regular file; never blocks, never leaves a descriptor open on refusal. */
export function openRegular(file: string): Opened {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = errnoOf(e);
    return code === 'ENOENT' && danglingLink(file) ? { found: 'a symbolic link to nothing' } : { code };
  }
  try {
    const st = fstatSync(fd);
    const found = notRegular(st);
    if (found === undefined) return { fd, size: st.size };
    closeSync(fd);
    return { found };
  } catch (e) {
    closeSync(fd);
    return { code: errnoOf(e) };
  }
}

/** Why a file cannot be read, in a few words: what it is instead of a regular file, or the fs error's code. */
export function unreadableWhy(o: Exclude<Opened, { fd: number }>): string {
  return 'found' in o ? o.found : o.code;
}

const MB = 1024 * 1024;

/**
 * The bytes of a file the user named, read whole up to `maxBytes`: a regular file only (openRegular). Anything else
 * is one error line: `refuse` words it (given why: 'a named pipe', 'ENOENT', 'larger than 1 MB'), else a UsageError
 * naming the file and `what` ("the OpenAPI document").
 */
export function readUserFile(
  file: string,
  what: string,
  maxBytes: number,
  refuse: (why: string) => Error = (why) => new UsageError(`${file}: cannot read ${what} (${why})`),
): Buffer {
  const o = openRegular(file);
  if (!('fd' in o)) throw refuse('found' in o ? `${o.found}, not a regular file` : o.code);
  try {
    // Sized by fstat, grown if the file grew since, and one byte past the bound tells a file that fits from one that
    // does not.
    let buf = Buffer.allocUnsafe(Math.min(o.size, maxBytes) + 1);
    let got = 0;
    for (;;) {
      if (got === buf.length) {
        if (got > maxBytes) break;
        const more = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
        buf.copy(more, 0, 0, got);
        buf = more;
      }
      const n = readSync(o.fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
    }
    if (got > maxBytes) throw refuse(`larger than ${maxBytes >= MB ? `${maxBytes / MB} MB` : `${maxBytes} bytes`}`);
    return buf.subarray(0, got);
  } catch (e) {
    if (e instanceof FlisError) throw e;
    throw refuse(errnoOf(e));
  } finally {
    closeSync(o.fd);
  }
}
