/**
 * One real suite run against a fresh embedded mock, for the tests that prove
 * the suites catch the mock's faults and pass its conformant variants. One
 * Playwright worker per run: the fault tests run several at a time on two cores.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FaultName } from '../../mock/faults.ts';
import { startMock } from '../../mock/server.ts';
import type { MockVariant } from '../../mock/variant.ts';
import { runSuites, type SuiteRunResult } from '../../runner/run-suites.ts';

export interface MockRun {
  token: string;
  suites: string[];
  reportDir: string;
  runId: string;
  visibilityTimeoutMs: number;
  faults?: FaultName[] | undefined;
  variant?: MockVariant | undefined;
  writeDelayMs?: number | undefined;
  seed?: number;
  runs?: number;
  /** Playwright workers (default 1: the fault tests run several runs at a time on two cores). */
  workers?: number;
}

export async function runOnMock(r: MockRun): Promise<SuiteRunResult> {
  const mock = await startMock({
    token: r.token,
    faults: r.faults,
    variant: r.variant,
    writeDelayMs: r.writeDelayMs ?? 0,
  });
  try {
    return await runSuites({
      baseUrl: mock.baseUrl,
      token: r.token,
      deployment: 'embedded',
      allowWrites: true,
      suites: r.suites,
      reportDir: r.reportDir,
      runId: r.runId,
      visibilityTimeoutMs: r.visibilityTimeoutMs,
      progress: 'none',
      workers: r.workers ?? 1,
      // These tests read the verdicts only; the reports are proved by tests/reporting/.
      reports: 'results',
      seed: r.seed,
      runs: r.runs,
    });
  } finally {
    await mock.close();
  }
}

/** The severity a failure counts with: its record's, else contract (docs/checks-and-severity.md). */
export function severityOfFailure(f: SuiteRunResult['failures'][number]): 'contract' | 'advisory' {
  return f.record?.severity ?? 'contract';
}

/** The checks that failed, each once, sorted; `suite error` for a run that broke outside any check. */
export function failedChecks(r: SuiteRunResult): string[] {
  return [...new Set(r.failures.map((f) => f.check ?? f.title))].sort();
}

/** Failures that count against the contract (advisory ones never fail a run unless it is strict). */
export function contractFailures(r: SuiteRunResult): string[] {
  return r.failures.filter((f) => severityOfFailure(f) === 'contract').map((f) => `${f.check ?? '?'} · ${f.title}`);
}

/** check → the `blocked by …` reason of each of its tests skipped as blocked. */
export function blockedChecks(r: SuiteRunResult): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const o of r.outcomes)
    if (o.status === 'skipped' && o.skipReason?.startsWith('blocked by '))
      out.set(o.check ?? o.title, [...(out.get(o.check ?? o.title) ?? []), o.skipReason]);
  return out;
}

export function describeFailures(r: SuiteRunResult): string {
  return (
    r.failures
      .map(
        (f) =>
          `  ${f.check ?? '?'} [${severityOfFailure(f)}] · ${f.title}\n    ${(f.error ?? '').split('\n').slice(0, 3).join('\n    ')}`,
      )
      .join('\n') || '  (none)'
  );
}

interface JsonSpec {
  title: string;
  file: string;
  line: number;
  tests?: { annotations?: { type: string; description?: string }[]; results?: { startTime?: string }[] }[];
}
interface JsonSuite {
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}

export interface TestLocation {
  title: string;
  file: string;
  line: number;
  /** The test's `severity` annotation. */
  severity?: string;
}

/** Every spec of the run's results.json. */
function specsOf(r: SuiteRunResult): JsonSpec[] {
  const report = JSON.parse(readFileSync(join(r.reportDir, 'results.json'), 'utf8')) as { suites?: JsonSuite[] };
  const out: JsonSpec[] = [];
  const walk = (s: JsonSuite): void => {
    out.push(...(s.specs ?? []));
    for (const child of s.suites ?? []) walk(child);
  };
  for (const s of report.suites ?? []) walk(s);
  return out;
}

/** Where Playwright says each test is (results.json), with its severity annotation. */
export function testLocations(r: SuiteRunResult): TestLocation[] {
  return specsOf(r).map((spec) => {
    const severity = spec.tests?.[0]?.annotations?.find((a) => a.type === 'severity')?.description;
    return { title: spec.title, file: spec.file, line: spec.line, ...(severity ? { severity } : {}) };
  });
}

/** When the run's first test started (ms since the epoch), from results.json; undefined when none ran. */
export function firstTestStart(r: SuiteRunResult): number | undefined {
  const starts = specsOf(r)
    .flatMap((spec) => spec.tests ?? [])
    .flatMap((t) => t.results ?? [])
    .map((x) => Date.parse(x.startTime ?? ''))
    .filter((ms) => Number.isFinite(ms));
  return starts.length > 0 ? Math.min(...starts) : undefined;
}
