/**
 * A check that cannot judge because something it depends on is broken in a way
 * another check owns (one fault, one failure: docs/writing-a-check.md). Thrown
 * instead of a CheckFailure; the check-test wrapper turns it into a skip with
 * the annotation `blocked-by` = "<owning check> on <operationId>: <reason>".
 */
import type { CheckId } from './catalogue.ts';
import { redactText } from '../../core/redact.ts';

/** The check that owns every response shape of spec 2 (suites/contract/response-schema.spec.ts). */
export const RESPONSE_SCHEMA = 'response-schema' satisfies CheckId;

/** The check that owns "a GET by id answers the record with that id" (suites/contract/record-identity.spec.ts). */
export const RECORD_IDENTITY = 'record-identity' satisfies CheckId;

export class CheckBlocked extends Error {
  /** The `blocked-by` annotation text. */
  readonly blockedBy: string;
  constructor(
    readonly owner: CheckId,
    readonly operationId: string,
    reason: string,
    secrets: readonly string[] = [],
  ) {
    const oneLine = redactText(reason, secrets).replace(/\s+/g, ' ').trim();
    const text = `${owner} on ${operationId}: ${oneLine}`;
    super(`blocked by ${text}`);
    this.name = 'CheckBlocked';
    this.blockedBy = text;
  }
}
