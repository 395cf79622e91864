/**
 * record-identity (spec 4.1, 4.2, 4.3): a GET by id answers the record with
 * that id. Judged on records the run can tell apart: listed billing groups and
 * invoices (their `id` is documented, spec 2.4, 2.6; each also asked by its id
 * with the letters in the other case, another id, which must not answer it),
 * offers the run wrote
 * (the element of the answered array, spec 4.1, carries the id or the
 * offer's own unique reference, under its own id or another; two offers whose ids
 * differ only by letter case are two offers), listed offers (an answer whose offers carry
 * only another id the list shows), and section 4.3 records the run wrote under
 * two ids with two markers (their bodies are not shown, so only an answer
 * that carries the other record's id or marker, and not its own, is wrong).
 * The checks that read records by id on their way (forced statuses, invoice
 * forms and references, every offer flow) report themselves blocked by this
 * one when the answer is another record.
 *
 * What the server hands out names one thing each: two bulk writes of different
 * offers answer two batchIds (spec 1: "a write returns a batchId"), and the
 * batch status of each (whose body is not shown, spec 4.3) never speaks of the
 * other write's offers alone.
 */
import { operationById } from '../../specs/contract.ts';
import { caseTwinOf } from '../lib/case-twin.ts';
import { type Exchange, is2xx } from '../lib/exchange.ts';
import { checkTest, test, type CheckContext, skip } from '../lib/index.ts';
import { pollVisible } from '../lib/visibility-deadline.ts';
import { offerBulkItem, offerWriteBody, opaqueRecord } from '../lib/fixtures.ts';
import { freshId } from '../lib/fresh-id.ts';
import { recordsOf } from './listed-records.ts';
import { listedOfferIds, otherOfferIds } from '../lib/offer-identity.ts';
import { wholeListQuery } from '../lib/whole-list.ts';

/** Records read per kind: enough to see a GET answer a neighbour, few enough to stay cheap. */
const PER_KIND = 3;

type Json = Record<string, unknown>;

function idIn(x: Exchange): unknown {
  const body = x.response.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Json).id : undefined;
}

/**
 * GETs each id (read-only), and the same id with its letters in the other case (another id, spec 2: a server that
 * finds records case-insensitively answers the first record for it), and fails on the first 2xx answer whose id is
 * another one.
 */
async function expectOwnIds(ctx: CheckContext, operationIds: string[], param: string, ids: string[]): Promise<void> {
  const asked = ids.slice(0, PER_KIND).flatMap((id) => {
    const twin = caseTwinOf(id);
    return twin === undefined ? [{ id }] : [{ id }, { id: twin, twinOf: id }];
  });
  for (const { id, twinOf } of asked)
    for (const operationId of operationIds) {
      const op = operationById(operationId);
      const x = await ctx.api.op(op, { params: { [param]: id } });
      if (is2xx(x) && idIn(x) !== id)
        ctx.check.fail(
          `${op.method.toUpperCase()} ${op.path} for ${id}${twinOf !== undefined ? ` (${twinOf} with its letters in the other case)` : ''} answered the record with id ${JSON.stringify(idIn(x))}`,
          {
            exchanges: [x],
            pointer: '/id',
            operationId: op.operationId,
            method: op.method,
            path: op.path,
          },
        );
    }
}

function listedIds(ctx: CheckContext, x: Exchange, what: string): string[] {
  const ids = (Array.isArray(x.response.body) ? x.response.body : [])
    .map((r) => (typeof r === 'object' && r !== null ? (r as Json).id : undefined))
    .filter((id): id is string => typeof id === 'string');
  if (!is2xx(x) || ids.length === 0)
    skip.nothingToJudge(ctx, `${what} lists no record with an id (answer ${x.response.status}): nothing to read by id`);
  return ids;
}

test(
  ...checkTest(
    {
      check: 'record-identity',
      clauses: ['spec 4.2'],
      operation: operationById('getBillingGroup'),
      title: 'GET /billingGroups/{id} answers that billing group',
    },
    async (ctx) => {
      const list = await ctx.api.op(operationById('listBillingGroups'), { query: wholeListQuery('listBillingGroups') });
      await expectOwnIds(ctx, ['getBillingGroup'], 'billingGroupId', listedIds(ctx, list, 'GET /billingGroups'));
    },
  ),
);

