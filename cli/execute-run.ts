/**
 * Execute a run plan (cli/run-plan.ts) for `flis run` and `flis certify`:
 * reach the target through the gateway, run the suites, undo what an
 * interrupted run wrote, write the reports and decide the exit code.
 */
import { join } from 'node:path';
import { checkWritableCassette } from '../recorder/cassette-path.ts';
import { skipSummary } from '../reporting/certificate.ts';
import type { RobustnessRow } from '../reporting/robustness.ts';
import type { RunReports, RunReportsInput } from '../reporting/run-reports.ts';
import { groupSkips, skipGroupLine } from '../reporting/skip-groups.ts';
import { describeNetwork, networkWorthSaying } from '../reporting/network-summary.ts';
import {
  DEFAULT_WORKERS,
  DISTANT_ROUND_TRIP_MS,
  defaultWorkers,
  runWorkers,
  workerConcurrency,
} from '../runner/run-limits.ts';
import type { Reached, ReachOptions } from '../runner/reach-target.ts';
import type { SuiteRunOptions, SuiteRunResult } from '../runner/run-suites.ts';
import { suiteNames } from '../runner/suite-names.ts';
import type { CommandIo } from './command.ts';
import type { RunPlan } from './run-plan.ts';

/**
 * The run's summary: every failure one line each, then what did not run, one line per owning check and cause as the
 * certificate's banner says it ("9 tests blocked by response-schema (getOffer: …)"), never one per test.
 */
export function runSummaryLines(
  r: Pick<SuiteRunResult, 'failures' | 'outcomes' | 'seed' | 'runId' | 'reportDir'>,
  deployment: string,
): string[] {
  return [
    '',
    ...r.failures.map(
      (f) => `${f.severity === 'advisory' ? 'ADVISORY' : 'FAILED'} [${f.check ?? '?'}] ${f.clause ?? ''} — ${f.title}`,
    ),
    ...groupSkips(skipSummary(r.outcomes)).map(skipGroupLine),
    `flis run against ${deployment}: seed ${r.seed}, run id ${r.runId}`,
    `reports: ${r.reportDir}/html/index.html, ${r.reportDir}/junit.xml, ${r.reportDir}/run.json`,
  ];
}

function clientTrafficFailures(reports: RunReports): string[] {
  return reports.certificate.failures
    .filter((f) => f.source === 'traffic')
    .map(
      (f) => `CLIENT TRAFFIC FAILED [${f.check}] ${f.clause}${f.operationId ? ` ${f.operationId}` : ''}: ${f.message}`,
    );
}

function opening(plan: RunPlan, publicBaseUrl: string): string {
  const t = plan.target;
  if (plan.command === 'certify')
    return `flis certify: ${plan.partner} on ${t.name} at ${publicBaseUrl}${plan.clientCassettes.length ? `, with ${plan.clientCassettes.length} cassette(s) of client traffic` : ''}`;
  return `flis run: ${t.name} at ${publicBaseUrl}${t.allowWrites ? '' : ` (read-only: ${t.writesSkippedReason})`}`;
}

/**
 * What a run needs once its arguments are known: the target, the gateway, the reports. Loaded after parsing,
 * so `--help` and a usage error answer at once.
 */
function loadRuntime() {
  return Promise.all([
    import('../runner/reach-target.ts'),
    import('../runner/run-suites.ts'),
    import('./finish-run.ts'),
    import('./undo-interrupted.ts'),
    import('../reporting/report-folder.ts'),
  ]);
}

export async function executeRun(plan: RunPlan, io: CommandIo): Promise<number> {
  const [{ reachTarget }, { runSuites }, { finishRun }, { undoIfInterrupted }, { checkReportFolder }] =
    await loadRuntime();
  const { target } = plan;
  // Before the target starts: a report folder flis may not write is one line, not a mock started for nothing.
  checkReportFolder(plan.reportDir, plan.reportDirFrom);
  if (plan.record) checkWritableCassette(plan.record);
  const live = await reachTarget({
    target,
    embedded: plan.embedded,
    connection: plan.connection,
    limits: plan.limits,
    env: io.env,
    replay: plan.replay?.cassette,
    record: recording(plan, io),
  });
  try {
    io.out(opening(plan, live.publicBaseUrl));
    const result = await runSuites(suiteRunOptions(plan, live, io));
    if (plan.command === 'run') for (const line of runSummaryLines(result, target.name)) io.out(line);
    await undoIfInterrupted(io, result, {
      command: plan.command,
      baseUrl: live.baseUrl,
      token: live.token,
      deployment: target.name,
      wrote: target.allowWrites && !plan.replay,
    });
    if (plan.command === 'certify')
      io.out(
        `suites: ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped (seed ${result.seed}, run id ${result.runId})`,
      );
    const client = await judgeClient(plan, io);
    if (networkWorthSaying(result.network))
      io.out(`network: ${describeNetwork(result.network)}; none of these is a failure of the deployment`);
    const { exitCode, reports } = finishRun(io, runReportsInput(plan, live, result, client), {
      command: plan.command,
      gates: plan.gates,
      strict: plan.strict,
      // Client traffic that breaks the contract fails the certification as a failed suite check does.
      describe: plan.command === 'certify' ? clientTrafficFailures : undefined,
      onFailure: plan.reproduce ? [`reproduce against the embedded mock: ${plan.reproduce}`] : undefined,
      interrupted: result.interrupted,
    });
    if (plan.publish && !result.interrupted)
      return Math.max(exitCode, await publishRun(plan, reports.certificate, client.cassettes, io));
    return exitCode;
  } finally {
    await live.close();
  }
}

/**
 * flis certify --publish: the certificate and the partner's cassette go to the registry. A refusal is one line and
 * exit 2; the certification's own verdict and exit code stand beside it.
 */
