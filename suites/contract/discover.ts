/**
 * Existing records to read: the suite does not invent billing groups or
 * invoices (nothing in the spec creates them), nor offers when writes are not
 * allowed; it takes the first one a list endpoint shows. An empty deployment is not a contract violation, so a test
 * with nothing to read is skipped and says why.
 */
import { operationById } from '../../specs/contract.ts';
import { type Exchange, is2xx, wholeListQuery, type CheckContext, skip } from '../lib/index.ts';

export interface Listed {
  id: string;
  item: Record<string, unknown>;
  list: Exchange;
}

function firstWithId(body: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(body)) return undefined;
  return body.find(
    (v): v is Record<string, unknown> =>
      typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string',
  );
}

/** The first record of a list operation, or a skip naming what the list answered. */
export async function firstListed(
  ctx: CheckContext,
  listOperationId: 'listOffers' | 'listBillingGroups' | 'listInvoices',
): Promise<Listed> {
  const op = operationById(listOperationId);
  const list = await ctx.api.op(op, { query: wholeListQuery(listOperationId) });
  const item = is2xx(list) ? firstWithId(list.response.body) : undefined;
  if (!item) {
    const why = is2xx(list) ? 'it lists no record with an id' : `it answered ${list.response.status}`;
    skip.nothingToJudge(
      ctx,
      `nothing to read: ${op.method.toUpperCase()} ${op.path} is how this suite finds a record, and ${why}`,
    );
  }
  return { id: item.id as string, item, list };
}
