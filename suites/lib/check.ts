/**
 * A check: one concern, one clause. Its assertions throw CheckFailure records
 * carrying the exchange, the JSON pointer and a curl command. Shared by every
 * suite so "what is a pass" is decided in one place.
 */
import { validate, type SchemaName } from '../../schemas/registry.ts';
import { citation } from '../../specs/check-ids.ts';
import type { Operation } from '../../specs/contract.ts';
import { catalogueEntry, type CheckId, type ClauseOf } from './catalogue.ts';
import { CheckBlocked, RESPONSE_SCHEMA } from './check-blocked.ts';
import { CheckFailure, type FailureDetails, type Severity } from '../../core/check-failure.ts';
import { isJsonContentType, type Exchange } from '../../core/exchange.ts';

/**
 * What a check's test says of itself: its check id, and the operation it is about. Clause and severity are the
 * catalogue row's (suites/lib/catalogue.ts), the one place they live.
 */
export interface CheckMeta<C extends CheckId = CheckId> {
  /** Stable id of the check, e.g. "auth-required": a row of the catalogue. */
  check: C;
  /**
   * Only where this test judges some of its check's clauses, not all: those it judges. The row lists a check's
   * clauses, not which of its tests judges which, and a test cites only what it judges, so the certificate counts
   * it under those clauses alone (record-identity reads an offer by id in one test, a billing group in another).
   */
  clauses?: readonly ClauseOf<C>[];
  operation?: Operation;
}

/** A test's metadata with the citation and severity of its catalogue row, as its title, annotations and failures say. */
export interface ResolvedMeta {
  check: CheckId;
  /** The clauses it enforces as one citation, e.g. "spec 5 rule 2" or "HTTP semantics; spec 2.3, spec 4". */
  clause: string;
  /**
   * `contract`: a sentence of the spec binds the server, or a 5xx. `advisory`: hygiene beyond the spec. One
   * assertion may override it per failure (`fail`'s `severity`).
   */
  severity: Severity;
  operation?: Operation;
}

/** The metadata with the clause and severity of its catalogue row. */
export function resolveMeta(meta: CheckMeta): ResolvedMeta {
  const row = catalogueEntry(meta.check);
  return {
    check: meta.check,
    clause: citation(meta.clauses ?? row.clauses),
    severity: row.severity,
    ...(meta.operation ? { operation: meta.operation } : {}),
  };
}

/** A clause some check of the catalogue lists: what one failure may cite in place of its check's whole citation. */
export type Clause = ClauseOf<CheckId>;

export class Check {
  readonly meta: ResolvedMeta;
  private readonly secrets: readonly string[];
  /** From a test's metadata, or from another Check's (resolved) metadata, as is: its clauses may be narrowed. */
  constructor(meta: CheckMeta, secrets: readonly string[]);
  constructor(meta: ResolvedMeta, secrets: readonly string[]);
  constructor(meta: CheckMeta | ResolvedMeta, secrets: readonly string[]) {
    this.meta = 'severity' in meta ? meta : resolveMeta(meta);
    this.secrets = secrets;
  }

  private opDetails(exchange?: Exchange): FailureDetails {
    const op = this.meta.operation;
    return {
      ...(op ? { operationId: op.operationId, method: op.method, path: op.path } : {}),
      ...(exchange ? { exchanges: [exchange] } : {}),
    };
  }

  /**
   * Fail this check. `clause` overrides the check's own where one assertion enforces a narrower rule;
   * `details.severity` overrides the check's severity for this one failure (every record carries one).
   */
  fail(message: string, details: FailureDetails = {}, clause?: Clause): never {
    throw new CheckFailure(
      this.meta.check,
      clause ?? this.meta.clause,
      message,
      { severity: this.meta.severity, ...this.opDetails(), ...details },
      this.secrets,
    );
  }

  /** This check cannot judge: `owner` owns what is broken (skipped as blocked, never failed). */
  blocked(owner: CheckId, x: Exchange | undefined, reason: string): never {
    const operationId = x?.operationId ?? this.meta.operation?.operationId ?? 'the flow';
    throw new CheckBlocked(owner, operationId, reason, this.secrets);
  }