test(
  ...checkTest(
    {
      check: 'record-identity',
      clauses: ['spec 4.2'],
      operation: operationById('getInvoice'),
      title: 'GET /invoices/{id} and its snapshot answer that invoice',
    },
    async (ctx) => {
      const list = await ctx.api.op(operationById('listInvoices'), { query: wholeListQuery('listInvoices') });
      await expectOwnIds(
        ctx,
        ['getInvoice', 'getInvoiceBillingGroupDetailsSnapshot'],
        'invoiceId',
        listedIds(ctx, list, 'GET /invoices'),
      );
    },
  ),
);

test(
  ...checkTest(
    {
      check: 'record-identity',
      clauses: ['spec 4.1'],
      operation: operationById('getOffer'),
      title: 'GET /offers/{id} answers the listed offer with that id',
    },
    async (ctx) => {
      const { ids, exchange } = await listedOfferIds(ctx.api);
      if (ids.size === 0) listedIds(ctx, exchange, 'GET /offers');
      // The answer is an array (spec 4.1); one whose offers all carry another id the list shows is another record.
      for (const id of [...ids].slice(0, PER_KIND)) {
        const x = await ctx.api.op(operationById('getOffer'), { params: { offerId: id } });
        const others = otherOfferIds(x, id).filter((other) => ids.has(other));
        if (others.length > 0)
          ctx.check.fail(`GET /offers/${id} answered the listed offer ${others.join(', ')}, not ${id}`, {
            exchanges: [exchange, x],
            pointer: '/0/id',
            operationId: 'getOffer',
            method: 'get',
            path: '/offers/{offerId}',
          });
      }
    },
  ),
);

/** What a record the run wrote can be recognised by: its id, and a marker only it carries. */
interface Written {
  id: string;
  marker: string;
}

/**
 * The answer carries another written record's marker and not its own, or that record's id and none of its own: it is
 * that other record (an answer under its own id with another record's content is another record too).
 */
function otherRecord(answer: unknown, own: Written, others: Written[]): Written | undefined {
  const text = JSON.stringify(answer);
  if (text.includes(own.marker)) return undefined;
  const byMarker = others.find((o) => text.includes(o.marker));
  if (byMarker) return byMarker;
  const id = typeof answer === 'object' && answer !== null ? (answer as Json).id : undefined;
  return id === own.id ? undefined : others.find((o) => id === o.id);
}

async function expectEachOwn(
  ctx: CheckContext,
  written: Written[],
  read: (w: Written) => Promise<Exchange>,
  answerOf: (x: Exchange, w: Written) => unknown,
): Promise<void> {
  for (const w of written) {
    const seen = await pollVisible(() => read(w), is2xx);
    if (!seen.ok) continue; // never readable: operation-served's and offer-upsert's to judge, not this check's
    const other = otherRecord(
      answerOf(seen.value, w),
      w,
      written.filter((o) => o !== w),
    );
    if (other)
      ctx.check.fail(`GET of ${w.id} answered the record written as ${other.id}`, {
        exchanges: [seen.value],
        ...(seen.value.operationId ? { operationId: seen.value.operationId } : {}),
      });
  }
}

test(
  ...checkTest(
    {
      check: 'record-identity',
      clauses: ['spec 4.1'],
      operation: operationById('getOffer'),
      title:
        'GET /offers/{id} answers the offer written under that id, and ids that differ only by case are two offers',
      writes: true,
    },
    async (ctx) => {
      const written: Written[] = [];
      // Spec 2: identifiers are strings; two strings that differ only by letter case name two offers, and a GET of
      // one that answers the other's write answers another record.
      const id = `${freshId('identity', ctx.runId)}-ab`;
      for (const [k, offerId] of [
        ['a', id],
        ['b', id.replace(/-ab$/, '-AB')],
      ] as const) {
        const marker = freshId(`identity-ref-${k}`, ctx.runId);
        const body = offerWriteBody(ctx.runId);
        const x = await ctx.api.op(operationById('upsertOffer'), {
          params: { offerId },
          json: { ...body, offer: { ...body.offer, references: [marker] } },
        });
        ctx.cleanup.offer(offerId, { awaitVisible: true });
        if (!is2xx(x))
          skip.nothingToJudge(
            ctx,
            `PUT /offers/${offerId} answered ${x.response.status}: nothing written to read by id`,
          );
        written.push({ id: offerId, marker });
      }
      const read = (w: Written) => ctx.api.op(operationById('getOffer'), { params: { offerId: w.id } });
      // The answer is an array (spec 4.1): the element with the id asked for, else the only one.
      await expectEachOwn(ctx, written, read, (x, w) => {
        const items = recordsOf(x.response.body);
        return items.find((o) => o.id === w.id) ?? (items.length === 1 ? items[0] : items);
      });
    },
  ),
);

