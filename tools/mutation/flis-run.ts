/**
 * One `flis run` in the sandbox: against the clean instrumented mock, or with one mutant switched on. It runs in a
 * process group of its own, with only the environment a child needs (no FLIS_* variable of the user's shell leaks
 * in). The progress is read as it comes: at the first failed test of a contract check the run is interrupted
 * (SIGINT, as Ctrl-C: flis cleans up and writes what ran), since the mutant is killed whatever comes after. Past
 * its deadline the whole group is stopped.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { failedCheckOf, isContractCheck, type RunFailure, type RunOutcome } from './outcome.ts';

export interface FlisRun {
  sandbox: string;
  /** Where this run's reports go (removed after they are read). */
  reportDir: string;
  seed: number;
  /** Extra `flis run` options (e.g. --runs 10). */
  args: readonly string[];
  /** The mutant switched on, or none for the clean run. */
  mutantId?: string | undefined;
  timeoutMs: number;
  /** Interrupt at the first contract failure (not for the clean run, which must pass whole). */
  stopEarly: boolean;
  /** The clean run dumps the mutants its requests reached here (coverage-hook.mjs). */
  coverageDir?: string | undefined;
}

const PASSED_ON = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ', 'SystemRoot', 'TEMP', 'TMP'];

function childEnv(run: FlisRun): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of PASSED_ON) if (process.env[name] !== undefined) env[name] = process.env[name];
  if (run.mutantId !== undefined) env.__STRYKER_ACTIVE_MUTANT__ = run.mutantId;
  if (run.coverageDir !== undefined) {
    const hook = pathToFileURL(join(import.meta.dirname, 'coverage-hook.mjs')).href;
    env.NODE_OPTIONS = `--import ${hook}`;
    env.FLIS_MUTATION_COVERAGE_DIR = run.coverageDir;
  }
  return env;
}

interface RunJson {
  failures?: RunFailure[];
  skipped?: number;
  blocked?: number;
  inconclusive?: number;
  skippedTests?: { kind?: string; reason?: string }[];
}

/** The first few distinct reasons a run gave for tests it did not judge, blocked and inconclusive first. */
export function skipReasons(tests: RunJson['skippedTests'], max = 3): string[] {
  const rank = (kind: string | undefined) => (kind === 'blocked' ? 0 : kind === 'inconclusive' ? 1 : 2);
  const sorted = [...(tests ?? [])].sort((a, b) => rank(a.kind) - rank(b.kind));
  const reasons = sorted.map((t) => {
    const flat = String(t.reason ?? 'skipped')
      .replace(/\s+/g, ' ')
      .trim();
    return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
  });
  return [...new Set(reasons)].slice(0, max);
}

function readRunJson(dir: string): RunJson | undefined {
  const file = join(dir, 'run.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as RunJson;
  } catch {
    return undefined;
  }
}

/** The line of a run's stderr that names what went wrong: the first that reads as an error, else the last. */
export function errorLineOf(stderr: string): string | undefined {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('at '));
  return lines.find((l) => /\b(?:\w*Error|ERR_\w+|error)\b/.test(l)) ?? lines.at(-1);
}

/** The process groups of the runs under way, so that Ctrl-C stops them all (they are detached from the terminal). */
const running = new Set<number>();

export function stopAllRuns(): void {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGINT');
    } catch {
      // Ended already.
    }
  }
}

/** Runs flis; resolves with what the run says and how long it took. */
export function flisRun(run: FlisRun): Promise<RunOutcome & { ms: number }> {
  const started = performance.now();
  const args = [
    join(run.sandbox, 'bin', 'flis.js'),
    'run',
    '--seed',
    String(run.seed),
    '--progress',
    'list',
    '--report-dir',
    run.reportDir,
    ...run.args,
  ];
  const child = spawn(process.execPath, args, { cwd: run.sandbox, env: childEnv(run), detached: true });
  if (child.pid !== undefined) running.add(child.pid);
  let stoppedAt: string | undefined;
  let timedOut = false;
  let lastLine: string | undefined;
  let pending = '';
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  const onLine = (line: string) => {
    if (line.trim() !== '') lastLine = line.trim();
    const check = failedCheckOf(line);
    if (!run.stopEarly || stoppedAt !== undefined || check === undefined || !isContractCheck(check)) return;
    stoppedAt = check;
    child.kill('SIGINT');
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < 16_384) stderr += chunk;
  });
  const deadline = setTimeout(() => {
    timedOut = true;
    signalGroup('SIGTERM');
    setTimeout(() => signalGroup('SIGKILL'), 5_000).unref();
  }, run.timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(deadline);
      if (child.pid !== undefined) running.delete(child.pid);
      // Playwright's workers live in the run's group: none may outlive it.
      signalGroup('SIGKILL');
      const json = readRunJson(run.reportDir);
      rmSync(run.reportDir, { recursive: true, force: true });
      resolve({
        exitCode: code,
        timedOut,
        stoppedAt,
        failures: json?.failures ?? [],
        ranChecks: json !== undefined,
        skipped:
          json?.skipped !== undefined
            ? {
                skipped: json.skipped,
                blocked: json.blocked ?? 0,
                inconclusive: json.inconclusive ?? 0,
                reasons: skipReasons(json.skippedTests),
              }
            : undefined,
        lastLine: errorLineOf(stderr) ?? lastLine,
        ms: performance.now() - started,
      });
    });
  });
}
