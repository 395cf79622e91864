/**
 * operation-served and json-content-type on the GET operations of spec 4.3
 * whose paths name records ({bookingId}, {orderId}, ...): called with ids the
 * run wrote (when writes are allowed) or discovered (suites/contract/record-ids.ts),
 * so a 404, 405 or 410 can only mean the operation is not served. The rules
 * are those of operation-served.spec.ts and json-content-type.spec.ts: a 2xx
 * with a JSON body labelled as JSON, or a 4xx other than 404/405/410 (query
 * parameters and bodies of 4.3 are not shown). An operation no id can be
 * found for is skipped, saying why.
 */
import { operations, type Operation } from '../../specs/contract.ts';
import { type Exchange, is2xx, checkTest, test, type CheckContext, skip, pollVisible } from '../lib/index.ts';
import { resolveIds } from './record-ids.ts';

const NOT_THERE = new Set([404, 405, 410]);
/** The one record GET whose being served batch-status owns. */
const BATCH_STATUS = 'getBatchRequestsStatus';

/** Calls the operation with resolved ids; a 404 right after the run wrote the record is asked again until the deadline (spec 1: writes are asynchronous). */
async function callWithIds(ctx: CheckContext, op: Operation): Promise<Exchange> {
  const ids = await resolveIds(ctx, op);
  if ('unresolved' in ids) skip.nothingToJudge(ctx, ids.unresolved);
  const first = await ctx.api.op(op, { params: ids.params });
  if (first.response.status !== 404 || !ctx.api.target.allowWrites) return first;
  return (
    await pollVisible(
      () => ctx.api.op(op, { params: ids.params }),
      (x) => x.response.status !== 404,
    )
  ).value;
}

// Deprecated operations are deprecated-served's (spec 9 rule 3), which knows what a 404 or 410 means for them.
const recordGets = operations().filter(
  (o) => !o.documented && !o.deprecated && o.method === 'get' && o.pathParams.length > 0,
);

for (const op of recordGets) {
  test(
    ...checkTest({ check: 'operation-served', operation: op }, async (ctx) => {
      const x = await callWithIds(ctx, op);
      const status = x.response.status;
      // Spec 1 promises a write's batch its status there: batch-status owns that, where the run writes (one fault, one
      // failure). A read-only run has no batch-status, so the rule of 4.3 judges it here.
      if (NOT_THERE.has(status) && op.operationId === BATCH_STATUS && ctx.api.target.allowWrites)
        skip.blockedBy(ctx, 'batch-status', x, `the batch status answered ${status} for a batchId the run's write got`);
      if (NOT_THERE.has(status))
        ctx.check.fail(
          `the operation is catalogued in spec 4.3 but answered ${status} for a record the run ${ctx.api.target.allowWrites ? 'wrote or ' : ''}found listed: it is not served`,
          { exchanges: [x] },
        );
      if (status >= 500)
        ctx.check.fail(`the operation answered ${status}: it is not served correctly`, { exchanges: [x] });
      if (is2xx(x) && (x.response.body === undefined || typeof x.response.body === 'string'))
        ctx.check.fail('a 2xx answer must carry a JSON body (bodies are JSON, spec 4)', { exchanges: [x] });
      if (status < 200 || (status >= 300 && status < 400))
        ctx.check.fail(`expected a 2xx with a JSON body, or a 4xx other than 404/405/410; got ${status}`, {
          exchanges: [x],
        });
    }),
  );

  test(
    ...checkTest({ check: 'json-content-type', operation: op }, async (ctx) => {
      const x = await callWithIds(ctx, op);
      if (!is2xx(x))
        skip.nothingToJudge(
          ctx,
          `no 2xx answer to judge (got ${x.response.status}); the status is judged by operation-served`,
        );
      ctx.check.expectJsonContentType(x);
    }),
  );
}
