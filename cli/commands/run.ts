/**
 * `flis run`: resolve the target, start it if it is the embedded mock, run the
 * suites, print a summary a person reads and an exit code CI gates on.
 */
import { resolve } from 'node:path';
import { resolveTarget } from '../../config/deployments.ts';
import { oneOf, UsageError } from '../../errors/flis-error.ts';
import { faultNames, type FaultName } from '../../mock/faults.ts';
import { variantPresets } from '../../mock/variant.ts';
import { webhookFaultNames, type WebhookFaultName } from '../../mock/webhook-faults.ts';
import { newRunId, newSeed, runSuites, type Progress, type SuiteRunResult } from '../../runner/run-suites.ts';
import type { EmbeddedOptions } from '../../runner/start-target.ts';
import { suiteNames } from '../../runner/suite-names.ts';
import { flagOrEnv, intOption, listOption, parseCommandArgs } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';
import { gateOptionSpec, parseGates, STRICT_HELP, strictOf } from '../gate-options.ts';
import { GATES_HELP } from '../../reporting/gates.ts';
import { probeTarget } from '../../runner/probe-target.ts';

const help = `Usage: flis run [options]

Run the conformance suites against a deployment and write reports.
With no options, starts the embedded mock on a free loopback port and runs every suite against it.

Target (default: the embedded mock):
  --deployment NAME        a deployment of specs/deployments.yaml: embedded, mock, sandbox,
                           production-1, production-2, production-3           [env FLIS_DEPLOYMENT]
  --base-url URL           an ad-hoc deployment; must end in /apis/v0          [env FLIS_BASE_URL]
  --allow-writes           let write checks run against live-data deployments and ad-hoc URLs
                           (they are skipped there otherwise)                  [env FLIS_ALLOW_WRITES=1]
  The bearer token comes from the variable the deployment names, else FLIS_TOKEN. It is never printed.

Selection and reproduction:
  --suite NAMES            comma-separated suites (${'${suites}'})             [env FLIS_SUITES]
  --seed N                 fast-check seed; printed and written to the reports [env FLIS_SEED]
  --runs N                 fast-check runs per property                        [env FLIS_RUNS]
  --visibility-timeout MS  how long to poll for an asynchronous write to show (default 10000)

Output:
  --report-dir DIR         where reports go (default reports/)                 [env FLIS_REPORT_DIR]
  --progress list|dot|none how progress is shown (default list)
  --workers N              parallel Playwright workers (default 2)
  --shard I/N              run shard I of N (Playwright sharding) and leave DIR/blob/ for 'flis merge';
                           give every shard the same --seed and FLIS_RUN_ID

Recording and offline replay:
  --record FILE            record the run's traffic into a YAML cassette through the recording proxy
                           (one worker; the run id and seed go into the cassette header)
  --cassette FILE          run offline against a cassette recorded with --record, reusing its run id,
                           seed and suites; no network

Embedded mock only (to see the suite catch faults):
  --mock-fault NAME        switch a deliberate contract violation on (repeatable; see 'flis mock --help')
  --mock-variant NAME      default | different | eventual: conformant choices the spec leaves open
  --mock-write-delay MS    delay before an asynchronous write becomes visible
  --mock-webhook-fault NAME  switch a deliberate webhook violation on (repeatable; see 'flis mock --help')
  --mock-drift             answer with drift (undocumented fields added, a documented one removed)

${STRICT_HELP}
${'${gates}'}

Verdict (certificate.json verdict.status): certified (the whole contract exercised, nothing failed),
certified-with-advisories (only advisory failures), partial (nothing failed on a contract rule, but not
every operation was exercised or some checks were skipped, e.g. read-only), not-certified.
A read-only target (live data, or --base-url without --allow-writes) never receives a POST, PUT, PATCH
or DELETE. An unreachable target exits 2 before any suite runs. The first SIGINT/SIGTERM stops the run,
undoes what it wrote, writes the reports of what ran and exits 130/143; a second one exits at once.

Reports: DIR/html/index.html (Playwright), DIR/junit.xml, DIR/results.json, DIR/run.json,
DIR/allure-results/ ('flis report' builds the Allure HTML), DIR/certificate.json and DIR/certificate.html
(the conformance certificate), DIR/drift.md and DIR/drift.json (undocumented fields, values and status
codes; proposed schemas in DIR/proposed-schemas/).`;

