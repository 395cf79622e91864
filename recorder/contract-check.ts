/**
 * The contract check of recorded traffic: each exchange is checked as it
 * passes, with the suites' check names and the clause of the spec each one
 * enforces (the operation's own clause for its schemas). A partner recording
 * its own client sees at once where its traffic leaves the contract.
 */
import { type CappedValidationResult, runToEnd, type SchemaName, validateInSlices } from '../schemas/registry.ts';
import { type TrafficCheckId, trafficClause } from '../specs/check-ids.ts';
import { matchOperation, type Operation } from '../specs/contract.ts';
import { decodeBody, jsonSourceOf, jsonValue } from './body.ts';
import { hiddenField } from './hidden-field.ts';
import type { RecordedRequest, RecordedResponse, StoredBody, Violation } from './cassette-format.ts';

/** Violations listed per body and schema; the rest are counted in one more entry (`more`). */
export const MAX_SCHEMA_VIOLATIONS = 10;

export interface CheckInput {
  request: RecordedRequest;
  response: RecordedResponse;
  /** The Authorization value as the client sent it, before redaction: only its scheme is looked at. */
  authorization: string | undefined;
  /** True when the response is the recorder's own 502/504 (nothing of the upstream to judge). */
  upstreamFailed: boolean;
}

export interface CheckResult {
  operation: Operation | undefined;
  violations: Violation[];
  /**
   * What the check could not judge, one line each ("not judged: response body over 1048576 bytes"): a body the
   * recorder cut at --max-body-bytes holds only its first bytes, so its schema is not judged. Never a violation.
   */
  notJudged: string[];
}

/** A traffic check's id with the clause it cites, both from their one table (specs/check-ids.ts). */
function cite(check: TrafficCheckId, op: Operation | undefined): { check: TrafficCheckId; clause: string } {
  return { check, clause: trafficClause(check, op) };
}

export function checkExchange(x: CheckInput): CheckResult {
  return runToEnd(checkExchangeInSlices(x));
}

/**
 * The check as steps that pause between slices of a large list body (schemas/registry.ts validateInSlices): the
 * recorder judges a large body a slice per event-loop turn, and `flis cassette lint` answers a signal between two.
 */
export function* checkExchangeInSlices(x: CheckInput): Generator<void, CheckResult, void> {
  const operation = operationFor(x.request.method, x.request.path);
  const opId = operation?.operationId ?? null;
  const v: Violation[] = [];
  if (!operation) {
    v.push({
      ...cite('known-operation', operation),
      operationId: null,
      direction: 'request',
      message: `${x.request.method} ${x.request.path} is not an operation of the contract (specs/openapi.yaml)`,
    });
  }
  if (!/^Bearer\s+\S/i.test(x.authorization ?? '')) {
    v.push({
      ...cite('auth-header', operation),
      operationId: opId,
      direction: 'request',
      message: `the request carries no 'Authorization: Bearer <token>' header`,
    });
  }
  const notJudged: string[] = [];
  v.push(...(yield* requestChecks(x.request, operation, notJudged)));
  if (!x.upstreamFailed) v.push(...(yield* responseChecks(x.response, operation, notJudged)));
  return { operation, violations: v, notJudged };
}

/**
 * The operation of a method and path, remembered: matching tries the method's path templates one after the other,
 * and a recorded client asks the same paths again and again. The contract does not change while the process runs.
 * Bounded; cleared when full, so paths that never come again (ids) cannot hold it for good.
 */
const operations = new Map<string, Operation | null>();
const MAX_OPERATIONS = 1024;

function operationFor(method: string, path: string): Operation | undefined {
  const key = `${method} ${path}`;
  let op = operations.get(key);
  if (op === undefined) {
    op = matchOperation(method, path) ?? null;
    if (operations.size >= MAX_OPERATIONS) operations.clear();
    operations.set(key, op);
  }
  return op ?? undefined;
}

function* requestChecks(
  req: RecordedRequest,
  op: Operation | undefined,
  notJudged: string[],
): Generator<void, Violation[], void> {
  const opId = op?.operationId ?? null;
  const out: Violation[] = [];
  const hasBody = req.body !== null && req.body.size > 0;
  const ct = header(req.headers['content-type']);
  if (hasBody && !/^application\/json\b/i.test(ct ?? '')) {
    out.push({
      ...cite('write-content-type', op),
      operationId: opId,
      direction: 'request',
      message: `a write request with a body must send 'Content-Type: application/json'; sent ${ct ? `'${ct}'` : 'none'}`,
    });
  }
  if (op?.requestSchema && hasBody) {
    // One fault, one failure: a body sent under another content type is write-content-type's finding; the schema
    // judges it only when its text is JSON all the same (a wrong value in it is a fault of its own).
    const body = out.length ? asJsonText(req.body) : req.body;
    if (body) out.push(...(yield* schemaChecks('request', op, op.requestSchema, body, notJudged)));
  }
  return out;
}

