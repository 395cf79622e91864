/**
 * The recorder's errors. Each keeps a stable code from errors/flis-error.ts so
 * tests assert codes; messages name the cassette file and line, and never carry
 * a secret value (only the name of where it came from).
 */
import { FlisError } from '../errors/flis-error.ts';
import type { LockHolder } from './lock-holder.ts';

/** A cassette that cannot be read: names the file, the 1-based line and what was expected there. */
export class CassetteParseError extends FlisError {
  readonly file: string;
  readonly line: number;
  readonly expected: string;
  constructor(file: string, line: number, expected: string, found?: string) {
    super('FLIS_ERR_CASSETTE_PARSE', `${file}:${line}: expected ${expected}${found ? `; found ${found}` : ''}`);
    this.file = file;
    this.line = line;
    this.expected = expected;
  }
}

/** The writer's last guard: a known secret survived redaction, so the exchange was not written. */
export class CassetteSecretError extends FlisError {
  readonly secretLabel: string;
  readonly form: string;
  constructor(what: string, secretLabel: string, form: string) {
    super(
      'FLIS_ERR_CASSETTE_SECRET',
      `refusing to write ${what}: the secret from ${secretLabel} (${form} form) still appears after redaction; nothing was written for it`,
    );
    this.secretLabel = secretLabel;
    this.form = form;
  }
}

/** Another process is writing this cassette: names it, so the user can stop it or pick another file. */
export class CassetteLockedError extends FlisError {
  readonly holder: LockHolder | undefined;
  constructor(cassette: string, lockFile: string, holder: LockHolder | undefined) {
    super(
      'FLIS_ERR_CASSETTE_LOCKED',
      holder
        ? `${cassette} is being written by another process (pid ${holder.pid}${holder.host ? ` on ${holder.host}` : ''}: ${holder.command}; since ${holder.since}); stop it, or give another --cassette`
        : `${cassette} is locked by ${lockFile}, which names no process flis can check; remove that file if nothing is writing the cassette`,
    );
    this.holder = holder;
  }
}
