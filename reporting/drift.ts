/**
 * The drift report: where observed traffic (a run's responses, cassettes of
 * client traffic, webhook deliveries) differs from what the contract
 * documents. Undocumented fields, values and status codes, per operation and
 * JSON path, with how often and an example; documented fields never seen; and
 * proposed schemas for the records whose fields the spec does not show.
 * Drift is reported, never failed, unless a gate asks (`--fail-on drift`).
 *
 * Never drift: request bodies the suites sent (the suite is the client, and some of its requests are invalid on
 * purpose: a bogus priceStrategy to see it refused), and the values the suites write to find their own records
 * again (forced statuses `flis-forced/<run id>/…`); only a partner's client traffic (cassettes) has its requests
 * judged. A documented request field a client leaves out is never drift either: a client sends what it needs, and
 * the client's usage (reporting/client-usage.ts) lists what it did not send. Reported only, never gated: values
 * beyond those the spec shows where it shows examples, not a closed list ("Complete lists of allowed status values:
 * not shown"): observations.
 */
import type { SchemaName } from '../schemas/registry.ts';
import { openapiDocument, operations, type Operation } from '../specs/contract.ts';
import { isForcedTag } from '../core/forced-tag.ts';
import type { BodyStats, Direction, Observations, OperationStats } from '../core/observations.ts';
import { inferSchema, type JsonSchema } from './infer-schema.ts';
import { documentedPaths, lookup, shownValues } from './schema-walk.ts';

export type DriftKind =
  | 'undocumented-field'
  | 'undocumented-value'
  | 'value-outside-enum'
  | 'undocumented-status'
  | 'documented-field-never-seen';

export interface DriftFinding {
  kind: DriftKind;
  operationId: string;
  direction: Direction;
  /** JSON pointer, `*` for every array item; absent for status codes. */
  path?: string;
  /** How often it was seen (0 for a documented field never seen). */
  count: number;
  example?: unknown;
  value?: string;
  status?: number;
  /** Where the contract says what it says (schema file, documented values). */
  contract?: string;
}

export interface ProposedSchema {
  operationId: string;
  direction: Direction;
  /** Why the contract has none: the clause that leaves the fields unshown. */
  reason: string;
  schema: JsonSchema;
}

/** Kinds reported as observations: what the spec leaves open. `--fail-on drift` does not count them. */
export const OBSERVATION_KINDS: readonly DriftKind[] = ['undocumented-value'];

export interface DriftReport {
  kind: 'flis-drift-report';
  generatedAt: string;
  sources: string[];
  operationsSeen: number;
  counts: Record<DriftKind, number>;
  findings: DriftFinding[];
  proposedSchemas: ProposedSchema[];
}

/** The contract's view of one operation (or webhook): which schema shapes each direction, which status codes it documents. */
interface OperationContract {
  id: string;
  request?: SchemaName | undefined;
  response?: SchemaName | undefined;
  /** Response keys of the OpenAPI document: "2XX", "4XX". */
  statuses: string[];
  /** True when the spec shows the bodies (4.1, 4.2, webhook envelopes). */
  documented: boolean;
  clause: string;
}

function webhookContracts(): Map<string, OperationContract> {
  const hooks = (openapiDocument().webhooks ?? {}) as Record<string, { post?: { operationId?: string } }>;
  const out = new Map<string, OperationContract>();
  for (const h of Object.values(hooks)) {
    const id = h.post?.operationId;
    if (id) out.set(id, { id, request: 'webhook-envelope', statuses: [], documented: true, clause: 'spec 6' });
  }
  return out;
}

function operationContract(op: Operation): OperationContract {
  const responses =
    (openapiDocument().paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>)[op.path]?.[
      op.method
    ]?.responses ?? {};
  return {
    id: op.operationId,
    request: op.requestSchema,
    response: op.responseSchema,
    statuses: Object.keys(responses),
    documented: op.documented,
    clause: op.clause,
  };
}

let contracts: Map<string, OperationContract> | undefined;
function contractOf(operationId: string): OperationContract | undefined {
  contracts ??= new Map([
    ...operations().map((o) => [o.operationId, operationContract(o)] as const),
    ...webhookContracts(),
  ]);
  return contracts.get(operationId);
}

function statusDocumented(status: number, keys: string[]): boolean {
  const s = String(status);
  return keys.some((k) => k === s || (/^\dXX$/i.test(k) && k[0] === s[0]));
}

function statusFindings(c: OperationContract, stats: OperationStats): DriftFinding[] {
  if (c.statuses.length === 0) return [];
  return Object.entries(stats.statuses)
    .filter(([code]) => !statusDocumented(Number(code), c.statuses))
    .map(([code, n]) => ({
      kind: 'undocumented-status',
      operationId: c.id,
      direction: 'response',
      status: Number(code),
      count: n,
      contract: `documented: ${c.statuses.join(', ')}`,
    }));
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/'));
}

