/**
 * The recorder's errors. Each keeps a stable code from errors/flis-error.ts so
 * tests assert codes; messages name the cassette file and line, and never carry
 * a secret value (only the name of where it came from).
 */
import { FlisError } from '../errors/flis-error.ts';

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
