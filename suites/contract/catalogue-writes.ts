/**
 * Writes to the operations of spec 4.3, whose bodies are not shown: what to send, and how to undo what a write
 * may have created. Shared by the checks that write there for real (deprecated-served, auth-required).
 */
import { operations, type Operation } from '../../specs/contract.ts';
import { type Exchange, type CheckContext, opaqueRecord } from '../lib/index.ts';

export function operationAt(method: Operation['method'], path: string): Operation | undefined {
  return operations().find((o) => o.method === method && o.path === path);
}

/** Bodies are not shown for 4.3 (spec 4.3): a small tagged record; an array of them for a bulk path. */
export function catalogueBody(op: Operation, runId: string): unknown {
  if (op.method !== 'put' && op.method !== 'post') return undefined;
  return op.path.endsWith('/bulk') ? [opaqueRecord(runId), opaqueRecord(runId)] : opaqueRecord(runId);
}

/** Undo every record the test wrote, through the DELETE of its path (best effort). */
export function deleteLater(ctx: CheckContext, template: string, params: Record<string, string>): void {
  const del = operationAt('delete', template);
  if (del) ctx.cleanup.add(`delete ${template} written by the suite`, () => ctx.api.op(del, { params }));
}

function idsIn(body: unknown): string[] {
  const items = Array.isArray(body) ? body : [body];
  return items.flatMap((v) =>
    typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string'
      ? [(v as { id: string }).id]
      : [],
  );
}

/**
 * A POST to a collection may have created the records it was sent, addressed as
 * <collection>/{id}: under the ids sent or the ids the answer names (the server
 * may assign its own; the answer's shape is not shown, so both are tried).
 */
export function deleteCreatedLater(ctx: CheckContext, op: Operation, sent: unknown, answer: Exchange): void {
  const collection = op.path.replace(/\/bulk$/, '');
  const del = operations().find(
    (o) =>
      o.method === 'delete' &&
      o.path.startsWith(`${collection}/{`) &&
      o.path.split('/').length === collection.split('/').length + 1,
  );
  if (!del) return;
  for (const id of new Set([...idsIn(sent), ...idsIn(answer.response.body)]))
    deleteLater(ctx, del.path, { [del.pathParams[0]!]: id });
}