function valueFindings(
  c: OperationContract,
  direction: Direction,
  path: string,
  values: Record<string, number>,
  node: Record<string, unknown>,
  schema: SchemaName,
): DriftFinding[] {
  const shown = shownValues(node);
  if (!shown) return [];
  return Object.entries(values)
    .filter(([v]) => !shown.values.includes(v) && !isForcedTag(v))
    .map(([v, n]) => ({
      kind: shown.closed ? 'value-outside-enum' : 'undocumented-value',
      operationId: c.id,
      direction,
      path,
      value: v,
      count: n,
      contract: `${schema}.schema.json: ${shown.closed ? 'enum' : 'values shown'} ${shown.values.join(', ')}`,
    }));
}

function bodyFindings(c: OperationContract, direction: Direction, schema: SchemaName, body: BodyStats): DriftFinding[] {
  if (body.bodies === 0) return [];
  const out: DriftFinding[] = [];
  const seen = new Set(Object.keys(body.paths));
  for (const [path, s] of Object.entries(body.paths)) {
    const verdict = lookup(schema, path);
    // Report the topmost undocumented field only: what lives under it is undocumented by implication.
    if (verdict.kind === 'undocumented' && lookup(schema, parentOf(path)).kind === 'documented') {
      out.push({
        kind: 'undocumented-field',
        operationId: c.id,
        direction,
        path,
        count: s.count,
        // Written to drift.json with JSON.stringify, which leaves an undefined example out.
        example: s.example,
        contract: `${schema}.schema.json`,
      });
    }
    if (verdict.kind === 'documented' && s.values)
      out.push(...valueFindings(c, direction, path, s.values, verdict.node, schema));
  }
  // A field a client does not send is its choice; a field a server does not answer (or deliver) is worth knowing.
  if (direction === 'request' && !c.id.startsWith('webhook')) return out;
  for (const path of documentedPaths(schema)) {
    if (!seen.has(path) && seen.has(parentOf(path)) && (body.paths[parentOf(path)]?.types.object ?? 0) > 0) {
      out.push({
        kind: 'documented-field-never-seen',
        operationId: c.id,
        direction,
        path,
        count: 0,
        contract: `${schema}.schema.json`,
      });
    }
  }
  return out;
}

function proposals(c: OperationContract, stats: OperationStats): ProposedSchema[] {
  if (c.documented && c.id.startsWith('webhook') === false) return [];
  const out: ProposedSchema[] = [];
  for (const direction of ['request', 'response'] as const) {
    const body = stats[direction];
    if (body.bodies === 0) continue;
    const what = c.id.startsWith('webhook')
      ? 'webhook payload fields are not shown (spec 6)'
      : `${direction} bodies of the section 4.3 operations are not shown (spec 4.3, spec 2.7)`;
    out.push({
      operationId: c.id,
      direction,
      reason: what,
      schema: inferSchema(
        body,
        `${c.id} ${direction} (proposed)`,
        `Proposed from observed traffic, not part of the contract: ${what}.`,
      ),
    });
  }
  return out;
}

const KINDS: DriftKind[] = [
  'undocumented-field',
  'undocumented-value',
  'value-outside-enum',
  'undocumented-status',
  'documented-field-never-seen',
];

/**
 * `clientRequests` holds the traffic whose request bodies are judged: a client's (cassettes), never the suites'
 * own requests. By default every request in `obs` is judged.
 */
export function buildDriftReport(obs: Observations, now = new Date(), clientRequests: Observations = obs): DriftReport {
  const findings: DriftFinding[] = [];
  const proposedSchemas: ProposedSchema[] = [];
  for (const [id, stats] of Object.entries(obs.operations).sort(([a], [b]) => a.localeCompare(b))) {
    const c = contractOf(id);
    if (!c) continue;
    findings.push(...statusFindings(c, stats));
    const requests = clientRequests.operations[id]?.request;
    if (c.request && requests) findings.push(...bodyFindings(c, 'request', c.request, requests));
    if (c.response) findings.push(...bodyFindings(c, 'response', c.response, stats.response));
    proposedSchemas.push(...proposals(c, stats));
  }
  const counts = Object.fromEntries(KINDS.map((k) => [k, findings.filter((f) => f.kind === k).length])) as Record<
    DriftKind,
    number
  >;
  return {
    kind: 'flis-drift-report',
    generatedAt: now.toISOString(),
    sources: obs.sources,
    operationsSeen: Object.keys(obs.operations).length,
    counts,
    findings,
    proposedSchemas,
  };
}

/** Findings `--fail-on drift` gates on: all but the observations. */
export function driftCount(r: DriftReport): number {
  return r.findings.filter((f) => !OBSERVATION_KINDS.includes(f.kind)).length;
}

/** Findings reported but never gated. */
export function observationCount(r: DriftReport): number {
  return r.findings.length - driftCount(r);
}
