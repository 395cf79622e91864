/**
 * The options `flis run`, `flis certify` and `flis merge` share for the verdict's
 * exit code: the CI gates and --strict. Parsed before anything heavy loads, so
 * a usage error answers at once.
 */
import { oneOf, UsageError } from '../errors/flis-error.ts';
import { failOnValues, type FailOn, type GateOptions } from '../reporting/gates.ts';
import { flagOrEnv, listOption } from './args.ts';

export const gateOptionSpec = {
  'min-coverage': { type: 'string' },
  'fail-on': { type: 'string', multiple: true },
  strict: { type: 'boolean' },
} as const;

export const STRICT_HELP = `Severity:
  --strict                 an advisory failure (convention beyond the spec) exits 1 too;
                           without it it is reported and the exit code stays 0  [env FLIS_STRICT=1]`;

/** --strict, else FLIS_STRICT=1. */
export function strictOf(v: { strict?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return flagOrEnv(v.strict, env.FLIS_STRICT, 'FLIS_STRICT');
}

export function parseGates(v: { 'min-coverage'?: string; 'fail-on'?: string[] }): GateOptions {
  const raw = v['min-coverage'];
  let minCoverage: number | undefined;
  if (raw !== undefined) {
    // Digits, a decimal part and a % sign at most: Number() would also take '', '1e2' and '0x10'.
    const m = /^([0-9]+(?:\.[0-9]+)?)%?$/.exec(raw);
    minCoverage = m ? Number(m[1]) : Number.NaN;
    if (!(minCoverage >= 0 && minCoverage <= 100))
      throw new UsageError(`--min-coverage must be a percentage from 0 to 100; got '${raw}'`);
  }
  const failOn = (listOption('fail-on', v['fail-on']) ?? []).map((f) => oneOf<FailOn>('--fail-on', f, failOnValues));
  return { minCoverage, failOn: failOn.length ? failOn : undefined };
}
