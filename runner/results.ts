/**
 * Reads Playwright's JSON report into what flis needs: counts, and for every
 * failed test its check, clause, operation and CheckFailure record.
 */
import { readFileSync } from 'node:fs';
import type { FailureRecord } from '../suites/lib/check-failure.ts';

export interface TestOutcome {
  title: string;
  project: string;
  status: 'passed' | 'failed' | 'skipped' | 'flaky';
  check?: string;
  clause?: string;
  operation?: string;
  /** Why a skipped test was skipped. */
  skipReason?: string;
  /** The first error message of a failed test (already redacted by the suite). */
  error?: string;
  record?: FailureRecord;
}

export interface FailedTest {
  title: string;
  check?: string;
  clause?: string;
  operation?: string;
  error?: string;
  record?: FailureRecord;
}

interface JsonAttachment { name: string; contentType: string; body?: string; path?: string }
interface JsonResult { status: string; attachments?: JsonAttachment[]; errors?: { message?: string }[]; annotations?: Annotation[] }
interface Annotation { type: string; description?: string }
interface JsonTest { projectName: string; status: string; annotations?: Annotation[]; results: JsonResult[] }
interface JsonSpec { title: string; tests: JsonTest[] }
interface JsonSuite { title: string; specs?: JsonSpec[]; suites?: JsonSuite[] }
interface JsonReport { suites?: JsonSuite[]; errors?: { message?: string }[] }

const STATUS: Record<string, TestOutcome['status']> = { expected: 'passed', unexpected: 'failed', skipped: 'skipped', flaky: 'flaky' };

function annotation(list: Annotation[], type: string): string | undefined {
  return list.find((a) => a.type === type)?.description;
}

function failureRecord(results: JsonResult[]): FailureRecord | undefined {
  for (const r of results) {
    const a = r.attachments?.find((x) => x.name === 'flis-failure');
    if (a?.body) return JSON.parse(Buffer.from(a.body, 'base64').toString('utf8')) as FailureRecord;
    if (a?.path) return JSON.parse(readFileSync(a.path, 'utf8')) as FailureRecord;
  }
  return undefined;
}

function outcome(spec: JsonSpec, test: JsonTest): TestOutcome {
  const annotations = [...(test.annotations ?? []), ...test.results.flatMap((r) => r.annotations ?? [])];
  const status = STATUS[test.status] ?? 'failed';
  const last = test.results[test.results.length - 1];
  const check = annotation(annotations, 'check');
  const clause = annotation(annotations, 'clause');
  const operation = annotation(annotations, 'operation');
  const skipReason = annotation(annotations, 'skipped-because') ?? annotation(annotations, 'skip');
  const error = last?.errors?.[0]?.message;
  const record = status === 'failed' ? failureRecord(test.results) : undefined;
  return {
    title: spec.title,
    project: test.projectName,
    status,
    ...(check ? { check } : {}),
    ...(clause ? { clause } : {}),
    ...(operation ? { operation } : {}),
    ...(status === 'skipped' && skipReason ? { skipReason } : {}),
    ...(status === 'failed' && error ? { error } : {}),
    ...(record ? { record } : {}),
  };
}

function walk(suite: JsonSuite, out: TestOutcome[]): void {
  for (const spec of suite.specs ?? []) for (const t of spec.tests) out.push(outcome(spec, t));
  for (const child of suite.suites ?? []) walk(child, out);
}

export function readOutcomes(file: string): { outcomes: TestOutcome[]; errors: string[] } {
  const report = JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
  const outcomes: TestOutcome[] = [];
  for (const s of report.suites ?? []) walk(s, outcomes);
  return { outcomes, errors: (report.errors ?? []).map((e) => e.message ?? 'unknown error') };
}

export function toFailedTest(o: TestOutcome): FailedTest {
  const { title, check, clause, operation, error, record } = o;
  return { title, ...(check ? { check } : {}), ...(clause ? { clause } : {}), ...(operation ? { operation } : {}), ...(error ? { error } : {}), ...(record ? { record } : {}) };
}
