/**
 * no-5xx: a server does not answer 5xx to a request it can judge (HTTP
 * semantics; contract). Every check already fails on any 5xx it meets
 * (checkTest sweeps its exchanges, suites/lib/no-5xx.ts); these probes go looking for one with bad input to the
 * documented operations: malformed JSON and schema-invalid write bodies,
 * wrongly typed query parameters, a window with one bound only (start or end
 * alone: required-ness is not shown, so a 4xx or a list are both fine) and
 * unknown ids (of the section 4.3 reads too). Only the 5xx is judged here:
 * whether a server refuses bad input or reads it leniently is not shown (the
 * spec binds the client, spec 5 rule 3; spec 7 shows no error codes), and the
 * advisory bad-input-rejected check reports acceptance.
 */
import { operationById, operations, type Operation, type QueryParam } from '../../specs/contract.ts';
import {
  type CallOptions,
  type Exchange,
  is2xx,
  checkTest,
  test,
  type CheckContext,
  WHOLE_OFFER_WINDOW,
  freshId,
  MALFORMED_JSON,
  placeholderParams,
  schemaInvalidBody,
} from '../lib/index.ts';
import { requestClause } from './clauses.ts';
import { firstListed } from './discover.ts';

const WRONG_TYPED: Record<string, string> = {
  date: 'not-a-date',
  'date-time': 'yesterday-ish',
  integer: 'many',
  boolean: 'maybe',
};

function wrongTypedValue(q: QueryParam): string | undefined {
  return WRONG_TYPED[q.format ?? q.type];
}

/** Path parameters that name real records where the suite knows some, so only the body can explain a refusal. */
async function paramsForBadBody(ctx: CheckContext, op: Operation): Promise<Record<string, string>> {
  const params = placeholderParams(op, ctx.runId);
  if ('offerId' in params) params.offerId = freshId('offer', ctx.runId);
  if ('billingGroupId' in params) params.billingGroupId = (await firstListed(ctx, 'listBillingGroups')).id;
  return params;
}

/** A wrongly accepted bad body may have written something: undo it as far as the answer tells what. */
function undoAcceptedBadBody(ctx: CheckContext, op: Operation, params: Record<string, string>, x: Exchange): void {
  const ackId = (x.response.body as { id?: unknown } | undefined)?.id;
  if (op.path.startsWith('/offers'))
    for (const id of [params.offerId, typeof ackId === 'string' ? ackId : undefined].filter((v): v is string => !!v))
      ctx.cleanup.offer(id, { awaitVisible: true });
  if (params.billingGroupId)
    ctx.cleanup.add('remove a status forced from a bad body', () =>
      ctx.api.op(operationById('removeBillingGroupStatus'), { params }),
    );
}

async function badBodies(ctx: CheckContext, op: Operation): Promise<void> {
  const params = await paramsForBadBody(ctx, op);
  const probes: { what: string; call: CallOptions }[] = [
    { what: 'malformed JSON', call: { raw: MALFORMED_JSON } },
    {
      what: `a body that breaks ${op.requestSchema}.schema.json (${requestClause(op)})`,
      call: { json: schemaInvalidBody(op.requestSchema!) },
    },
  ];
  for (const probe of probes) {
    const x = await ctx.api.op(op, { params, ...probe.call });
    // A lenient server may carry it out: undo what it may have written.
    if (is2xx(x)) undoAcceptedBadBody(ctx, op, params, x);
    ctx.check.expectNo5xx(x, probe.what);
  }
}

/** Valid bounds of a window, by the format of its `start` and `end` (spec 4.1: date-times; spec 4.2: dates). */
const WINDOW_BOUNDS: Record<string, { start: string; end: string }> = {
  'date-time': WHOLE_OFFER_WINDOW,
  date: { start: '1900-01-01', end: '2199-12-31' },
};

/** A window with one valid bound only, each way. */
async function halfOpenWindows(ctx: CheckContext, op: Operation): Promise<void> {
  const start = op.query.find((q) => q.name === 'start');
  const bounds = start && op.query.some((q) => q.name === 'end') ? WINDOW_BOUNDS[start.format ?? ''] : undefined;
  if (!bounds) return;
  for (const bound of ['start', 'end'] as const)
    ctx.check.expectNo5xx(
      await ctx.api.op(op, { query: { [bound]: bounds[bound] } }),
      `a half-open window: ${bound} alone`,
    );
}

async function badQuery(ctx: CheckContext, op: Operation): Promise<void> {
  const query = Object.fromEntries(
    op.query.map((q) => [q.name, wrongTypedValue(q)]).filter(([, v]) => v !== undefined),
  );
  ctx.check.expectNo5xx(
    await ctx.api.op(op, { query }),
    `wrongly typed query parameters ${Object.keys(query).join(', ')}`,
  );
  await halfOpenWindows(ctx, op);
}

async function unknownIds(ctx: CheckContext, op: Operation): Promise<void> {
  ctx.check.expectNo5xx(
    await ctx.api.op(op, { params: placeholderParams(op, ctx.runId) }),
    'ids of records that do not exist',
  );
}

function probeOf(op: Operation): ((ctx: CheckContext, op: Operation) => Promise<void>) | undefined {
  if (op.requestSchema) return badBodies;
  if (op.pathParams.length > 0) return unknownIds;
  if (op.query.some((q) => wrongTypedValue(q) !== undefined)) return badQuery;
  return undefined;
}

/**
 * Probed: every documented operation, and each GET of spec 4.3 that names a record (read-only, so safe on any
 * target): asked for a record that does not exist, a server may answer anything but a 5xx.
 */
function probed(o: Operation): boolean {
  return o.documented || (o.method === 'get' && o.pathParams.length > 0);
}

for (const op of operations().filter(probed)) {
  const probe = probeOf(op);
  if (!probe) continue;
  // Anything but a GET may be carried out by a server that wrongly accepts it.
  test(
    ...checkTest(
      // The same id and clause as the sweep's (NO_5XX, suites/lib/no-5xx.ts): these probes are where no-5xx lives.
      { check: 'no-5xx', operation: op, writes: op.method !== 'get' },
      (ctx) => probe(ctx, op),
    ),
  );
}
