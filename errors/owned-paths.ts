/**
 * The ownership rule for every path a user names as an output: flis deletes or
 * overwrites only what it can prove it wrote itself. A folder flis creates for
 * its output gets a marker file (MARKER); an existing empty folder is adopted
 * (the marker is written into it); a folder carrying the marker is flis's, and
 * flis clears in it only the names it writes. A file is replaced only when it
 * is absent, empty, or proves itself flis's (the caller's `isOurs`, e.g. a
 * cassette header). Anything else is a PathError (exit 2): one line naming the
 * path and the fix, and the path is left untouched. Every check runs before the
 * command starts anything, so a bad path never costs a mock start or a run.
 *
 * It lives in errors/ because the runner, the reports, the recorder and the CLI
 * all write to paths the user named, and errors/ is the one folder all of them
 * may import; it imports nothing of ours but the error classes.
 */
import { accessSync, constants, mkdirSync, readdirSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { FlisError, UsageError } from './flis-error.ts';

/** The file that says flis created (or adopted) a folder and may clear what it writes there. */
export const MARKER = '.flis-owned';

const MARKER_TEXT =
  'flis-conformance writes its output to this folder and clears what it wrote here before writing it again.\n' +
  'Files it did not write are never touched. Delete this file to make flis refuse the folder.\n';

/** A path flis may not write or replace: exit 2, one line naming the path and the fix. */
export class PathError extends FlisError {
  readonly path: string;
  constructor(path: string, message: string) {
    super('FLIS_ERR_PATH', `${path}: ${message}`);
    this.path = path;
  }
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EISDIR: 'it is a directory',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
};

/** An fs error's code in words ("permission denied"), or the code itself. */
export function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? 'EIO';
  return REASONS[code] ?? code;
}

/**
 * A path given by a flag or variable, resolved; an empty or blank one is a usage error (it would otherwise
 * resolve to the current folder). `name` is the flag or variable the user set.
 */
export function givenPath(name: string, raw: string): string {
  if (raw.trim() === '') throw new UsageError(`${name} is empty; give a path (e.g. ${name}=reports)`);
  return resolve(raw);
}

/** The flag's value, else the variable's, else the default; resolved and checked by givenPath. */
export function pathFrom(
  flag: string,
  value: string | undefined,
  env: { name: string; value: string | undefined } | undefined,
  fallback: string,
): string {
  if (value !== undefined) return givenPath(flag, value);
  if (env?.value !== undefined) return givenPath(env.name, env.value);
  return resolve(fallback);
}

/** The path's stats, or undefined when nothing is there; a path through a file is a PathError. */
function statOf(path: string, what: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') throw throughFile(path, what);
    throw new PathError(path, `${what} cannot be read (${reasonOf(e)})`);
  }
}

/** The deepest existing ancestor that is a file, for "a path through a file". */
function fileOnTheWay(path: string): string | undefined {
  for (let p = dirname(path); p !== dirname(p); p = dirname(p)) {
    try {
      if (!statSync(p).isDirectory()) return p;
    } catch {
      // Not there (yet) or not reachable: look further up.
    }
  }
  return undefined;
}

function throughFile(path: string, what: string): PathError {
  const file = fileOnTheWay(path);
  return new PathError(
    path,
    `${what} cannot be created: ${file ? `${file} is a file, not a folder` : REASONS.ENOTDIR}; give a path under a folder`,
  );
}

/** mkdir -p; answers the first folder it created (the folders from it down to `dir` are flis's). */
function mkdirOrFail(dir: string, what: string): string | undefined {
  try {
    return mkdirSync(dir, { recursive: true });
  } catch (e) {
    // mkdir -p says EEXIST or ENOTDIR when a part of the path is a file.
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') throw throughFile(dir, what);
    throw new PathError(dir, `${what} cannot be created (${reasonOf(e)}); give a folder you can write`);
  }
}

function writableOrFail(path: string, what: string): void {
  try {
    accessSync(path, constants.W_OK);
  } catch (e) {
    throw new PathError(path, `${what} cannot be written (${reasonOf(e)}); give one you can write`);
  }
}

function writeMarker(dir: string, what: string): void {
  try {
    writeFileSync(join(dir, MARKER), MARKER_TEXT);
  } catch (e) {
    throw new PathError(dir, `${what} cannot be written (${reasonOf(e)}); give a folder you can write`);
  }
}

export function isOwnedFolder(dir: string): boolean {
  try {
    return statSync(join(dir, MARKER)).isFile();
  } catch {
    return false;
  }
}

export interface FolderClaim {
  /** The flag or variable that named the folder, for the message ("--report-dir"). */
  flag: string;
  /**
   * For a folder without the marker that is not empty: true when what it holds proves flis wrote it (a folder an
   * older flis left, before the marker existed). It is then adopted.
   */
  provesOurs?: (dir: string, entries: string[]) => boolean;
}

/** The nearest folder that exists above a path that does not, which its creation needs to write. */
function existingAncestor(path: string): string {
  let p = dirname(path);
  while (p !== dirname(p) && statOf(p, 'a folder above it') === undefined) p = dirname(p);
  return p;
}

/**
 * What claimFolder would do with `dir`, with no side effect: 'create' it, 'adopt' it (empty, or proven flis's), or
 * nothing ('owned', it carries the marker); a PathError when flis may not have it. Commands call it before they
 * start anything, so a bad folder leaves no trace, not even a new empty folder.
 */
