/**
 * What one `flis run` against a mutant says about it. The run is the test: a contract failure (exit 1, NOT
 * CERTIFIED) kills the mutant, and the failures' checks are its killers; a run the tool stopped at the first
 * contract failure kills it too. A run that passes (exit 0: CERTIFIED, or PARTIAL with tests skipped) lets it
 * survive. A run past its deadline timed out; any other end (the mock did not start, so no check ran; a crash) is an
 * error, which counts neither way.
 */
import { catalogueEntry } from '../../suites/lib/catalogue.ts';
import type { Status } from './mutant.ts';

/** A failure as `run.json` lists it. */
export interface RunFailure {
  check?: string | undefined;
  severity?: string | undefined;
}

export interface RunOutcome {
  exitCode: number | null;
  /** The run passed its deadline and was stopped. */
  timedOut: boolean;
  /** The check of the first contract failure the progress showed, when the tool stopped the run there. */
  stoppedAt?: string | undefined;
  /** `run.json`'s failures, when the run wrote one. */
  failures: RunFailure[];
  /** The run wrote `run.json`: its checks ran (a run that could not start its mock writes none). */
  ranChecks: boolean;
  /** `run.json`'s counts of tests not run to a verdict, when the run wrote one. */
  skipped?: { skipped: number; blocked: number; inconclusive: number; reasons?: string[] | undefined } | undefined;
  /** The last line the run printed on stderr (or stdout), for an error. */
  lastLine?: string | undefined;
}

export interface Verdict {
  status: Exclude<Status, 'no coverage' | 'freedom'>;
  killedBy?: string[];
  detail?: string;
}

/** True for a check whose failures weigh on the contract (suites/lib/catalogue.ts); advisory ones never kill. */
export function isContractCheck(check: string): boolean {
  return catalogueEntry(check)?.severity === 'contract';
}

/**
 * The check of a failed test in Playwright's list progress (`  ✘  9 [suites] › … › offer-settled · … @offer-settled
 * (507ms)`): the tag every check test carries. Undefined for any other line.
 */
export function failedCheckOf(line: string): string | undefined {
  if (!/^\s*[✘×x]\s+\d+\s/.test(line)) return undefined;
  return /\s@([a-z0-9-]+)(?:\s+\([\d.]+m?s\))?\s*$/.exec(line)?.[1];
}

function contractKillers(failures: RunFailure[]): string[] {
  return failures.filter((f) => (f.severity ?? 'contract') === 'contract').map((f) => f.check ?? '(no check)');
}

function partialDetail(skipped: RunOutcome['skipped']): string | undefined {
  if (!skipped || skipped.skipped === 0) return undefined;
  const why = skipped.reasons?.length ? `: ${skipped.reasons.join(' | ')}` : '';
  return `PARTIAL: ${skipped.skipped} skipped (${skipped.blocked} blocked, ${skipped.inconclusive} inconclusive)${why}`;
}

export function verdictOf(o: RunOutcome): Verdict {
  if (o.timedOut) return { status: 'timed out' };
  const killers = contractKillers(o.failures);
  if (o.stoppedAt !== undefined) return { status: 'killed', killedBy: [...new Set([o.stoppedAt, ...killers])].sort() };
  if (o.exitCode === 1 && o.ranChecks)
    return { status: 'killed', killedBy: killers.length > 0 ? [...new Set(killers)].sort() : ['(not certified)'] };
  if (o.exitCode === 0) {
    const detail = partialDetail(o.skipped);
    return detail ? { status: 'survived', detail } : { status: 'survived' };
  }
  const before = o.ranChecks ? '' : ', before any check ran';
  return {
    status: 'error',
    detail: `exit ${o.exitCode ?? 'by signal'}${before}${o.lastLine ? `: ${o.lastLine}` : ''}`,
  };
}
