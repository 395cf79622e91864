/**
 * Faults of what one answer looks like (spec 2, 4, 7): a field of the wrong type or format, a field missing, the
 * wrong content type or bytes, a 5xx where the request could be judged. The stored records stay as they are; only
 * the answer is bent.
 */
import type { FastifyReply } from 'fastify';
import { HttpError, isBadBodyError } from '../errors.ts';
import type { FaultName } from '../faults.ts';
import { withUtcOffset } from '../formats.ts';
import { isObject, type JsonObject } from '../json.ts';
import { dateTimeParam } from '../query.ts';
import { billingGroupsOf } from '../routes/invoices.ts';
import type { Bend, FaultLayer, RouteKey } from './layer.ts';

type Reshape = (record: JsonObject) => JsonObject;

/** Each record of the answer (an array of them, or one) reshaped. */
function eachRecord(reshape: Reshape): (payload: unknown) => unknown {
  const one = (r: unknown) => (isObject(r) ? reshape(r) : r);
  return (payload) => (Array.isArray(payload) ? payload.map(one) : one(payload));
}

function reshapeAnswers(layer: FaultLayer, keys: RouteKey[], reshape: Reshape): void {
  for (const key of keys) layer.route(key, { answer: eachRecord(reshape) });
}

const OFFER_READS: RouteKey[] = ['GET /offers', 'GET /offers/:offerId'];
const GROUP_READS: RouteKey[] = ['GET /billingGroups', 'GET /billingGroups/:billingGroupId'];
const INVOICE_READS: RouteKey[] = [
  'GET /invoices',
  'GET /invoices/:invoiceId',
  'GET /invoicesBillingGroupDetailsSnapshot/:invoiceId',
];
const OFFER_WRITES: RouteKey[] = ['POST /offers', 'PUT /offers/:offerId', 'POST /offers/bulk'];

/** A day-first local time, a classic non-ISO rendering. */
function badTimestamp(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** The body stays JSON, the label says otherwise. */
function labelAsText(payload: unknown, _request: unknown, reply: FastifyReply): unknown {
  reply.header('content-type', 'text/plain; charset=utf-8');
  return payload;
}

export const shapeBends = {
  'offer-quantity-as-string': (layer) =>
    reshapeAnswers(layer, OFFER_READS, (o) => ({ ...o, quantity: String(o.quantity) })),
  'offer-unknown-price-strategy': (layer) =>
    reshapeAnswers(layer, OFFER_READS, (o) => ({ ...o, priceStrategy: 'Dynamic' })),
  'billing-group-missing-status': (layer) => reshapeAnswers(layer, GROUP_READS, ({ status: _status, ...rest }) => rest),
  'invoice-bad-created-timestamp': (layer) =>
    reshapeAnswers(layer, INVOICE_READS, (i) => ({ ...i, created: badTimestamp(String(i.created)) })),
  'ack-missing-batch-id': (layer) => layer.route('PUT /offers/:offerId', { answer: () => ({}) }),
  // Errors caused by the body surface as a server error, as a careless service would.
  'bad-input-500': (layer) => {
    for (const key of OFFER_WRITES)
      layer.route(key, {
        errorHandler: (error) => {
          throw isBadBodyError(error) ? new HttpError(500, 'INTERNAL', 'internal error') : error;
        },
      });
  },
  'text-content-type': (layer) => layer.route('GET /billingGroups', { onSend: labelAsText }),
  'snapshot-has-billing-groups': (layer) =>
    reshapeAnswers(layer, ['GET /invoicesBillingGroupDetailsSnapshot/:invoiceId'], (snapshot) => ({
      ...snapshot,
      billingGroups: billingGroupsOf(layer.ctx, layer.ctx.invoices.get(String(snapshot.id))?.billingGroupIds ?? []),
    })),
  'offer-timestamp-not-utc': (layer) =>
    reshapeAnswers(layer, OFFER_READS, (o) =>
      typeof o.transportTimestamp === 'string'
        ? { ...o, transportTimestamp: withUtcOffset(o.transportTimestamp, 120) }
        : o,
    ),
  'offer-readback-field-wrong': (layer) =>
    reshapeAnswers(layer, OFFER_READS, (o) => ({ ...o, offerVersion: `${String(o.offerVersion)}.0` })),
  'half-open-window-500': (layer) =>
    layer.route('GET /offers', {
      preHandler: (request) => {
        const halfOpen =
          (dateTimeParam(request, 'start') === undefined) !== (dateTimeParam(request, 'end') === undefined);
        if (halfOpen) throw new HttpError(500, 'INTERNAL', 'internal error');
      },
    }),
  // RFC 8259 section 8.1: a networked JSON text must not begin with a byte-order mark.
  'invoice-json-bom': (layer) =>
    layer.route('GET /invoices/:invoiceId', {
      onSend: (payload) => (typeof payload === 'string' ? `\uFEFF${payload}` : payload),
    }),
} satisfies Partial<Record<FaultName, Bend>>;
