/**
 * The error tree of flis-conformance. Every error has a stable `code` so that
 * tests and callers assert codes, never wording; messages carry what a user
 * needs to act (the file, the operation, the expected and actual value).
 */
export type FlisErrorCode =
  | 'FLIS_ERR_USAGE'
  | 'FLIS_ERR_CONFIG'
  | 'FLIS_ERR_DEPLOYMENT'
  | 'FLIS_ERR_SECRET_MISSING'
  | 'FLIS_ERR_CASSETTE_PARSE'
  | 'FLIS_ERR_CASSETTE_MISS'
  | 'FLIS_ERR_CASSETTE_SECRET'
  | 'FLIS_ERR_CASSETTE_LOCKED'
  | 'FLIS_ERR_UPSTREAM'
  /** The token endpoint or --token-command gave no usable token. */
  | 'FLIS_ERR_TOKEN'
  /** The proxy is unreachable or refuses the credentials (407). */
  | 'FLIS_ERR_PROXY'
  /** A TLS handshake failed: the deployment's CA is not trusted, or it refused the client certificate. */
  | 'FLIS_ERR_TLS'
  /** A path flis may not write, or may not replace because it cannot prove it wrote what is there (errors/owned-paths.ts). */
  | 'FLIS_ERR_PATH'
  | 'FLIS_ERR_INTERNAL';

export class FlisError extends Error {
  readonly code: FlisErrorCode;
  constructor(code: FlisErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** A bad command-line argument or flag value: exit code 2. */
export class UsageError extends FlisError {
  constructor(message: string) {
    super('FLIS_ERR_USAGE', message);
  }
}

/** A bad configuration file or environment value: exit code 2. Names the file and line where it can. */
export class ConfigError extends FlisError {
  readonly file: string | undefined;
  readonly line: number | undefined;
  constructor(
    message: string,
    where: { file?: string; line?: number | undefined } = {},
    code: FlisErrorCode = 'FLIS_ERR_CONFIG',
  ) {
    const prefix = where.file ? `${where.file}${where.line ? `:${where.line}` : ''}: ` : '';
    super(code, prefix + message);
    this.file = where.file;
    this.line = where.line;
  }
}

/** Answer a closed set of allowed values the way undici does: name the bad value and every allowed one. */
export function oneOf<T extends string>(what: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${what} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}; got '${value}'`);
}