async function publishRun(
  plan: RunPlan,
  certificate: RunReports['certificate'],
  cassettes: string[],
  io: CommandIo,
): Promise<number> {
  const [{ publishCertificate }, { RegistryClient }, { certificateBaseName }] = await Promise.all([
    import('../registry/publish.ts'),
    import('../registry/client.ts'),
    import('../reporting/write-certificate.ts'),
  ]);
  const file = join(plan.reportDir, `${certificateBaseName(certificate.subject.partner)}.json`);
  try {
    const r = await publishCertificate(RegistryClient.fromEnv(plan.publish as string, io.env, '--publish'), {
      certificate: file,
      cassette: cassettes[0],
      env: io.env,
    });
    io.out(
      `flis certify: ${r.created ? 'published' : 'already published'} to ${plan.publish}: publication ${r.id} of ${r.partner}${cassettes[0] ? ', with its cassette' : ', without a cassette'}; ${r.url}`,
    );
    return 0;
  } catch (e) {
    io.err(`flis certify: not published to ${plan.publish}: ${(e as Error).message}`);
    return 2;
  }
}

/** flis run --record: the cassette and the labels a replay of it needs to rerun the same run. */
function recording(plan: RunPlan, io: CommandIo): ReachOptions['record'] {
  if (!plan.record) return undefined;
  return {
    cassette: plan.record,
    labels: {
      runId: plan.runId as string,
      seed: plan.seed as number,
      startedAt: plan.startedAt,
      runs: plan.runs,
      explore: plan.explore,
      suites: plan.suites,
    },
    log: (line: string) => io.err(line),
  };
}

/** The suites' options: the target as reached, and the workers (--workers, else by the deployment's round trip). */
function suiteRunOptions(plan: RunPlan, live: Reached, io: CommandIo): SuiteRunOptions {
  const { target, limits } = plan;
  // --distant stands for a network the probe cannot see: a loopback tunnel or front to a deployment far away.
  const roundTripMs = plan.distant ? Math.max(live.roundTripMs ?? 0, DISTANT_ROUND_TRIP_MS) : live.roundTripMs;
  if (plan.workers === undefined && defaultWorkers(roundTripMs) !== DEFAULT_WORKERS)
    io.out(
      `a distant deployment (${plan.distant ? '--distant' : `median round trip ${roundTripMs} ms`}): ${defaultWorkers(roundTripMs)} Playwright workers, ${workerConcurrency(roundTripMs)} requests in flight each within a check (--workers to choose)`,
    );
  return {
    baseUrl: live.baseUrl,
    publicBaseUrl: live.publicBaseUrl,
    token: live.token,
    secrets: live.secrets,
    network: live.network,
    deployment: target.name,
    allowWrites: target.allowWrites,
    writesSkippedReason: target.writesSkippedReason,
    reportDir: plan.reportDir,
    reportDirFrom: plan.reportDirFrom,
    progress: plan.progress,
    startedAt: plan.startedAt,
    gatewayNonce: live.gatewayNonce || undefined,
    checkTimeoutMs: limits.checkTimeoutMs,
    suites: plan.suites,
    seed: plan.seed,
    path: plan.path || undefined,
    runs: plan.runs,
    explore: plan.explore,
    visibilityTimeoutMs: plan.visibilityTimeoutMs,
    workers: runWorkers(plan.workers, roundTripMs),
    // Recorded and replayed runs send one request at a time too: requests a cassette cannot tell apart (a valid and a
    // near-miss token, both redacted) are answered in their recorded order.
    concurrency: plan.record || plan.replay ? 1 : (plan.concurrency ?? workerConcurrency(roundTripMs)),
    shard: plan.shard || undefined,
    runId: plan.runId || undefined,
    reproduce: plan.reproduce || undefined,
    stop: io.signal,
  };
}

/**
 * flis certify's view of the partner's client: the client's own command against each conformant variant
 * (--client-command), and the cassettes its traffic is judged from; its plain-mock run is that traffic when no
 * cassette was given.
 */
async function judgeClient(
  plan: RunPlan,
  io: CommandIo,
): Promise<{ cassettes: string[]; robustness: RobustnessRow[] | undefined }> {
  if (!plan.clientCommand) return { cassettes: plan.clientCassettes, robustness: undefined };
  const robust = await import('./robustness.ts');
  const robustness = await robust.runRobustness({
    command: plan.clientCommand,
    reportDir: plan.reportDir,
    env: io.env,
    progress: (line) => io.out(line),
  });
  const cassettes = plan.clientCassettes.length
    ? plan.clientCassettes
    : [join(plan.reportDir, robust.ROBUSTNESS_DIR, 'default.yaml')];
  return { cassettes, robustness };
}

/** What the certificate and drift report are written from. */
function runReportsInput(
  plan: RunPlan,
  live: Reached,
  result: SuiteRunResult,
  client: { cassettes: string[]; robustness: RobustnessRow[] | undefined },
): RunReportsInput {
  const { target, suites } = plan;
  return {
    reportDir: plan.reportDir,
    secrets: live.secrets(),
    cassettes: client.cassettes.length ? client.cassettes : undefined,
    clientClaim: plan.clientClaim,
    robustness: client.robustness,
    subject: {
      deployment: target.name,
      baseUrl: live.publicBaseUrl,
      partner: plan.partner || undefined,
    },
    facts: {
      seed: result.seed,
      runId: result.runId,
      // Naming every suite is running them all: the verdict's scope is not narrowed by it.
      suites: !suites || suiteNames().every((n) => suites.includes(n)) ? 'all' : suites,
      allowWrites: target.allowWrites,
      shard: plan.shard || undefined,
      network: result.network,
    },
  };
}
