/**
 * One writer per cassette. A writer holds `<cassette>.lock`, a file created
 * with O_EXCL semantics (link(2) of a complete temp file, so it is never seen
 * half-written) that names the holder: pid, the process's start time, host
 * and command. A second writer finds it and is refused, naming the holder.
 * A crash releases the lock: a lock whose process is gone (no such pid, or the
 * pid now belongs to a process started at another time) is stale, and the
 * next writer breaks it. A normal exit, even without close(), removes it.
 *
 * Why not flock(2): Node has no binding for it without a native addon. Why not
 * proper-lockfile: its staleness is an mtime refreshed by a timer, so a
 * recorder whose event loop is busy under load can lose its lock, and a lock
 * left by a crash blocks the next run until the mtime ages out.
 */
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { CassetteLockedError } from './errors.ts';
import type { LockHolder } from './lock-holder.ts';

/** Start time of a process (field 22 of /proc/PID/stat), or null where /proc is not there. */
function procStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

const MAX_COMMAND = 300;

function me(): LockHolder {
  const command = ['flis', ...process.argv.slice(2)].join(' ');
  return {
    pid: process.pid,
    procStart: procStart(process.pid),
    host: hostname(),
    command: command.length > MAX_COMMAND ? `${command.slice(0, MAX_COMMAND)}…` : command,
    since: new Date().toISOString(),
  };
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid !== 'number' || typeof h.host !== 'string') return undefined;
    return {
      pid: h.pid,
      procStart: h.procStart ?? null,
      host: h.host,
      command: String(h.command ?? '?'),
      since: String(h.since ?? '?'),
    };
  } catch {
    return undefined;
  }
}

/** Whether the process that wrote the lock still runs. On another host that cannot be known: assume it does. */
export function holderAlive(h: LockHolder): boolean {
  if (h.host !== hostname()) return true;
  try {
    process.kill(h.pid, 0);
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const start = procStart(h.pid);
  return !(start && h.procStart && start !== h.procStart);
}

function readLock(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Create `file` holding `text`, atomically and only if it does not exist. False when it does. */
function createExclusive(file: string, text: string): boolean {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  const fd = openSync(temp, 'wx', 0o644);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    unlinkSync(temp);
  }
}

/**
 * Remove a stale lock whose text we read: it is moved aside first, and if what
 * was moved is not that text (another writer took the lock meanwhile), it is put back.
 */
function breakStale(file: string, staleText: string): void {
  const aside = `${file}.stale.${process.pid}`;
  try {
    renameSync(file, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    if (readFileSync(aside, 'utf8') !== staleText) {
      try {
        linkSync(aside, file);
      } catch {
        // Someone holds the lock again: theirs stands.
      }
    }
  } finally {
    unlinkSync(aside);
  }
}

export class CassetteLock {
  private released = false;
  private readonly onExit = (): void => this.release();

  constructor(
    readonly lockFile: string,
    private readonly text: string,
  ) {
    process.once('exit', this.onExit);
  }

  /** Removes the lock file if it is still ours (a lock broken as stale by another writer is theirs now). */
  release(): void {
    if (this.released) return;
    this.released = true;
    process.off('exit', this.onExit);
    try {
      if (readLock(this.lockFile) === this.text) unlinkSync(this.lockFile);
    } catch {
      // Gone already: nothing to release.
    }
  }
}

/** Take the cassette's lock, or throw CassetteLockedError naming the process that holds it. */
export function lockCassette(cassette: string): CassetteLock {
  const lockFile = `${cassette}.lock`;
  const text = `${JSON.stringify(me())}\n`;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (createExclusive(lockFile, text)) return new CassetteLock(lockFile, text);
    const held = readLock(lockFile);
    if (held === undefined) continue;
    const holder = parseHolder(held);
    if (holder && holderAlive(holder)) throw new CassetteLockedError(cassette, lockFile, holder);
    // Not a lock of ours (they are never half-written): the user decides whether to remove it.
    if (!holder) throw new CassetteLockedError(cassette, lockFile, undefined);
    breakStale(lockFile, held);
  }
  throw new CassetteLockedError(cassette, lockFile, undefined);
}
