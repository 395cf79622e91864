/**
 * After the suites ran: write the certificate and the drift report, print
 * their one-line summaries and the gates, and decide the exit code. Shared by
 * `flis run`, `flis certify` and `flis merge` so the three say the same thing.
 */
import { secretsWithDerived } from '../core/redact.ts';
import { evaluateGates, exitCodeWithGates, type GateOptions } from '../reporting/gates.ts';
import { driftSummary } from '../reporting/drift-write.ts';
import { writeRunReports, type RunReportsInput, type RunReports } from '../reporting/run-reports.ts';
import { partyLines, whoFailedLine } from '../reporting/parties.ts';
import { scopePhrase, verdictWord } from '../reporting/verdict-words.ts';
import { notJudgedLine } from '../reporting/skip-groups.ts';
import { certificateSummary } from '../reporting/write-certificate.ts';
import type { Certificate } from '../reporting/certificate-types.ts';
import { EXIT, SIGNAL_EXIT, type CommandIo, type StopSignal } from './command.ts';
import { showReportHint } from './commands/show-report.ts';

/**
 * The check result as an exit code, from the verdict rather than Playwright's exit code: a contract failure
 * or an error outside any test is 1; an advisory failure is 1 only with --strict; a partial verdict is 0
 * (--min-coverage gates on coverage).
 */
export function checkExitOf(c: Certificate, strict: boolean): number {
  if (c.verdict.status === 'not-certified') return EXIT.checkFailed;
  if (strict && c.verdict.advisories > 0) return EXIT.checkFailed;
  return EXIT.ok;
}

/** Outcomes as counted for the verdict: advisories, blocked and inconclusive apart. */
export function countsLine(c: Certificate): string {
  const k = c.counts;
  const contract = k.failed - c.verdict.advisories;
  return `checks: ${k.passed} passed, ${contract} failed on contract rules, ${c.verdict.advisories} advisory failure(s), ${k.skipped} skipped (${k.blocked} blocked by another check, ${k.inconclusive} inconclusive)${k.notJudged ? `, ${k.notJudged} operation(s) not judged` : ''}${k.suiteErrors ? `, ${k.suiteErrors} error(s) outside any test` : ''}`;
}

/** The closing line: the verdict, its scope and the exit code, so a CI log's last line says it all. */
export function verdictLine(command: string, c: Certificate, exitCode: number, strict: boolean): string {
  const v = c.verdict;
  const advisories = v.advisories
    ? `, ${v.advisories} advisory failure(s)${strict ? ' (--strict: they fail the run)' : ' (exit 1 only with --strict)'}`
    : '';
  const parties = c.parties
    ? `client ${verdictWord(c.parties.client.status)}, service ${verdictWord(c.parties.service.status)}; `
    : '';
  return `flis ${command}: ${verdictWord(v.status)} (${parties}scope: ${scopePhrase(c)}${advisories}); exit ${exitCode}`;
}

/** Tokens in the environment: never written to a report, even by commands that hold no token of their own. */
export function envSecrets(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([k, v]) => /^FLIS_.*TOKEN$/.test(k) && v)
    .map(([, v]) => v as string)
    .flatMap((token) => secretsWithDerived([token]));
}

export interface FinishOptions {
  /** The command named in the closing line. */
  command: string;
  gates: GateOptions;
  strict: boolean;
  /** Said before the closing line when something failed (e.g. how to reproduce a run against the embedded mock). */
  onFailure?: string[] | undefined;
  /** Lines about the reports (e.g. the client traffic's failures) said before the closing line. */
  describe?: ((reports: RunReports) => string[]) | undefined;
  /** The run was stopped by this signal: the reports cover what ran, and the exit code is 130/143. */
  interrupted?: StopSignal | undefined;
}

export function finishRun(
  io: CommandIo,
  input: RunReportsInput,
  opts: FinishOptions,
): { exitCode: number; reports: RunReports } {
  const reports = writeRunReports(input);
  io.out(certificateSummary(reports.certificate, input.reportDir));
  io.out(driftSummary(reports.drift, input.reportDir));
  const hint = showReportHint(input.reportDir);
  if (hint) io.out(hint);
  const results = evaluateGates(reports.certificate, reports.drift, opts.gates);
  for (const g of results)
    io.out(`gate ${g.gate}: ${g.passed ? 'passed' : `FAILED (exit ${g.exitCode})`}: ${g.message}`);
  const exitCode = opts.interrupted
    ? SIGNAL_EXIT[opts.interrupted]
    : exitCodeWithGates(checkExitOf(reports.certificate, opts.strict), results);
  io.out(countsLine(reports.certificate));
  for (const g of reports.certificate.notJudged) io.out(`  ${notJudgedLine(g)}`);
  for (const line of opts.describe?.(reports) ?? []) io.out(line);
  if (reports.certificate.failures.length) for (const line of opts.onFailure ?? []) io.out(line);
  if (opts.interrupted)
    io.out(`flis ${opts.command}: interrupted by ${opts.interrupted}: the reports cover only what ran before it`);
  for (const line of partyLines(reports.certificate)) io.out(line);
  const who = opts.interrupted ? undefined : whoFailedLine(reports.certificate, exitCode);
  if (who) io.out(who);
  io.out(verdictLine(opts.command, reports.certificate, exitCode, opts.strict));
  return { exitCode, reports };
}
