/**
 * Runs the Playwright suites against a base URL: spawns `playwright test` with
 * the environment contract of docs/architecture.md and reads the JSON report.
 * The token travels only in the child's environment, never on a command line.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { ConfigError, FlisError } from '../errors/flis-error.ts';
import type { NetworkFacts } from '../reporting/certificate.ts';
import { clearReportFolder } from '../reporting/report-folder.ts';
import { redactText } from '../suites/lib/worker/redact.ts';
import {
  DEFAULT_CHECK_TIMEOUT_MS,
  DEFAULT_CONCURRENCY,
  DEFAULT_EXPLORE,
  DEFAULT_RUNS,
  DEFAULT_VISIBILITY_TIMEOUT_MS,
  DEFAULT_WORKERS,
  FROM_USER_ENV,
  type SuiteEnvName,
} from '../suites/lib/suite-env.ts';
import { pipeRedacted } from './redacting-stream.ts';
import { readOutcomes, toFailedTest, type FailedTest, type TestOutcome } from './results.ts';
import { codeFile, PACKAGE_ROOT } from '../specs/tool-files.ts';
import { suiteFileFilter } from './suite-names.ts';

/** The folder holding package.json: the clone, or the installed package (specs/tool-files.ts). */
export const PROJECT_ROOT = PACKAGE_ROOT;
const PLAYWRIGHT_CLI = createRequire(import.meta.url).resolve('@playwright/test/cli');

export type Progress = 'list' | 'dot' | 'none';

export interface SuiteRunOptions {
  /** Where the workers send: the gateway (or the recorder in front of it), or the target itself. */
  baseUrl: string;
  /** The deployment's own base URL, shown in failure records and curl commands; baseUrl when absent. */
  publicBaseUrl?: string | undefined;
  /** The nonce the gateway's synthetic answers carry (suites/lib/client.ts makes their checks inconclusive). */
  gatewayNonce?: string | undefined;
  /** Playwright's test timeout (ms): a check without an answer this long is stopped and inconclusive (each answer restarts it). */
  checkTimeoutMs?: number | undefined;
  /** Requests one worker may have in flight within a check (FLIS_CONCURRENCY). */
  concurrency?: number | undefined;
  /** The gateway's counts at the end of the run, written to run.json. */
  network?: () => NetworkFacts | undefined;
  /** Every secret known so far (tokens renewed during the run included), redacted from the output. */
  secrets?: () => string[];
  token: string;
  deployment: string;
  allowWrites: boolean;
  writesSkippedReason?: string | undefined;
  /** Playwright project names: the folders under suites/. All when absent. */
  suites?: string[] | undefined;
  reportDir: string;
  /** Who named the report folder (--report-dir, FLIS_REPORT_DIR), for its errors. */
  reportDirFrom?: string | undefined;
  seed?: number | undefined;
  /** One failing property to replay by its path (env FLIS_PATH, suites/lib/replay-path.ts). */
  path?: string | undefined;
  runs?: number | undefined;
  /** --explore N: the world-model explorer runs N times more sequences, N times longer (nightly CI). */
  explore?: number | undefined;
  runId?: string | undefined;
  /** The run's clock for request values (ms since epoch); a replay reuses the recorded one. */
  startedAt?: number | undefined;
  visibilityTimeoutMs?: number | undefined;
  progress?: Progress | undefined;
  workers?: number | undefined;
  /** Playwright sharding, "I/N": this process runs shard I of N and also leaves a blob report for `flis merge`. */
  shard?: string | undefined;
  /** Where progress lines go; defaults to this process's stdout. */
  onOutput?: (chunk: string) => void;
  /** For a run against the embedded mock: the flis command line that reproduces it (env FLIS_REPRODUCE). */
  reproduce?: string | undefined;
  /** 'results': only results.json, for callers that read the verdicts and nothing else (the fault tests). */
  reports?: 'all' | 'results';
  /** Resolves with the signal when the user interrupts the run: Playwright is stopped and reports what ran. */
  stop?: Promise<'SIGINT' | 'SIGTERM'> | undefined;
}

