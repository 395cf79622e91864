/**
 * What a run's summary needs from Playwright's JSON report: the outcomes read
 * once by reporting/outcomes.ts (which the certificate uses too), and the
 * failed tests as the runner reports them.
 */
import { readRunOutcomes, type CheckOutcome } from '../reporting/outcomes.ts';
import type { FailureRecord } from '../core/check-failure.ts';

export type TestOutcome = CheckOutcome;

export interface FailedTest {
  title: string;
  check?: string | undefined;
  clause?: string | undefined;
  operation?: string | undefined;
  error?: string | undefined;
  record?: FailureRecord | undefined;
  severity?: CheckOutcome['severity'];
}

export function readOutcomes(file: string): { outcomes: TestOutcome[]; errors: string[] } {
  return readRunOutcomes(file);
}

export function toFailedTest(o: TestOutcome): FailedTest {
  const { title, check, clause, operation, error, record, severity } = o;
  return {
    title,
    severity,
    // Written to run.json with JSON.stringify, which leaves an undefined key out.
    check,
    clause,
    operation,
    error,
    record,
  };
}
