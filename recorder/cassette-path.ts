/**
 * A cassette path checked before anything is opened, so that a directory, a
 * path through a file, or a place the user cannot write is answered with one
 * line naming the file and what to do (exit 2), never a stack trace.
 */
import { accessSync, closeSync, constants, mkdirSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError, UsageError } from '../errors/flis-error.ts';
import { PathError, reasonOf } from '../errors/owned-paths.ts';

/** An fs error on a cassette, as the one line a user acts on. */
export function cassetteFileError(file: string, err: unknown, doing = 'cannot be written'): ConfigError {
  return new ConfigError(`the cassette ${doing}: ${reasonOf(err)}; give a --cassette FILE you can write`, {
    file,
  });
}

/**
 * A cassette's header document names its kind near the top (recorder/cassette-yaml.ts): a file that starts so is
 * one flis wrote, and may be replaced or appended to. Anything else is the user's.
 */
function isFlisCassette(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(1024);
    const text = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('utf8');
    const header = /^\uFEFF?(?:---[^\n]*\n)?([\s\S]*?)(?:\n(?:---|\.\.\.)|$)/.exec(text)?.[1] ?? '';
    return /^kind: flis-cassette\s*$/m.test(header) && /^format: \d+\s*$/m.test(header);
  } finally {
    closeSync(fd);
  }
}

function directoryError(file: string): ConfigError {
  return new ConfigError(
    `is a directory; a cassette is a file: give a file name, e.g. ${join(file, 'cassette.yaml')}`,
    {
      file,
    },
  );
}

function statOrNone(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch (e) {
    // Through a file (ENOTDIR) there is nothing either: the reader says it is missing, the writer cannot create it.
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw cassetteFileError(file, e, 'cannot be read');
  }
}

/** The cassette must be readable as a file: not a directory. Its absence is the reader's to report. */
export function checkReadableCassette(file: string): void {
  if (statOrNone(file)?.isDirectory()) throw directoryError(file);
}

/** The cassette can be created or replaced: a file (or nothing yet) in a directory the user can write. */
export function checkWritableCassette(file: string): void {
  if (file.trim() === '') throw new UsageError('the cassette path is empty; give a --cassette FILE');
  const st = statOrNone(file);
  if (st?.isDirectory()) throw directoryError(file);
  if (st && !st.isFile()) throw new ConfigError('is not a regular file; give a --cassette FILE of its own', { file });
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (e) {
    // mkdir -p says EEXIST when a part of the path is a file.
    const code = (e as NodeJS.ErrnoException).code;
    throw cassetteFileError(file, code === 'EEXIST' ? { code: 'ENOTDIR' } : e);
  }
  try {
    // The directory is written (a temp file, the lock, a rename); a file the user made read-only is respected.
    accessSync(dirname(file), constants.W_OK);
    if (st) accessSync(file, constants.W_OK);
  } catch (e) {
    throw cassetteFileError(file, e);
  }
  // The ownership rule (errors/owned-paths.ts): a file that is not a cassette is the user's, never replaced.
  if (st && st.size > 0 && !isFlisCassette(file))
    throw new PathError(
      file,
      'exists and is not a cassette flis wrote; flis never overwrites a file it cannot prove it wrote: remove it or give another name',
    );
}
