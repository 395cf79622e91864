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

/** Edit distance (Levenshtein), for suggesting the name a user meant. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (cur[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * The allowed value closest to a mistyped one, when one is close enough to be what was meant: within a third of its
 * length in edits, or containing it (a name given in part).
 */
export function closestName(value: string, allowed: readonly string[]): string | undefined {
  const v = value.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const name of allowed) {
    const n = name.toLowerCase();
    const d = n.includes(v) && v.length >= 3 ? Math.abs(n.length - v.length) / 4 : distance(v, n);
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= Math.max(2, Math.ceil(value.length / 3)) ? best.name : undefined;
}

/** Lists longer than this are not spelled out in an error: the closest name is suggested and the help named. */
const LIST_IN_ERROR = 12;

/**
 * Answer a closed set of allowed values the way undici does: name the bad value and every allowed one; for a long
 * list, the closest one ("did you mean") and where the list is.
 */
export function oneOf<T extends string>(what: string, value: string, allowed: readonly T[], listedIn?: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  const near = closestName(value, allowed);
  const suggestion = near ? ` — did you mean '${near}'?` : '';
  if (allowed.length > LIST_IN_ERROR)
    throw new UsageError(
      `${what}: no such name '${value}'${suggestion}${near ? '' : ` (${allowed.length} names${listedIn ? `: see ${listedIn}` : ''})`}`,
    );
  throw new UsageError(
    `${what} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}; got '${value}'${suggestion}`,
  );
}
