/**
 * A cassette path checked before anything is opened, so that a directory, a
 * path through a file, or a place the user cannot write is answered with one
 * line naming the file and what to do (exit 2), never a stack trace.
 */
import { accessSync, constants, mkdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '../errors/flis-error.ts';

const reasons: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EISDIR: 'it is a directory',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  ENAMETOOLONG: 'the name is too long',
};

/** An fs error on a cassette, as the one line a user acts on. */
export function cassetteFileError(file: string, err: unknown, doing = 'cannot be written'): ConfigError {
  const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
  return new ConfigError(`the cassette ${doing}: ${reasons[code] ?? code}; give a --cassette FILE you can write`, {
    file,
  });
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
}
