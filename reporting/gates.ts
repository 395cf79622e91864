/**
 * Thresholds a CI job gates on, each with its own exit code so the job log
 * says which gate failed: 1 a check failed (always on), 3 coverage below
 * --min-coverage, 4 drift found with --fail-on drift. When several fail, the
 * lowest code wins (a failed check says most); every gate prints its line.
 */
import type { Certificate } from './certificate-types.ts';
import { driftCount, type DriftReport } from './drift.ts';

export const GATE_EXIT = { checkFailed: 1, coverage: 3, drift: 4 } as const;

export const failOnValues = ['drift'] as const;
export type FailOn = (typeof failOnValues)[number];

export interface GateOptions {
  /** Percent of the 125 operations that must have had a check run on them. */
  minCoverage?: number | undefined;
  failOn?: FailOn[] | undefined;
}

export interface GateResult {
  gate: 'min-coverage' | 'drift';
  passed: boolean;
  exitCode: number;
  message: string;
}

export function evaluateGates(cert: Certificate, drift: DriftReport | undefined, opts: GateOptions): GateResult[] {
  const out: GateResult[] = [];
  if (opts.minCoverage !== undefined) {
    const passed = cert.coverage.percent >= opts.minCoverage;
    out.push({
      gate: 'min-coverage',
      passed,
      exitCode: GATE_EXIT.coverage,
      message: `coverage ${cert.coverage.percent}% (${cert.coverage.covered}/${cert.coverage.total} operations) ${passed ? '≥' : '<'} --min-coverage ${opts.minCoverage}%`,
    });
  }
  if (opts.failOn?.includes('drift')) {
    const n = drift ? driftCount(drift) : 0;
    out.push({
      gate: 'drift',
      passed: n === 0,
      exitCode: GATE_EXIT.drift,
      message: `${n} drift finding(s) with --fail-on drift`,
    });
  }
  return out;
}

/** The process exit code: the check result (0 or 1) unless it passed and a gate failed. */
export function exitCodeWithGates(checkExit: number, gates: readonly GateResult[]): number {
  if (checkExit !== 0) return checkExit;
  const failed = gates
    .filter((g) => !g.passed)
    .map((g) => g.exitCode)
    .sort((a, b) => a - b);
  return failed[0] ?? 0;
}

export const GATES_HELP = `Gates (CI):
  --min-coverage PCT       exit 3 when fewer than PCT% of the 125 operations had a check run on them
  --fail-on drift          exit 4 when the drift report found gated drift (reports/drift.md; observations,
                           such as status values beyond those spec 3 shows, never count)
Exit codes: 0 no contract check failed (advisories exit 0 unless --strict), 1 a contract check failed,
2 usage or configuration error (an unreachable target too), 3 coverage below --min-coverage, 4 gated drift
with --fail-on drift, 130/143 interrupted by SIGINT/SIGTERM. A failed check (1) outranks a failed gate.`;