const options = {
  deployment: { type: 'string' },
  'base-url': { type: 'string' },
  'allow-writes': { type: 'boolean' },
  suite: { type: 'string', multiple: true },
  seed: { type: 'string' },
  runs: { type: 'string' },
  'visibility-timeout': { type: 'string' },
  'report-dir': { type: 'string' },
  progress: { type: 'string' },
  workers: { type: 'string' },
  shard: { type: 'string' },
  ...gateOptionSpec,
  record: { type: 'string' },
  cassette: { type: 'string' },
  'mock-fault': { type: 'string', multiple: true },
  'mock-variant': { type: 'string' },
  'mock-write-delay': { type: 'string' },
  'mock-webhook-fault': { type: 'string', multiple: true },
  'mock-drift': { type: 'boolean' },
} as const;

function embeddedOptions(v: {
  'mock-fault'?: string[];
  'mock-variant'?: string;
  'mock-write-delay'?: string;
  'mock-webhook-fault'?: string[];
  'mock-drift'?: boolean;
}): EmbeddedOptions {
  const faults = (listOption(v['mock-fault']) ?? []).map((f) => oneOf<FaultName>('--mock-fault', f, faultNames));
  const variantName = v['mock-variant']
    ? oneOf('--mock-variant', v['mock-variant'], Object.keys(variantPresets) as (keyof typeof variantPresets)[])
    : undefined;
  const writeDelayMs = intOption('mock-write-delay', v['mock-write-delay'], { max: 600_000 });
  const webhookFaults = (listOption(v['mock-webhook-fault']) ?? []).map((f) =>
    oneOf<WebhookFaultName>('--mock-webhook-fault', f, webhookFaultNames),
  );
  return {
    ...(faults.length ? { faults } : {}),
    ...(variantName ? { variant: variantPresets[variantName] } : {}),
    ...(writeDelayMs !== undefined ? { writeDelayMs } : {}),
    ...(webhookFaults.length ? { webhookFaults } : {}),
    ...(v['mock-drift'] ? { drift: true } : {}),
  };
}

function selectSuites(raw: string[] | undefined): string[] | undefined {
  const wanted = listOption(raw);
  const known = suiteNames();
  for (const s of wanted ?? []) oneOf('--suite', s, known);
  return wanted;
}

const SKIP_LABEL = {
  blocked: 'BLOCKED',
  inconclusive: 'INCONCLUSIVE',
  'not-shown': 'NOT SHOWN',
  skipped: 'skipped',
} as const;

function printSummary(io: CommandIo, r: SuiteRunResult, deployment: string): void {
  io.out('');
  for (const f of r.failures)
    io.out(`${f.severity === 'advisory' ? 'ADVISORY' : 'FAILED'} [${f.check ?? '?'}] ${f.clause ?? ''} — ${f.title}`);
  // Blocked and inconclusive tests one by one (they name what stopped them); plain skips by reason.
  const skippedReasons = new Map<string, number>();
  for (const o of r.outcomes.filter((x) => x.status === 'skipped')) {
    const kind = o.skipKind ?? 'skipped';
    if (kind !== 'skipped' && kind !== 'not-shown')
      io.out(`${SKIP_LABEL[kind]} [${o.check ?? '?'}] ${o.title}: ${o.skipReason}`);
    else skippedReasons.set(o.skipReason ?? 'skipped', (skippedReasons.get(o.skipReason ?? 'skipped') ?? 0) + 1);
  }
  for (const [reason, n] of skippedReasons) io.out(`skipped ${n}: ${reason}`);
  io.out(`flis run against ${deployment}: seed ${r.seed}, run id ${r.runId}`);
  io.out(`reports: ${r.reportDir}/html/index.html, ${r.reportDir}/junit.xml, ${r.reportDir}/run.json`);
}