export function checkFolder(dir: string, claim: FolderClaim): 'create' | 'adopt' | 'owned' {
  const what = `the ${claim.flag} folder`;
  if (dir.trim() === '') throw new UsageError(`${claim.flag} is empty; give a path`);
  const st = statOf(dir, what);
  if (st && !st.isDirectory())
    throw new PathError(
      dir,
      `${claim.flag} names a file, not a folder; give a new or empty folder (flis never replaces a file it did not write)`,
    );
  if (!st) {
    const above = existingAncestor(dir);
    if (!statSync(above).isDirectory()) throw throughFile(dir, what);
    try {
      accessSync(above, constants.W_OK);
    } catch (e) {
      throw new PathError(dir, `${what} cannot be created in ${above} (${reasonOf(e)}); give a folder you can write`);
    }
    return 'create';
  }
  writableOrFail(dir, what);
  if (isOwnedFolder(dir)) return 'owned';
  const entries = readdirSync(dir).sort();
  if (entries.length > 0 && !claim.provesOurs?.(dir, entries)) {
    const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? `, … (${entries.length} entries)` : '');
    throw new PathError(
      dir,
      `${claim.flag} names a folder flis did not create (it holds ${shown}, and no ${MARKER}); give a new or empty folder, so nothing of yours is cleared`,
    );
  }
  return 'adopt';
}

/**
 * Makes `dir` a folder flis owns, or throws PathError: created with the marker when absent, adopted when empty or
 * proven flis's, accepted when it carries the marker. Nothing else in it is touched here.
 */
export function claimFolder(dir: string, claim: FolderClaim): void {
  const what = `the ${claim.flag} folder`;
  const verdict = checkFolder(dir, claim);
  if (verdict === 'owned') return;
  const first = verdict === 'create' ? mkdirOrFail(dir, what) : undefined;
  // Every folder mkdir -p made is flis's: reports/ made for reports/shard-1 may take the merged reports later.
  for (let d = dir; first !== undefined && d.length > first.length && d !== dirname(d); d = dirname(d))
    writeMarker(dirname(d), what);
  writeMarker(dir, what);
}

/** Removes `names` from a folder claimFolder accepted; anything else in it stays. */
export function clearOwned(dir: string, names: readonly string[]): void {
  if (!isOwnedFolder(dir)) throw new FlisError('FLIS_ERR_INTERNAL', `${dir}: cleared without a ${MARKER}`);
  for (const name of names) {
    if (name === MARKER || name.includes('/') || name === '..') continue;
    rmSync(join(dir, name), { recursive: true, force: true });
  }
}

export interface FileClaim {
  /** The flag or argument that named the file ("--output", "OUT.har"). */
  flag: string;
  /** For an existing non-empty file: true when its content proves flis wrote it (then it may be replaced). */
  isOurs?: (file: string) => boolean;
  /** What flis writes there, for the message ("a HAR file"). */
  kind: string;
}

/** A file flis writes by name into a folder the user may share with it (e.g. diff.md), and how to know it. */
export interface OwnedName {
  name: string;
  kind: string;
  isOurs: (file: string) => boolean;
}

/**
 * Checks, with no side effect, that flis may write `names` into `dir`: a folder that is new or carries the marker
 * takes them all; in any other folder (the user's, shared with what they keep there) each name must be absent,
 * empty, or proven flis's. Nothing else in the folder matters, since nothing else is touched.
 */
export function checkNamesIn(dir: string, flag: string, names: readonly OwnedName[]): void {
  if (checkFolder(dir, { flag, provesOurs: () => true }) !== 'adopt') return;
  for (const n of names) claimFile(join(dir, n.name), { flag, kind: n.kind, isOurs: n.isOurs });
}

/** checkNamesIn, then the folder created (with the marker) when it does not exist yet. */
export function claimNamesIn(dir: string, flag: string, names: readonly OwnedName[]): void {
  checkNamesIn(dir, flag, names);
  if (!statOf(dir, `the ${flag} folder`)) claimFolder(dir, { flag });
}

/**
 * Checks, with no side effect, that `file` can be written and that writing it loses nothing: its folder exists and
 * is writable (or can be created: the writer creates it), and the file is absent, empty or proven flis's.
 */
export function claimFile(file: string, claim: FileClaim): void {
  if (file.trim() === '') throw new UsageError(`${claim.flag} is empty; give a file name`);
  const what = `${claim.flag} (${claim.kind})`;
  const st = statOf(file, what);
  if (st?.isDirectory())
    throw new PathError(
      file,
      `${claim.flag} names a folder; ${claim.kind} is a file: give a file name, e.g. ${join(file, 'out')}`,
    );
  if (st && !st.isFile())
    throw new PathError(file, `${claim.flag} names something that is not a regular file; give a file of its own`);
  if (!st) {
    checkFolder(dirname(file), { flag: claim.flag, provesOurs: () => true });
    return;
  }
  writableOrFail(dirname(file), `the folder of ${what}`);
  writableOrFail(file, what);
  if (st.size > 0 && !claim.isOurs?.(file))
    throw new PathError(
      file,
      `exists and is not ${claim.kind} flis wrote; flis never overwrites a file it cannot prove it wrote: remove it or give another name`,
    );
}
