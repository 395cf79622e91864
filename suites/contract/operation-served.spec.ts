/**
 * operation-served: every catalogued operation is served (spec 4.3). With a
 * valid token, a parameterless GET of 4.3 answers a 2xx with a JSON body, or a
 * 4xx other than 404/405/410: its query parameters are not shown, so a 400
 * that asks for a missing parameter is a fair answer. 404, 405 and 410 mean
 * the operation is not there; 5xx means it is broken. The milestone PUTs of a transport order are asked too, when
 * writes are allowed (below).
 */
import { operationById, operations } from '../../specs/contract.ts';
import { checkTest, freshId, is2xx, opaqueRecord, recordsOf, skip, test } from '../lib/index.ts';

const NOT_THERE = new Set([404, 405, 410]);

for (const op of operations().filter((o) => !o.documented && o.method === 'get' && o.pathParams.length === 0)) {
  test(
    ...checkTest({ check: 'operation-served', operation: op }, async ({ api, check, testInfo }) => {
      const x = await api.op(op);
      const status = x.response.status;
      if (NOT_THERE.has(status))
        check.fail(`the operation is catalogued in spec 4.3 but answered ${status}: it is not served`, {
          exchanges: [x],
        });
      if (status >= 500) check.fail(`the operation answered ${status}: it is not served correctly`, { exchanges: [x] });
      if (is2xx(x)) {
        const body = x.response.body;
        if (body === undefined || typeof body === 'string')
          check.fail(
            `a 2xx answer must carry a JSON body (bodies are JSON, spec 4); got ${body === undefined ? 'an empty body' : 'text that is not JSON'}`,
            { exchanges: [x] },
          );
        return;
      }
      if (status < 400)
        check.fail(`expected a 2xx with a JSON body, or a 4xx other than 404/405/410; got ${status}`, {
          exchanges: [x],
        });
      testInfo.annotations.push({
        type: 'note',
        description: `answered ${status} with a valid token; accepted, since the query parameters of spec 4.3 are not shown`,
      });
    }),
  );
}

/**
 * The two reads spec 4.3 lists as POSTs (a search, an analysis) are asked once with an empty body when writes are
 * allowed (a POST is a write method to a read-only target): a 2xx, or a 4xx other than 404/405/410 for a body they
 * need (not shown).
 */
for (const op of operations().filter((o) => ['/customers/search', '/analytics/sla'].includes(o.path))) {
  test(
    ...checkTest({ check: 'operation-served', operation: op, writes: true }, async (ctx) => {
      const x = await ctx.api.op(op, { json: {} });
      const status = x.response.status;
      if (NOT_THERE.has(status) || status >= 500)
        ctx.check.fail(
          `POST ${op.path} with an empty body answered ${status}: the operation is catalogued in spec 4.3 and ${status >= 500 ? 'broken' : 'not served'}`,
          { exchanges: [x] },
        );
    }),
  );
}

const TRANSPORT_ORDER = '/carrierBookings/{bookingId}/transportOrder/{transportOrderId}/';

/**
 * The milestone PUTs of a transport order take no record of their own to exist first (a PUT to a path that carries
 * the id creates it, spec 1), so with a carrier booking the deployment lists and a fresh transport order each is
 * asked once (writes only: the fresh order is deleted after). 404, 405 and 410 there mean the operation is not
 * served; a 4xx for the body (not shown, spec 4.3) is fair.
 */
for (const op of operations().filter(
  (o) => !o.documented && o.method === 'put' && o.path.startsWith(TRANSPORT_ORDER),
)) {
  test(
    ...checkTest({ check: 'operation-served', operation: op, writes: true }, async (ctx) => {
      const list = await ctx.api.op(operationById('listCarrierBookings'));
      const booking = recordsOf(list.response.body).find((b) => typeof b.id === 'string');
      if (!is2xx(list) || !booking)
        skip.nothingToJudge(ctx, `GET /carrierBookings answered ${list.response.status} with no record carrying an id`);
      const params = Object.fromEntries(op.pathParams.map((p) => [p, freshId(p, ctx.runId)]));
      params.bookingId = String(booking.id);
      const del = operationById('deleteTransportOrder');
      const order = { bookingId: params.bookingId, transportOrderId: params.transportOrderId ?? '' };
      ctx.cleanup.add(`delete transport order ${order.transportOrderId}`, () => ctx.api.op(del, { params: order }));
      const x = await ctx.api.op(op, { params, json: opaqueRecord(ctx.runId) });
      const status = x.response.status;
      if (NOT_THERE.has(status) || status >= 500)
        ctx.check.fail(
          `PUT of a milestone of a fresh transport order of carrier booking ${params.bookingId} answered ${status}: the operation is catalogued in spec 4.3 and ${status >= 500 ? 'broken' : 'not served'}`,
          { exchanges: [list, x] },
        );
    }),
  );
}