export interface SuiteRunResult {
  exitCode: number;
  passed: number;
  failed: number;
  skipped: number;
  failures: FailedTest[];
  outcomes: TestOutcome[];
  reportDir: string;
  seed: number;
  runId: string;
  /** Set when the run was interrupted: the signal that stopped it. */
  interrupted?: 'SIGINT' | 'SIGTERM';
  /** What reaching the deployment took (the gateway's counts), when the run went through the gateway. */
  network?: NetworkFacts;
}

/** Per-worker traffic summaries for the drift report, under the report dir. */
export const OBSERVATIONS_DIR = 'observations';

/**
 * What a run id may be: it is written into every id and reference the suites send, into paths and queries, and
 * printed on one line. Letters, digits, '.', '_' and '-', at most 64, starting with a letter or digit.
 */
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The run id as given, or a ConfigError naming where it came from (FLIS_RUN_ID, a cassette's runId label). */
export function checkRunId(value: string, source: string, where: { file?: string; line?: number } = {}): string {
  if (!RUN_ID.test(value))
    throw new ConfigError(
      `${source} must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (it tags every id the run writes); got ${JSON.stringify(value)}`,
      where,
    );
  return value;
}

export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `flis-${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}

export function newSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/**
 * What a child process needs from flis's own environment to run at all, on Linux, macOS and Windows: where programs
 * and the home and temporary folders are, the locale and time zone, and Node's own settings (a loader or heap size in
 * NODE_OPTIONS, extra CAs, coverage of the children). Nothing else of the user's shell reaches Playwright
 * (docs/architecture.md).
 */
export const PLATFORM_ENV_NAMES = [
  'PATH',
  'HOME',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'TZ',
  'USERPROFILE',
  'HOMEDRIVE',
  'HOMEPATH',
  'APPDATA',
  'LOCALAPPDATA',
  'TEMP',
  'TMP',
  'SystemRoot',
  'windir',
  'ComSpec',
  'PATHEXT',
  'NODE_OPTIONS',
  'NODE_EXTRA_CA_CERTS',
  'NODE_V8_COVERAGE',
] as const;

/** Each variable the runner sets from the run's options; undefined leaves it out (the suites' default applies). */
function suiteVariables(
  opts: SuiteRunOptions,
  seed: number,
  runId: string,
): Record<Exclude<SuiteEnvName, (typeof FROM_USER_ENV)[number]>, string | undefined> {
  return {
    FLIS_BASE_URL: opts.baseUrl,
    FLIS_PUBLIC_BASE_URL: opts.publicBaseUrl ?? opts.baseUrl,
    FLIS_GATEWAY_NONCE: opts.gatewayNonce || undefined,
    FLIS_CHECK_TIMEOUT_MS: String(opts.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS),
    FLIS_CONCURRENCY: String(opts.concurrency ?? DEFAULT_CONCURRENCY),
    FLIS_TOKEN: opts.token,
    FLIS_DEPLOYMENT: opts.deployment,
    FLIS_ALLOW_WRITES: opts.allowWrites ? '1' : '0',
    FLIS_WRITES_SKIPPED_REASON: opts.writesSkippedReason ?? '',
    FLIS_RUN_ID: runId,
    FLIS_SEED: String(seed),
    // Only the run's own --path: one left in the user's shell must not replay a path into another run.
    FLIS_PATH: opts.path,
    FLIS_RUN_STARTED_AT: String(opts.startedAt ?? Date.now()),
    FLIS_RUNS: String(opts.runs ?? DEFAULT_RUNS),
    FLIS_EXPLORE: String(opts.explore ?? DEFAULT_EXPLORE),
    FLIS_VISIBILITY_TIMEOUT_MS: String(opts.visibilityTimeoutMs ?? DEFAULT_VISIBILITY_TIMEOUT_MS),
    FLIS_REPORT_DIR: opts.reportDir,
    FLIS_OBSERVATIONS_DIR: join(opts.reportDir, OBSERVATIONS_DIR),
    FLIS_SHARD: opts.shard || undefined,
    FLIS_REPRODUCE: opts.reproduce || undefined,
    FLIS_PROGRESS: opts.progress ?? 'list',
    FLIS_REPORTS: opts.reports ?? 'all',
    FLIS_WORKERS: String(opts.workers ?? DEFAULT_WORKERS),
  };
}

/**
 * Playwright's environment: the platform's variables and the user's world-model switch from `userEnv`, then the
 * contract's variables from the run's options (suites/lib/suite-env.ts). Built from those names alone, so a variable
 * left over in the user's shell (a FLIS_SHARD, a FLIS_REPRODUCE of another run) never reaches the suites.
 */
export function suitesEnv(
  opts: SuiteRunOptions,
  seed: number,
  runId: string,
  userEnv: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of [...PLATFORM_ENV_NAMES, ...FROM_USER_ENV])
    if (userEnv[name] !== undefined) env[name] = userEnv[name];
  for (const [name, value] of Object.entries(suiteVariables(opts, seed, runId)))
    if (value !== undefined) env[name] = value;
  // Playwright's own colours are fine on a terminal; keep CI logs plain.
  env.FORCE_COLOR = process.stdout.isTTY ? '1' : '0';
  return env;
}

export async function runSuites(opts: SuiteRunOptions): Promise<SuiteRunResult> {
  const seed = opts.seed ?? newSeed();
  const runId = opts.runId ?? newRunId();
  const reportDir = resolve(opts.reportDir);
  // A run owns its report folder: what an earlier run wrote there goes (its results would be read as this run's,
  // its certificate would sit beside this run's results); a folder flis cannot prove its own is refused (exit 2).
  clearReportFolder(reportDir, opts.reportDirFrom);
  const secrets = () => [opts.token, ...(opts.secrets?.() ?? [])];
  const { code, interrupted } = await runPlaywright(opts, suitesEnv({ ...opts, reportDir }, seed, runId), secrets);
  const resultsFile = join(reportDir, 'results.json');
  checkResultsWritten(resultsFile, code, interrupted);
  const result: SuiteRunResult = {
    ...countsOf(resultsFile, code, interrupted, secrets),
    reportDir,
    seed,
    runId,
    ...(interrupted ? { interrupted } : {}),
  };
  const network = opts.network?.();
  writeRunSummary(result, opts, network);
  return network ? { ...result, network } : result;
}

function playwrightArgs(opts: SuiteRunOptions): string[] {
  return [
    PLAYWRIGHT_CLI,
    'test',
    '--config',
    codeFile('playwright.config'),
    ...(opts.suites ?? []).map((name) => suiteFileFilter(name)),
    ...(opts.shard ? ['--shard', opts.shard] : []),
  ];
}

/** Playwright's run of the suites, its output streamed through redaction: its exit code, and the signal that stopped it. */
async function runPlaywright(
  opts: SuiteRunOptions,
  env: NodeJS.ProcessEnv,
  secrets: () => string[],
): Promise<{ code: number; interrupted: SuiteRunResult['interrupted'] }> {
  const write = opts.onOutput ?? ((chunk: string) => process.stdout.write(chunk));
  let interrupted: 'SIGINT' | 'SIGTERM' | undefined;
  const code = await new Promise<number>((done, fail) => {
    const child = spawn(process.execPath, playwrightArgs(opts), {
      cwd: PROJECT_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A signal sent to flis alone (a CI cancel, `kill PID`) must stop Playwright too. SIGINT is the signal
    // Playwright handles gracefully: it stops the workers and still writes its reports of what ran.
    void opts.stop?.then((signal) => {
      interrupted = signal;
      if (child.exitCode === null) child.kill('SIGINT');
    });
    // If flis itself exits at once (a second signal), Playwright must not run on as an orphan.
    const killChild = () => child.exitCode === null && child.kill('SIGKILL');
    process.once('exit', killChild);
    child.on('close', () => process.off('exit', killChild));
    // Progress is streamed through redaction: a suite bug must not print the token.
    for (const out of [child.stdout, child.stderr])
      pipeRedacted(out, secrets, (t) => opts.progress !== 'none' && write(t));
    child.on('error', fail);
    child.on('close', (c) => done(c ?? 1));
  });
  return { code, interrupted };
}

/** Playwright's JSON report is there to read; interrupted before Playwright wrote it, an empty one stands in. */
function checkResultsWritten(resultsFile: string, code: number, interrupted: SuiteRunResult['interrupted']): void {
  if (!existsSync(resultsFile) && interrupted) {
    // Interrupted before Playwright wrote anything: an empty report, so the run still says what (nothing) ran.
    writeFileSync(resultsFile, JSON.stringify({ suites: [], errors: [] }));
  }
  if (!existsSync(resultsFile)) {
    throw new FlisError(
      'FLIS_ERR_INTERNAL',
      `playwright exited ${code} without writing ${resultsFile}; rerun with --progress list to see why`,
    );
  }
}

/** The run's verdict and counts, from Playwright's JSON report. */
function countsOf(
  resultsFile: string,
  code: number,
  interrupted: SuiteRunResult['interrupted'],
  secrets: () => string[],
): Pick<SuiteRunResult, 'exitCode' | 'passed' | 'failed' | 'skipped' | 'failures' | 'outcomes'> {
  const { outcomes, errors } = readOutcomes(resultsFile);
  const count = (s: TestOutcome['status']) => outcomes.filter((o) => o.status === s).length;
  const failed = count('failed') + errors.length;
  const contractFailed = outcomes.some((o) => o.status === 'failed' && o.severity === 'contract');
  return {
    // From the outcomes, not Playwright's exit code: an advisory failure alone is not a failed run (--strict decides).
    exitCode: contractFailed || errors.length > 0 || (code !== 0 && failed === 0 && !interrupted) ? 1 : 0,
    passed: count('passed') + count('flaky'),
    failed,
    skipped: count('skipped'),
    failures: [
      ...outcomes.filter((o) => o.status === 'failed').map(toFailedTest),
      ...errors.map((e) => ({ title: 'suite error', error: redactText(e, secrets()) })),
    ],
    outcomes,
  };
}

/** reports/run.json: what ran, with which seed, and what was skipped and why (never the token). */
function writeRunSummary(r: SuiteRunResult, opts: SuiteRunOptions, network: NetworkFacts | undefined): void {
  const skippedOf = (kind: string) =>
    r.outcomes
      .filter((o) => o.status === 'skipped' && (o.skipKind ?? 'skipped') === kind)
      .map((o) => ({ title: o.title, ...(o.check ? { check: o.check } : {}), reason: o.skipReason ?? 'skipped' }));
  const skipped = r.outcomes
    .filter((o) => o.status === 'skipped')
    .map((o) => ({ title: o.title, kind: o.skipKind ?? 'skipped', reason: o.skipReason ?? 'skipped' }));
  const summary = {
    deployment: opts.deployment,
    baseUrl: opts.publicBaseUrl ?? opts.baseUrl,
    seed: r.seed,
    runId: r.runId,
    suites: opts.suites ?? 'all',
    ...(opts.shard ? { shard: opts.shard } : {}),
    allowWrites: opts.allowWrites,
    passed: r.passed,
    failed: r.failed,
    skipped: r.skipped,
    blocked: skippedOf('blocked').length,
    inconclusive: skippedOf('inconclusive').length,
    ...(r.interrupted ? { interrupted: r.interrupted } : {}),
    ...(network ? { network } : {}),
    skippedTests: skipped,
    blockedTests: skippedOf('blocked'),
    inconclusiveTests: skippedOf('inconclusive'),
    failures: r.failures.map((f) => ({
      title: f.title,
      check: f.check,
      clause: f.clause,
      operation: f.operation,
      severity: f.severity ?? 'contract',
    })),
  };
  writeFileSync(join(r.reportDir, 'run.json'), `${JSON.stringify(summary, null, 2)}\n`);
}
