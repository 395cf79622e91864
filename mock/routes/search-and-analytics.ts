/** POST /customers/search and POST /analytics/sla: reads that take a JSON body (spec 4.3, bodies not shown). */
import type { MockContext } from '../context.ts';
import { invalidBody } from '../errors.ts';
import { dateStartMs, dateTimeMs } from '../formats.ts';
import type { JsonObject } from '../json.ts';
import { requireObjectBody } from '../validation.ts';
import type { HandlerFactory } from './catalogue-handlers.ts';

function containsText(record: JsonObject, text: string): boolean {
  const needle = text.toLowerCase();
  return Object.values(record).some(
    (v) => (typeof v === 'string' || typeof v === 'number') && String(v).toLowerCase().includes(needle),
  );
}

function fieldMatches(record: JsonObject, field: string, wanted: unknown): boolean {
  const value = record[field];
  if (typeof wanted === 'string' && typeof value === 'string') return value.toLowerCase() === wanted.toLowerCase();
  return JSON.stringify(value) === JSON.stringify(wanted);
}

const FREE_TEXT_KEYS = ['query', 'q', 'text'];
/** Paging words are not customer fields; the whole (small) result is answered. */
const PAGING_KEYS = ['limit', 'page', 'offset', 'size'];

/** Free text under query/q/text matches any field; every other key must equal the field of that name. */
export const searchCustomers: HandlerFactory = (ctx) => async (request) => {
  const criteria = Object.entries(requireObjectBody(request.body)).filter(([key]) => !PAGING_KEYS.includes(key));
  return ctx.records
    .list('customers')
    .filter((c) =>
      criteria.every(([key, wanted]) =>
        FREE_TEXT_KEYS.includes(key)
          ? typeof wanted === 'string' && containsText(c, wanted)
          : fieldMatches(c, key, wanted),
      ),
    );
};

function boundMs(body: JsonObject, name: string): number | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  const ms = typeof value === 'string' ? (dateStartMs(value) ?? dateTimeMs(value)) : undefined;
  // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
  if (ms === undefined) throw invalidBody(`'${name}' must be an ISO 8601 date or date-time`);
  return ms;
}

function slaOf(ctx: MockContext, fromMs: number | undefined, toMs: number | undefined): JsonObject {
  const bookings = ctx.records.list('bookings').filter((b) => {
    const t = typeof b.createdAt === 'string' ? Date.parse(b.createdAt) : NaN;
    return (fromMs === undefined || t >= fromMs) && (toMs === undefined || t <= toMs);
  });
  const onTime = bookings.filter((b) => b.onTime !== false).length;
  return {
    bookings: bookings.length,
    onTime,
    late: bookings.length - onTime,
    onTimeRate: bookings.length === 0 ? null : Math.round((onTime / bookings.length) * 1000) / 1000,
  };
}

/** On-time performance of the bookings created in an optional window ({from, to}). */
export const slaAnalytics: HandlerFactory = (ctx) => async (request) => {
  const body = requireObjectBody(request.body);
  const [fromMs, toMs] = [boundMs(body, 'from'), boundMs(body, 'to')];
  return {
    generatedAt: new Date().toISOString(),
    from: body.from ?? null,
    to: body.to ?? null,
    ...slaOf(ctx, fromMs, toMs),
  };
};
