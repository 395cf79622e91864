/**
 * Argument parsing shared by the commands: node:util parseArgs, with its errors
 * turned into UsageError (exit 2) that say what to fix.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors/flis-error.ts';
import { pathFrom } from '../errors/owned-paths.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs' message on one line: a value starting with a dash (a negative timeout) is named, not a paragraph. */
function oneLine(message: string): string {
  const dashed = /^Option '(--[\w-]+)' argument is ambiguous/.exec(message);
  if (dashed) return `${dashed[1]} takes a value; one starting with '-' is given as ${dashed[1]}=VALUE`;
  return message.replace(/\. To specify a positional.*$/s, '');
}

export function parseCommandArgs<O extends Options>(
  command: string,
  argv: string[],
  options: O,
  allowPositionals = false,
): ParsedCommandArgs<O> {
  try {
    return parseArgs({
      args: argv,
      options: { help: { type: 'boolean', short: 'h' }, ...options },
      allowPositionals,
      strict: true,
    });
  } catch (e) {
    throw new UsageError(
      // cli/main.ts prefixes every error with 'flis <command>:', so the message does not repeat it.
      `${oneLine((e as Error).message)}. See 'flis ${command} --help'.`,
    );
  }
}

/**
 * How an error names where a value came from: a flag given bare ('seed' → '--seed'), or an environment variable
 * (FLIS_SEED) as it is, so the user fixes the setting they actually made.
 */
export function sourceName(name: string): string {
  return /^[A-Z][A-Z0-9_]*$/.test(name) || name.startsWith('--') ? name : `--${name}`;
}

/** A value from its flag, else from its environment variable (unset or empty: none), and the name that gave it. */
export function flagOrEnvValue(
  flag: string,
  value: string | undefined,
  env: NodeJS.ProcessEnv,
  variable: string,
): { raw: string | undefined; name: string } {
  if (value !== undefined) return { raw: value, name: `--${flag}` };
  const fromEnv = env[variable];
  return fromEnv ? { raw: fromEnv, name: variable } : { raw: undefined, name: `--${flag}` };
}

/**
 * The one parser of a whole number a user gives (a flag, an environment variable): decimal digits alone. Number()
 * also takes '1e3', '0x10', ' 42 ', '' and 99999999999999999999 (which it rounds), none of which a user means as a
 * count, a port or a seed.
 */
export function wholeNumber(name: string, raw: string, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const n = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`${sourceName(name)} must be a whole number from ${min} to ${max}; got '${raw}'`);
  return n;
}

/** wholeNumber of a value that may be absent (undefined); an empty one is no number and is refused. */
export function intOption(
  name: string,
  raw: string | undefined,
  range: { min?: number; max?: number } = {},
): number | undefined {
  return raw === undefined ? undefined : wholeNumber(name, raw, range);
}

/**
 * A comma-separated list from a flag given once or more: items trimmed, and an empty one ('', 'a,,b', 'a,') refused,
 * since it names nothing (an empty --suite would have meant every suite).
 */
export function listOption(name: string, raw: string | string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const items = (Array.isArray(raw) ? raw : [raw]).flatMap((s) => s.split(',')).map((s) => s.trim());
  if (items.some((s) => s === ''))
    throw new UsageError(
      `${sourceName(name)} takes names separated by commas, none of them empty; got '${[raw].flat().join(',')}'`,
    );
  return items;
}

/**
 * A flag's value that must name something: an empty one (`--base-url "$UNSET"`) is refused rather than read as the
 * flag left out, which would quietly pick the default target.
 */
export function namedValue(name: string, raw: string | undefined): string | undefined {
  if (raw !== undefined && raw.trim() === '') throw new UsageError(`${sourceName(name)} is empty; got '${raw}'`);
  return raw;
}

/** The most shards a run is split into: past it a shard holds nothing worth a CI job. */
export const MAX_SHARDS = 1000;

/** `I/N` with 1 <= I <= N <= MAX_SHARDS, each a whole number (wholeNumber's rule). */
export function shardOption(raw: string | undefined): { index: number; total: number } | undefined {
  if (raw === undefined) return undefined;
  const m = /^([0-9]+)\/([0-9]+)$/.exec(raw);
  const [index, total] = [Number(m?.[1]), Number(m?.[2])];
  if (!m || !(total >= 1 && total <= MAX_SHARDS) || !(index >= 1 && index <= total))
    throw new UsageError(`--shard must be I/N with 1 <= I <= N <= ${MAX_SHARDS} (e.g. 2/4); got '${raw}'`);
  return { index, total };
}

/**
 * The report folder (`--report-dir`, else FLIS_REPORT_DIR, else reports/) and the name the user gave it by, for
 * its errors. An empty or blank one is a usage error, never the current folder.
 */
export function reportDirOf(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  flagName = '--report-dir',
): { reportDir: string; reportDirFrom: string } {
  const fromEnv = flag === undefined && env.FLIS_REPORT_DIR !== undefined;
  return {
    reportDir: pathFrom(flagName, flag, { name: 'FLIS_REPORT_DIR', value: env.FLIS_REPORT_DIR }, 'reports'),
    reportDirFrom: fromEnv ? 'FLIS_REPORT_DIR' : flagName,
  };
}

const YES = /^(1|true|yes|on)$/i;
const NO = /^(0|false|no|off)$/i;

/**
 * A boolean from a flag, else from an environment variable: 1, true, yes or on; 0, false, no or off (any case);
 * unset or empty is off. Anything else is a usage error naming the variable: a typo must not quietly mean "off".
 */
export function flagOrEnv(flag: boolean | undefined, raw: string | undefined, variable: string): boolean {
  if (flag === true) return true;
  const value = raw?.trim() ?? '';
  if (value === '' || NO.test(value)) return false;
  if (YES.test(value)) return true;
  throw new UsageError(`${variable} must be 1, true, yes or on (or 0, false, no, off); got '${raw}'`);
}

/** A host to bind a server to: a loopback address only, so what it serves (a token, recorded traffic) stays on this machine. */
export function requireLoopback(host: string): string {
  if (!/^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/.test(host))
    throw new UsageError(`--host must be a loopback address (127.0.0.1, ::1, localhost); got '${host}'`);
  return host.replace(/^\[|\]$/g, '');
}

/** Named, so the build's type declarations can state it (the inferred type names a type node:util does not export). */
type ParsedCommandArgs<O extends Options> = ReturnType<
  typeof parseArgs<{
    args: string[];
    options: { help: { type: 'boolean'; short: 'h' } } & O;
    allowPositionals: boolean;
    strict: true;
  }>
>;