/** The flis command line that reruns an embedded-mock run: same seed, suites, runs and mock switches. */
export function reproduceCommand(v: {
  seed: number;
  suites?: string[];
  runs?: number;
  visibilityTimeoutMs?: number;
  embedded: EmbeddedOptions;
  variantName?: string;
}): string {
  const e = v.embedded;
  return [
    'npx flis run',
    `--seed ${v.seed}`,
    ...(v.suites ? [`--suite ${v.suites.join(',')}`] : []),
    ...(v.runs !== undefined ? [`--runs ${v.runs}`] : []),
    ...(v.visibilityTimeoutMs !== undefined ? [`--visibility-timeout ${v.visibilityTimeoutMs}`] : []),
    ...(e.faults ?? []).map((f) => `--mock-fault ${f}`),
    ...(v.variantName ? [`--mock-variant ${v.variantName}`] : []),
    ...(e.writeDelayMs !== undefined ? [`--mock-write-delay ${e.writeDelayMs}`] : []),
    ...(e.webhookFaults ?? []).map((f) => `--mock-webhook-fault ${f}`),
    ...(e.drift ? ['--mock-drift'] : []),
  ].join(' ');
}

/**
 * What a run needs once its arguments are known: the mock, the cassette proxy,
 * the reports. Loaded after parsing, so `--help` and a usage error answer at once.
 */
