/**
 * Reads Playwright's JSON report (reports/results.json, or the one `flis merge`
 * writes from the shards' blobs) into what the certificate needs per test: its
 * check and clause, the operation it is named for, the operations it blamed
 * and exercised, why it was skipped, and its failure record.
 */
import { readFileSync } from 'node:fs';
import type { FailureRecord } from '../core/check-failure.ts';

export type OutcomeStatus = 'passed' | 'failed' | 'skipped' | 'flaky';

/** `contract` fails the verdict; `advisory` is reported and fails only with --strict (docs/checks-and-severity.md). */
export type Severity = 'contract' | 'advisory';

/**
 * Why a test was skipped: `blocked` when another check's failure left it nothing to judge (annotation
 * `blocked-by`), `inconclusive` when another writer disturbed it (annotation `inconclusive`), else `skipped`
 * (a write on a read-only target, a suite not selected, ...).
 */
/**
 * Why a test did not judge: `blocked` by another check's failure, `inconclusive` because another writer disturbed it,
 * `not-shown` because the spec shows no means to exercise it (webhook subscription), or plainly `skipped`.
 */
export type SkipKind = 'blocked' | 'inconclusive' | 'not-shown' | 'skipped';

/**
 * An operation a check could not judge (annotation `not-judged`, "<operationId>: <reason>"; auth-required when no
 * request the valid token is served could be had): neither passed nor refused, whatever the test's status.
 */
export interface NotJudged {
  operation: string;
  reason: string;
}

export interface CheckOutcome {
  /** Playwright's test id (stable across shards and reruns of the same tests). */
  id: string;
  title: string;
  project: string;
  status: OutcomeStatus;
  check?: string | undefined;
  clause?: string | undefined;
  /** The operation the test is declared for. */
  operation?: string | undefined;
  /** Operations a failure names (its record and the `operation` annotations added while running). */
  blamed: string[];
  /** Operations the test called (its `flis-coverage` attachment). */
  exercised: string[];
  skipReason?: string;
  /** The operations this test could not judge, and why. */
  notJudged?: NotJudged[] | undefined;
  /** Set for a skipped test. */
  skipKind?: SkipKind;
  /** The failure record's severity, else the test's `severity` annotation, else `contract`. */
  severity: Severity;
  error?: string | undefined;
  record?: FailureRecord | undefined;
}

export interface RunOutcomes {
  outcomes: CheckOutcome[];
  /** Errors outside any test (a suite that did not load): the run is incomplete. */
  errors: string[];
}

interface Annotation {
  type: string;
  description?: string;
}
interface Attachment {
  name: string;
  contentType: string;
  body?: string;
  path?: string;
}
interface JsonResult {
  status: string;
  attachments?: Attachment[];
  errors?: { message?: string }[];
  annotations?: Annotation[];
}
interface JsonTest {
  projectName: string;
  status: string;
  annotations?: Annotation[];
  results: JsonResult[];
}
interface JsonSpec {
  id: string;
  title: string;
  /** Relative to suites/: the first folder is the suite. */
  file?: string;
  tests: JsonTest[];
}
interface JsonSuite {
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}
interface JsonReport {
  suites?: JsonSuite[];
  errors?: { message?: string }[];
}

const STATUS: Record<string, OutcomeStatus> = {
  expected: 'passed',
  unexpected: 'failed',
  skipped: 'skipped',
  flaky: 'flaky',
};

function attachmentText(results: JsonResult[], name: string): string | undefined {
  for (const r of [...results].reverse()) {
    const a = r.attachments?.find((x) => x.name === name);
    if (a?.body) return Buffer.from(a.body, 'base64').toString('utf8');
    if (a?.path) {
      try {
        return readFileSync(a.path, 'utf8');
      } catch {
        return undefined; // A moved report keeps its JSON but not always its attachment files.
      }
    }
  }
  return undefined;
}

function firstOf(list: Annotation[], type: string): string | undefined {
  return list.find((a) => a.type === type)?.description;
}

function allOf(list: Annotation[], type: string): string[] {
  return [...new Set(list.filter((a) => a.type === type && a.description).map((a) => a.description as string))];
}

function severityOf(record: FailureRecord | undefined, annotated: string | undefined): Severity {
  const own = (record as { severity?: unknown } | undefined)?.severity;
  if (own === 'contract' || own === 'advisory') return own;
  return annotated === 'advisory' ? 'advisory' : 'contract';
}