  /** Any 2xx: the spec does not show success status codes (spec 4.3), so 200, 201 and 202 all pass. */
  expectSuccess(x: Exchange, what = 'the request'): void {
    if (x.response.status < 200 || x.response.status > 299) {
      this.fail(`expected a 2xx answer to ${what}, got ${x.response.status}`, this.opDetails(x));
    }
  }

  /** A 5xx is always a contract failure, whatever the check's own severity. */
  expectNo5xx(x: Exchange, what = 'the request'): void {
    if (x.response.status >= 500) {
      this.fail(
        `answered ${x.response.status} to ${what}: a server must not answer 5xx to a request it can judge (HTTP semantics)`,
        { ...this.opDetails(x), severity: 'contract' },
        'HTTP semantics',
      );
    }
  }

  /**
   * No byte-order mark before a JSON body: RFC 8259 section 8.1 says a networked JSON text must not carry one. The spec
   * says only that bodies are JSON (spec 4), so this is advisory.
   */
  expectNoByteOrderMark(x: Exchange): void {
    if (x.response.bom)
      this.fail(
        'the JSON body begins with a UTF-8 byte-order mark (EF BB BF); RFC 8259 section 8.1: a JSON text sent over a network must not, and parsers that follow it refuse the body (advisory)',
        { ...this.opDetails(x), severity: 'advisory' },
      );
  }

  expectJsonContentType(x: Exchange): void {
    const ct = x.response.headers['content-type'];
    if (x.response.text !== '' && !isJsonContentType(ct)) {
      this.fail(
        `a JSON body must carry a JSON content type (bodies are JSON, spec 4); got ${ct ? `'${ct}'` : 'no content-type'}`,
        this.opDetails(x),
      );
    }
  }

  /**
   * The body parses as JSON and validates against the schema; each violation is reported with its pointer.
   * Response shapes are owned by `response-schema`: any other check that meets a broken shape on its way
   * cannot judge its own rule, so it reports itself blocked instead of failing (one fault, one failure).
   */
  expectSchema(x: Exchange, schema: SchemaName, clause?: Clause): void {
    if (this.meta.check !== RESPONSE_SCHEMA) {
      const problem = schemaProblem(x, schema);
      if (problem) this.blocked(RESPONSE_SCHEMA, x, problem);
      return;
    }
    if (typeof x.response.body === 'string' || x.response.body === undefined) {
      this.fail(
        `expected a JSON body matching ${schema}.schema.json, got ${x.response.body === undefined ? 'an empty body' : 'text that is not JSON'}`,
        { ...this.opDetails(x), pointer: '' },
        clause,
      );
    }
    const result = validate(schema, x.response.body);
    const first = result.violations[0];
    if (first) {
      const all = result.violations
        .slice(0, SHOWN_VIOLATIONS)
        .map((v) => `${v.pointer || '(root)'}: ${v.message} (schema ${v.schemaPath})`);
      // Every violation, or the count of those left unsaid: a list cut short never reads as the whole.
      if (result.violations.length > SHOWN_VIOLATIONS)
        all.push(`… and ${result.violations.length - SHOWN_VIOLATIONS} more`);
      this.fail(
        `response does not match ${schema}.schema.json (${result.violations.length} violation(s)):\n    ${all.join('\n    ')}`,
        { ...this.opDetails(x), pointer: first.pointer, schemaPath: first.schemaPath },
        clause,
      );
    }
  }
}

/** Violations a schema failure lists one by one. */
export const SHOWN_VIOLATIONS = 10;

/** One line saying how the answer breaks the schema, or undefined when it matches. */
export function schemaProblem(x: Exchange, schema: SchemaName): string | undefined {
  const body = x.response.body;
  if (typeof body === 'string' || body === undefined)
    return `expected a JSON body matching ${schema}.schema.json, got ${body === undefined ? 'an empty body' : 'text that is not JSON'}`;
  const first = validate(schema, body).violations[0];
  return first ? `${first.pointer || '(root)'} ${first.message} (${schema}.schema.json)` : undefined;
}
