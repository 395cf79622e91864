/**
 * After the suites ran: write the certificate and the drift report, print
 * their one-line summaries and the gates, and decide the exit code. Shared by
 * `flis run`, `flis certify` and `flis merge` so the three say the same thing.
 */
import { UsageError, oneOf } from '../errors/flis-error.ts';
import { evaluateGates, exitCodeWithGates, failOnValues, type FailOn, type GateOptions } from '../reporting/gates.ts';
import { driftSummary } from '../reporting/drift-write.ts';
import { writeRunReports, type RunReportsInput, type RunReports } from '../reporting/run-reports.ts';
import { certificateSummary } from '../reporting/write-certificate.ts';
import { listOption } from './args.ts';
import type { CommandIo } from './command.ts';
import { showReportHint } from './commands/show-report.ts';

export const gateOptionSpec = {
  'min-coverage': { type: 'string' },
  'fail-on': { type: 'string', multiple: true },
} as const;

export function parseGates(v: { 'min-coverage'?: string; 'fail-on'?: string[] }): GateOptions {
  const raw = v['min-coverage'];
  let minCoverage: number | undefined;
  if (raw !== undefined) {
    minCoverage = Number(raw.replace(/%$/, ''));
    if (!Number.isFinite(minCoverage) || minCoverage < 0 || minCoverage > 100)
      throw new UsageError(`--min-coverage must be a percentage from 0 to 100; got '${raw}'`);
  }
  const failOn = (listOption(v['fail-on']) ?? []).map((f) => oneOf<FailOn>('--fail-on', f, failOnValues));
  return { ...(minCoverage !== undefined ? { minCoverage } : {}), ...(failOn.length ? { failOn } : {}) };
}

/** Tokens in the environment: never written to a report, even by commands that hold no token of their own. */
export function envSecrets(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([k, v]) => /^FLIS_.*TOKEN$/.test(k) && v)
    .map(([, v]) => v as string);
}

export function finishRun(
  io: CommandIo,
  input: RunReportsInput,
  checkExit: number,
  gates: GateOptions,
): { exitCode: number; reports: RunReports } {
  const reports = writeRunReports(input);
  io.out(certificateSummary(reports.certificate, input.reportDir));
  io.out(driftSummary(reports.drift, input.reportDir));
  const hint = showReportHint(input.reportDir);
  if (hint) io.out(hint);
  const results = evaluateGates(reports.certificate, reports.drift, gates);
  for (const g of results)
    io.out(`gate ${g.gate}: ${g.passed ? 'passed' : `FAILED (exit ${g.exitCode})`}: ${g.message}`);
  return { exitCode: exitCodeWithGates(checkExit, results), reports };
}