function loadRuntime() {
  return Promise.all([
    import('../../runner/cassette-target.ts'),
    import('../../runner/start-target.ts'),
    import('../finish-run.ts'),
    import('../undo-interrupted.ts'),
  ]);
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values: v } = parseCommandArgs('run', argv, options);
  if (v.help) {
    io.out(help.replace('${suites}', suiteNames().join(', ')).replace('${gates}', GATES_HELP));
    return EXIT.ok;
  }
  const env = io.env;
  if (v.record && v.cassette) throw new UsageError('give either --record FILE or --cassette FILE, not both');
  const [{ recordedRun, recordThrough, startCassetteTarget }, { startTarget }, { finishRun }, { undoIfInterrupted }] =
    await loadRuntime();
  const replayed = v.cassette ? recordedRun(resolve(v.cassette)) : undefined;
  const baseUrl = v['base-url'] ?? (env.FLIS_BASE_URL || undefined);
  const deployment = v.deployment ?? (env.FLIS_DEPLOYMENT || undefined);
  if (replayed && (baseUrl || deployment))
    throw new UsageError('--cassette replays offline: it takes no --deployment or --base-url');
  const resolved = replayed
    ? {
        name: `cassette of ${replayed.deployment}`,
        embedded: false,
        liveData: false,
        allowWrites: true,
        writesSkippedReason: '',
      }
    : resolveTarget(
        {
          ...(deployment ? { deployment } : {}),
          ...(baseUrl ? { baseUrl } : {}),
          allowWrites: flagOrEnv(v['allow-writes'], env.FLIS_ALLOW_WRITES),
        },
        env,
      );
  const embedded = embeddedOptions(v);
  if (
    !resolved.embedded &&
    (embedded.faults ||
      embedded.variant ||
      embedded.writeDelayMs !== undefined ||
      embedded.webhookFaults ||
      embedded.drift)
  ) {
    throw new UsageError(
      `--mock-fault, --mock-variant, --mock-write-delay, --mock-webhook-fault and --mock-drift apply only to the embedded mock, not to '${resolved.name}'`,
    );
  }
  const suites = selectSuites(v.suite ?? (env.FLIS_SUITES ? [env.FLIS_SUITES] : undefined)) ?? replayed?.suites;
  // Drawn here, not by the runner, so an embedded-mock run can say how to reproduce it.
  const seed =
    replayed?.seed ??
    intOption('seed', v.seed ?? env.FLIS_SEED, { max: 2 ** 31 - 1 }) ??
    (v.record || resolved.embedded ? newSeed() : undefined);
  const runs = replayed?.runs ?? intOption('runs', v.runs ?? env.FLIS_RUNS, { min: 1, max: 100_000 });
  const visibilityTimeoutMs = intOption('visibility-timeout', v['visibility-timeout'], { max: 3_600_000 });
  // A recorded or replayed run uses one worker, so repeated requests keep their recorded order.
  const workers = v.record || replayed ? 1 : intOption('workers', v.workers, { min: 1, max: 64 });
  const progress = oneOf<Progress>('--progress', v.progress ?? 'list', ['list', 'dot', 'none']);
  const reportDir = resolve(v['report-dir'] ?? env.FLIS_REPORT_DIR ?? 'reports');
  const shard = parseShard(v.shard);
  const gates = parseGates(v);
  // Shards of one CI run share the run id, so what they write is tagged alike and the merged certificate names one run.
  const runId = replayed?.runId ?? (env.FLIS_RUN_ID || (v.record ? newRunId() : undefined));
  const startedAt = replayed?.startedAt ?? Date.now();

  // The embedded mock and a cassette replay are always there; anything else is probed before Playwright starts.
  if (!replayed && !resolved.embedded && resolved.baseUrl) await probeTarget(resolved.baseUrl);
  const reproduce = resolved.embedded
    ? reproduceCommand({
        seed: seed!,
        embedded,
        ...(v['mock-variant'] && v['mock-variant'] !== 'default' ? { variantName: v['mock-variant'] } : {}),
        ...(suites ? { suites } : {}),
        ...(runs !== undefined ? { runs } : {}),
        ...(visibilityTimeoutMs !== undefined ? { visibilityTimeoutMs } : {}),
      })
    : undefined;
  const target = replayed ? await startCassetteTarget(resolve(v.cassette!)) : await startTarget(resolved, embedded);
  const live = v.record
    ? await recordThrough(
        target,
        resolve(v.record),
        resolved.name,
        {
          runId: runId!,
          seed: seed!,
          startedAt,
          ...(runs !== undefined ? { runs } : {}),
          ...(suites ? { suites } : {}),
        },
        (line) => io.err(line),
      )
    : target;
  try {
    io.out(
      `flis run: ${resolved.name} at ${live.baseUrl}${resolved.allowWrites ? '' : ` (read-only: ${resolved.writesSkippedReason})`}`,
    );
    const result = await runSuites({
      baseUrl: live.baseUrl,
      token: live.token,
      deployment: resolved.name,
      allowWrites: resolved.allowWrites,
      writesSkippedReason: resolved.writesSkippedReason,
      reportDir,
      progress,
      ...(suites ? { suites } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(runs !== undefined ? { runs } : {}),
      ...(visibilityTimeoutMs !== undefined ? { visibilityTimeoutMs } : {}),
      ...(workers !== undefined ? { workers } : {}),
      ...(shard ? { shard } : {}),
      ...(runId ? { runId } : {}),
      ...(reproduce ? { reproduce } : {}),
      ...(io.signal ? { stop: io.signal } : {}),
      startedAt,
    });
    printSummary(io, result, resolved.name);
    await undoIfInterrupted(io, result, {
      command: 'run',
      baseUrl: live.baseUrl,
      token: live.token,
      deployment: resolved.name,
      wrote: resolved.allowWrites && !replayed,
    });
    const facts = {
      seed: result.seed,
      runId: result.runId,
      // Naming every suite is running them all: the verdict's scope is not narrowed by it.
      suites: !suites || suiteNames().every((n) => suites.includes(n)) ? ('all' as const) : suites,
      allowWrites: resolved.allowWrites,
      ...(shard ? { shard } : {}),
    } as const;
    const subject = { deployment: resolved.name, baseUrl: live.baseUrl };
    const { exitCode } = finishRun(
      io,
      { reportDir, subject, facts, secrets: [live.token] },
      {
        command: 'run',
        gates,
        strict: strictOf(v, env),
        ...(reproduce ? { onFailure: [`reproduce against the embedded mock: ${reproduce}`] } : {}),
        ...(result.interrupted ? { interrupted: result.interrupted } : {}),
      },
    );
    return exitCode;
  } finally {
    await live.close();
  }
}

/** "I/N" with 1 ≤ I ≤ N, as Playwright's --shard takes it. */
export function parseShard(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const m = raw.match(/^(\d+)\/(\d+)$/);
  const [i, n] = [Number(m?.[1]), Number(m?.[2])];
  if (!m || i < 1 || n < 1 || i > n)
    throw new UsageError(`--shard must be I/N with 1 ≤ I ≤ N (e.g. 2/4); got '${raw}'`);
  return `${i}/${n}`;
}

export const runCommand: Command = {
  name: 'run',
  help,
  run,
};