/** Blocked and inconclusive skips say so first; a plain skip gives its own reason. */
function skipOf(all: Annotation[], results: JsonResult[]): { skipKind: SkipKind; skipReason: string } {
  const blockedBy = firstOf(all, 'blocked-by');
  if (blockedBy) return { skipKind: 'blocked', skipReason: `blocked by ${blockedBy}` };
  const inconclusive = firstOf(all, 'inconclusive');
  if (inconclusive) return { skipKind: 'inconclusive', skipReason: `inconclusive: ${inconclusive}` };
  const notShown = firstOf(all, 'not-shown');
  if (notShown) return { skipKind: 'not-shown', skipReason: `not shown: ${notShown}` };
  // A run stopped by a signal: Playwright reports the tests it cut short and those it never started as skipped.
  const stopped = results.some((r) => r.status === 'interrupted')
    ? 'interrupted: the run was stopped while this test ran'
    : results.length === 0
      ? 'not run: the run ended before this test started'
      : undefined;
  return {
    skipKind: 'skipped',
    skipReason: firstOf(all, 'skipped-because') ?? firstOf(all, 'skip') ?? stopped ?? 'skipped (no reason given)',
  };
}

/** "<operationId>: <reason>" annotations; one without an operation is the test's own, named for its operation. */
function notJudgedOf(runtime: Annotation[], operation: string | undefined): NotJudged[] {
  return allOf(runtime, 'not-judged').map((text) => {
    const m = /^([A-Za-z]\w*): (.+)$/s.exec(text);
    return m ? { operation: m[1]!, reason: m[2]! } : { operation: operation ?? '(no operation)', reason: text };
  });
}

function exercisedOf(results: JsonResult[]): string[] {
  const text = attachmentText(results, 'flis-coverage');
  if (!text) return [];
  const parsed = JSON.parse(text) as { operations?: unknown };
  return Array.isArray(parsed.operations) ? parsed.operations.filter((o): o is string => typeof o === 'string') : [];
}

/**
 * A check stopped by the check timeout (--check-timeout) judged nothing: a slow deployment is its right, so the
 * check is inconclusive, never failed (docs/throttling.md). The check's own `inconclusive` annotation says which limit
 * stopped it (no answer for DUR, or the cap: suites/lib/check-timeout.ts) and comes first; this one says it for a test
 * that could not (one that timed out outside checkTest).
 */
const TIMED_OUT: Annotation = {
  type: 'inconclusive',
  description: 'the check was stopped by the check timeout (--check-timeout)',
};

function outcomeOf(spec: JsonSpec, test: JsonTest): CheckOutcome {
  const staticAnnotations = test.annotations ?? [];
  const timedOut = test.status === 'unexpected' && test.results.at(-1)?.status === 'timedOut';
  const runtime = [...test.results.flatMap((r) => r.annotations ?? []), ...(timedOut ? [TIMED_OUT] : [])];
  const all = [...staticAnnotations, ...runtime];
  const status = timedOut ? 'skipped' : (STATUS[test.status] ?? 'failed');
  const recordText = status === 'failed' ? attachmentText(test.results, 'flis-failure') : undefined;
  const record = recordText ? (JSON.parse(recordText) as FailureRecord) : undefined;
  const check = firstOf(all, 'check');
  const clause = firstOf(all, 'clause');
  const operation = firstOf(staticAnnotations, 'operation');
  const runtimeOps = allOf(runtime, 'operation').filter((o) => o !== operation);
  const blamed =
    status === 'failed' ? [...new Set([...(record?.operationId ? [record.operationId] : []), ...runtimeOps])] : [];
  const error = test.results.at(-1)?.errors?.[0]?.message;
  const notJudged = notJudgedOf(runtime, operation);
  return {
    id: spec.id,
    title: spec.title,
    project: suiteOfFile(spec.file) ?? test.projectName,
    status,
    blamed,
    exercised: exercisedOf(test.results),
    severity: severityOf(record, firstOf(all, 'severity')),
    check: check || undefined,
    clause: clause || undefined,
    operation: operation || undefined,
    ...(status === 'skipped' ? skipOf(all, test.results) : {}),
    notJudged: notJudged.length ? notJudged : undefined,
    error: status === 'failed' && error ? error : undefined,
    record,
  };
}

/** The suite a spec belongs to: the folder of suites/ its file is in (all suites run as one Playwright project). */
function suiteOfFile(file: string | undefined): string | undefined {
  const parts = (file ?? '').split(/[\\/]/);
  return parts.length > 1 ? parts[0] : undefined;
}

function walk(suite: JsonSuite, out: CheckOutcome[]): void {
  for (const spec of suite.specs ?? []) for (const t of spec.tests) out.push(outcomeOf(spec, t));
  for (const child of suite.suites ?? []) walk(child, out);
}

export function readRunOutcomes(resultsFile: string): RunOutcomes {
  const report = JSON.parse(readFileSync(resultsFile, 'utf8')) as JsonReport;
  const outcomes: CheckOutcome[] = [];
  for (const s of report.suites ?? []) walk(s, outcomes);
  // Test order differs between a sharded and an unsharded run; the certificate must not.
  outcomes.sort(
    (a, b) => a.project.localeCompare(b.project) || a.title.localeCompare(b.title) || a.id.localeCompare(b.id),
  );
  return { outcomes, errors: (report.errors ?? []).map((e) => e.message ?? 'unknown error') };
}
