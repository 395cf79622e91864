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

export function intOption(
  name: string,
  raw: string | undefined,
  { min = 0, max = Number.MAX_SAFE_INTEGER } = {},
): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}; got '${raw}'`);
  return n;
}

export function listOption(raw: string | string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const items = (Array.isArray(raw) ? raw : [raw])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? items : undefined;
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

/** A boolean from a flag, else from an environment variable ("1", "true", "yes"). */
export function flagOrEnv(flag: boolean | undefined, env: string | undefined): boolean {
  return flag === true || /^(1|true|yes)$/i.test(env ?? '');
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
