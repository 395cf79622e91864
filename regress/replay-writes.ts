/**
 * The replay's write ledger: what the target accepted of a partner's writes, and the contract's way to undo each
 * (newest first), or why it cannot be undone. Undone when the partner's replay ends, interrupted or not.
 */
import type { LocatedExchange } from '../recorder/cassette-format.ts';
import { type Operation, operations } from '../specs/contract.ts';
import type { Connection } from '../net/types.ts';
import type { Prepared } from './replay-request.ts';
import { send } from './send.ts';

/** Undo steps for what the replay wrote, newest first: DELETE cancels an offer (spec 3 rule 4). */
export class Writes {
  private readonly steps = new Map<string, { path: string; what: string }>();
  readonly leftBehind: string[] = [];
  private readonly notes = new Set<string>();

  /** A record written under `path` (the target's id in it); undone by DELETE where the contract has one. */
  wrote(template: string, path: string): void {
    if (this.steps.has(path)) return;
    const del = operations().find((o) => o.method === 'delete' && o.path === template);
    if (del) this.steps.set(path, { path, what: `${template} ${path}` });
    else if (!this.notes.has(template)) {
      this.notes.add(template);
      this.leftBehind.push(`${path}: the contract has no DELETE for ${template}; the record carries the run id`);
    }
  }

  /** A write the contract gives no way to undo (a POST to a collection with no DELETE for its items). */
  cannotUndo(template: string, path: string): void {
    if (this.notes.has(template)) return;
    this.notes.add(template);
    this.leftBehind.push(`${path}: the contract has no DELETE for what POST ${template} creates`);
  }

  async undo(baseUrl: string, connection: Connection): Promise<void> {
    for (const s of [...this.steps.values()].reverse()) {
      try {
        const r = await send(baseUrl, connection, { method: 'DELETE', path: s.path, query: [] });
        if ((r.status < 200 || r.status > 299) && r.status !== 404)
          this.leftBehind.push(`${s.path}: DELETE answered ${r.status}`);
      } catch (e) {
        this.leftBehind.push(`${s.path}: DELETE failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    this.steps.clear();
  }
}

/** Undo steps for a write the target accepted. */
export function registerWrite(
  writes: Writes,
  e: LocatedExchange,
  op: Operation | undefined,
  prepared: Prepared,
  body: unknown,
): void {
  if (!op) return;
  // A PUT is undone by the contract's DELETE on the same path: a record removed (an offer cancelled), a forced
  // billing-group status removed (spec 3 rule 2).
  if (e.request.method === 'PUT') writes.wrote(op.path, prepared.path);
  if (op.operationId === 'bulkUpdateBillingGroupStatus' && prepared.out.body) {
    const items: unknown = JSON.parse(prepared.out.body);
    if (Array.isArray(items))
      for (const it of items) {
        const id = it && typeof it === 'object' ? (it as { billingGroupId?: unknown }).billingGroupId : undefined;
        if (typeof id === 'string')
          writes.wrote('/billingGroups/{billingGroupId}/status', `/billingGroups/${encodeURIComponent(id)}/status`);
      }
    return;
  }
  if (e.request.method === 'POST') {
    let undoable = false;
    const item = `${op.path}/{id}`;
    const single = operations().find((o) => o.method === 'delete' && o.path.replace(/\{\w+\}$/, '{id}') === item);
    const id = body && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
    if (single && typeof id === 'string') {
      undoable = true;
      writes.wrote(single.path, `${op.path}/${encodeURIComponent(id)}`);
    }
    if (op.path.endsWith('/bulk') && prepared.out.body) {
      const parent = op.path.slice(0, -'/bulk'.length);
      const del = operations().find(
        (o) => o.method === 'delete' && o.path.replace(/\{\w+\}$/, '{id}') === `${parent}/{id}`,
      );
      const items: unknown = JSON.parse(prepared.out.body);
      undoable ||= del !== undefined;
      if (del && Array.isArray(items))
        for (const it of items) {
          const itemId = it && typeof it === 'object' ? (it as { id?: unknown }).id : undefined;
          if (typeof itemId === 'string') writes.wrote(del.path, `${parent}/${encodeURIComponent(itemId)}`);
        }
    }
    if (!undoable) writes.cannotUndo(op.path, prepared.path);
  }
}
