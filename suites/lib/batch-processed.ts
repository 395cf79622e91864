/**
 * Whether the integration status of a batch (spec 1: read at
 * /bookings/requestsStatus/batch/{batchId}) says the write was processed. Its
 * body is not shown (spec 4.3), so only plain words count: a top-level `status`
 * or `state` such as PROCESSED, DONE or COMPLETED, or `processed`/`done`/
 * `completed` true. Any other shape says nothing, and a read-back then waits
 * out its deadline as before: this only lets a wrong server fail sooner.
 */
import { operationById } from '../../specs/contract.ts';
import type { CheckContext } from './check-context.ts';

const DONE_WORDS = /^(processed|done|completed?|succeeded|successful|success|finished)$/i;

export function saysProcessed(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  if (['status', 'state'].some((k) => typeof b[k] === 'string' && DONE_WORDS.test(b[k] as string))) return true;
  return ['processed', 'done', 'completed'].some((k) => b[k] === true);
}

/** True when every batch answers 2xx and says it was processed. Never fails the check: batch-status owns that lookup. */
export async function batchesProcessed(ctx: CheckContext, batchIds: readonly string[]): Promise<boolean> {
  if (batchIds.length === 0) return false;
  for (const batchId of batchIds) {
    const x = await ctx.api.op(operationById('getBatchRequestsStatus'), { params: { batchId } });
    if (x.response.status < 200 || x.response.status > 299 || !saysProcessed(x.response.body)) return false;
  }
  return true;
}

/** How often, at most, a waiting read-back asks whether its batches were processed. */
export const BATCH_CHECK_EVERY_MS = 500;