test(
  ...checkTest(
    {
      check: 'record-identity',
      clauses: ['spec 4.3'],
      operation: operationById('getBooking'),
      title: 'GET /bookings/{id} answers the booking written under that id',
      writes: true,
    },
    async (ctx) => {
      const written: Written[] = [];
      for (const k of ['a', 'b']) {
        const id = freshId(`identity-booking-${k}`, ctx.runId);
        const marker = freshId(`identity-marker-${k}`, ctx.runId);
        const x = await ctx.api.op(operationById('upsertBooking'), {
          params: { bookingId: id },
          json: { ...opaqueRecord(ctx.runId), reference: marker },
        });
        if (!is2xx(x))
          skip.nothingToJudge(
            ctx,
            `PUT /bookings/${id} answered ${x.response.status}: request bodies of spec 4.3 are not shown`,
          );
        ctx.cleanup.add(`delete booking ${id}`, () =>
          ctx.api.op(operationById('deleteBooking'), { params: { bookingId: id } }),
        );
        written.push({ id, marker });
      }
      const read = (w: Written) => ctx.api.op(operationById('getBooking'), { params: { bookingId: w.id } });
      await expectEachOwn(ctx, written, read, (x) => x.response.body);
    },
  ),
);

/** One bulk write of the test: the offers it wrote, the batchId it was answered, and the exchange. */
interface BulkWrite {
  ids: string[];
  batchId: string;
  exchange: Exchange;
}

async function bulkOfTwo(ctx: CheckContext): Promise<BulkWrite> {
  const items = [0, 1].map(() => ({ ...offerBulkItem(ctx.runId), id: ctx.cleanup.offer(freshId('identity-bulk')) }));
  const x = await ctx.api.op(operationById('bulkWriteOffers'), { json: items });
  if (!is2xx(x)) skip.nothingToJudge(ctx, `POST /offers/bulk answered ${x.response.status}: no batchId to judge`);
  ctx.check.expectSchema(x, 'bulk-ack', 'spec 2.7');
  return { ids: items.map((i) => i.id), batchId: (x.response.body as { batchId: string }).batchId, exchange: x };
}

test(
  ...checkTest(
    {
      check: 'record-identity',
      clauses: ['spec 4.1', 'spec 4.3'],
      operation: operationById('bulkWriteOffers'),
      title: 'two bulk writes answer two batchIds, and each batch status speaks of its own write',
      writes: true,
    },
    async (ctx) => {
      const [a, b] = [await bulkOfTwo(ctx), await bulkOfTwo(ctx)];
      if (a.batchId === b.batchId)
        ctx.check.fail(
          `two POST /offers/bulk of different offers (${a.ids.join(', ')}; then ${b.ids.join(', ')}) both answered batchId ${JSON.stringify(a.batchId)}: a batchId names one write (spec 1), so the status of the first can no longer be read`,
          { exchanges: [a.exchange, b.exchange], pointer: '/batchId' },
        );
      const status = operationById('getBatchRequestsStatus');
      for (const [own, other] of [
        [a, b],
        [b, a],
      ] as const) {
        const seen = await pollVisible(() => ctx.api.op(status, { params: { batchId: own.batchId } }), is2xx);
        if (!seen.ok) continue; // a batch status that never answers is batch-status's to judge
        const text = seen.value.response.text;
        const names = (ids: string[]) => ids.some((id) => text.includes(id));
        if (!names(own.ids) && names(other.ids))
          ctx.check.fail(
            `GET /bookings/requestsStatus/batch/${own.batchId} speaks of the offers of another bulk write (${other.ids.join(', ')}) and of none of its own (${own.ids.join(', ')})`,
            {
              exchanges: [own.exchange, seen.value],
              operationId: status.operationId,
              method: status.method,
              path: status.path,
            },
          );
      }
    },
  ),
);