/** A text body whose text parses as JSON, stored as the JSON it is; else nothing to judge. */
function asJsonText(body: StoredBody | null): StoredBody | null {
  if (!body || body.encoding === 'json') return body;
  if (body.encoding !== 'text' || typeof body.value !== 'string' || body.truncated) return null;
  try {
    return { ...body, encoding: 'json', value: JSON.parse(body.value) };
  } catch {
    return null;
  }
}

function* responseChecks(
  res: RecordedResponse,
  op: Operation | undefined,
  notJudged: string[],
): Generator<void, Violation[], void> {
  const opId = op?.operationId ?? null;
  const out: Violation[] = [];
  if (res.status >= 500) {
    out.push({
      ...cite('no-5xx', op),
      operationId: opId,
      direction: 'response',
      message: `answered ${res.status}: a server must not answer 5xx to a request it can judge`,
    });
  }
  const ct = header(res.headers['content-type']);
  if (res.body && res.body.size > 0 && !/[/+]json\b/i.test(ct ?? '')) {
    out.push({
      ...cite('json-content-type', op),
      operationId: opId,
      direction: 'response',
      message: `a JSON body must carry a JSON content type; got ${ct ? `'${ct}'` : 'no content-type'}`,
    });
  }
  if (op?.responseSchema && res.status >= 200 && res.status <= 299)
    out.push(...(yield* schemaChecks('response', op, op.responseSchema, res.body, notJudged)));
  return out;
}

function* schemaChecks(
  direction: 'request' | 'response',
  op: Operation,
  schema: SchemaName,
  body: RecordedRequest['body'],
  notJudged: string[],
): Generator<void, Violation[], void> {
  const base = {
    ...cite(`${direction}-schema`, op),
    operationId: op.operationId,
    direction,
    schema,
  } as const;
  const json = jsonValue(body);
  if (!json.ok) {
    if (body?.truncated) {
      // Only the first bytes were kept (--max-body-bytes): the body cannot be judged, and the report says so.
      notJudged.push(`not judged: ${direction} body over ${decodeBody(body).length} bytes (--max-body-bytes)`);
      return [];
    }
    return [
      {
        ...base,
        pointer: '',
        message: `expected a JSON body matching ${schema}.schema.json, got ${body ? `${body.encoding} that is not JSON` : 'an empty body'}`,
      },
    ];
  }
  const verdict = yield* schemaViolations(schema, json.value, body!);
  const out: Violation[] = verdict.violations.map((s) => ({
    ...base,
    pointer: s.pointer,
    schemaPath: s.schemaPath,
    message: `${s.pointer || '(root)'}: ${s.message}`,
  }));
  const more = verdict.total - out.length;
  if (more > 0)
    out.push({
      ...base,
      pointer: '',
      more,
      ...(verdict.exact ? {} : { atLeast: true as const }),
      message: verdict.exact
        ? `and ${more} more violation(s) of ${schema}.schema.json in this body (the first ${out.length} are listed)`
        : `and at least ${more} more violation(s) of ${schema}.schema.json in this body (the first ${out.length} are listed; past them, an item of the list counts once however many rules it breaks)`,
    });
  return out;
}

/**
 * A body value's verdict against a schema, kept while the value lives: a
 * repeated answer is the same parsed value (recorder/body.ts storedBody), and
 * validation neither changes the value nor depends on anything else.
 */
const verdicts = hiddenField<object, Map<SchemaName, CappedValidationResult>>('the verdicts on a body value');

function* schemaViolations(
  schema: SchemaName,
  value: unknown,
  body: StoredBody,
): Generator<void, CappedValidationResult, void> {
  if (value === null || typeof value !== 'object') return yield* validateInSlices(schema, value, MAX_SCHEMA_VIOLATIONS);
  // A body this process stored keeps its verdicts with its source (recorder/body.ts JsonSource); one read back
  // from a cassette, on its value.
  const source = jsonSourceOf(body);
  const known = source ? source.verdicts : verdicts.get(value);
  let out = known?.get(schema);
  if (out) return out;
  out = yield* validateInSlices(schema, value, MAX_SCHEMA_VIOLATIONS);
  if (known) known.set(schema, out);
  else if (source) source.verdicts = new Map([[schema, out]]);
  else verdicts.set(value, new Map([[schema, out]]));
  return out;
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** How many violations an entry stands for: itself, or the ones it says were not listed. */
export function violationCount(v: Violation): number {
  return v.more ?? 1;
}

/** One line per violation, for live printing and `flis cassette lint`. */
export function formatViolation(v: Violation): string {
  // schemaPath already names the file that holds the rule (schemas/registry.ts).
  const where = v.schemaPath ? ` [${v.schemaPath}]` : v.schema ? ` [${v.schema}.schema.json]` : '';
  return `[${v.check}] ${v.clause}${v.operationId ? ` ${v.operationId}` : ''} ${v.direction}: ${v.message}${where}`;
}
