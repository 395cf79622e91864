/**
 * deprecated-served: the operations spec 9 rule 3 deprecates are still listed,
 * so they are still served. With a valid token they answer neither 405, 410
 * nor 5xx, and not 404 where 404 can only mean "no such operation".
 *
 * 404 is ambiguous when the path names a record: "no such record" is a
 * conformant answer to a GET, DELETE or child POST on an id that does not exist.
 * So the suite first makes the record exist (an upsert PUT to its path, spec 1),
 * waits up to the visibility deadline (writes may be asynchronous), and only
 * then counts a 404 against the operation. Where it cannot create the record
 * (writes not allowed, or the upsert refused the body, whose fields are not
 * shown), a 404 judges nothing and the test is skipped, saying so.
 */
import { operations } from '../../specs/contract.ts';
import {
  type Exchange,
  is2xx,
  checkTest,
  test,
  type CheckContext,
  skip,
  pollVisible,
  freshId,
  opaqueRecord,
} from '../lib/index.ts';
import { catalogueBody, deleteCreatedLater, deleteLater, operationAt } from './catalogue-writes.ts';
import { recordTemplate } from './records.ts';

const NEVER_SERVED = new Set([405, 410]);

function judge(ctx: CheckContext, x: Exchange, on404: { conclusive: boolean; why: string }): void {
  const status = x.response.status;
  if (NEVER_SERVED.has(status) || status >= 500) {
    ctx.check.fail(
      `a deprecated operation is still listed, so it must still be served (spec 9 rule 3); it answered ${status}`,
      { exchanges: [x] },
    );
  }
  if (status !== 404) return;
  if (on404.conclusive)
    ctx.check.fail(`answered 404, and ${on404.why}: the deprecated operation is not served (spec 9 rule 3)`, {
      exchanges: [x],
    });
  // Nothing to judge, not inconclusive: no other writer disturbed it; this deployment gave no record to address.
  skip.nothingToJudge(ctx, `answered 404, which may mean "no such record": ${on404.why}`);
}

/** Writes the record the operation needs, or says why it could not. */
async function createRecord(
  ctx: CheckContext,
  template: string,
  params: Record<string, string>,
): Promise<{ ok: true; put: Exchange } | { ok: false; why: string }> {
  if (!ctx.api.target.allowWrites)
    return { ok: false, why: 'writes are not allowed, so the suite could not create a record to address' };
  const upsert = operationAt('put', template);
  if (!upsert) return { ok: false, why: `the contract has no PUT ${template} to create a record to address` };
  const put = await ctx.api.op(upsert, { params, json: opaqueRecord(ctx.runId) });
  deleteLater(ctx, template, params);
  if (!is2xx(put))
    return {
      ok: false,
      why: `PUT ${template} answered ${put.response.status}, so no record to address exists`,
    };
  return { ok: true, put };
}

for (const op of operations().filter((o) => o.deprecated)) {
  test(
    ...checkTest(
      {
        check: 'deprecated-served',
        operation: op,
        writes: op.method !== 'get',
      },
      async (ctx) => {
        const params = Object.fromEntries(op.pathParams.map((p) => [p, freshId(p, ctx.runId)]));
        const json = catalogueBody(op, ctx.runId);
        const call = () => ctx.api.op(op, { params, ...(json !== undefined ? { json } : {}) });
        const record = recordTemplate(op);
        if (!record) {
          const x = await call();
          if (is2xx(x) && op.method === 'put') deleteLater(ctx, op.path, params);
          if (is2xx(x) && op.method === 'post') deleteCreatedLater(ctx, op, json, x);
          const why =
            op.method === 'put'
              ? 'a PUT to a path carrying the id creates the record (spec 1), so no record is missing'
              : 'the path names no record that could be missing';
          return judge(ctx, x, { conclusive: true, why });
        }
        const created = await createRecord(ctx, record, params);
        if (!created.ok) return judge(ctx, await call(), { conclusive: false, why: created.why });
        // Writes may be asynchronous (spec 1): a 404 right after the PUT may only mean "not visible yet".
        const seen = await pollVisible(call, (x) => x.response.status !== 404);
        if (op.method === 'delete' && is2xx(seen.value))
          ctx.testInfo.annotations.push({ type: 'note', description: `${record} deleted by the operation under test` });
        judge(ctx, seen.value, {
          conclusive: true,
          why: `the record was written by PUT ${record} (answered ${created.put.response.status}) and was still not found after ${seen.elapsedMs} ms`,
        });
      },
    ),
  );
}
