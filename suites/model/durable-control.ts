/**
 * durable-state's states as a control for the world-model explorer's audit (suites/lib/world/controls.ts): a record a
 * sequence wrote that no longer shows what the model holds a visibility deadline after the last write names
 * durable-state, whose own test writes one state of each kind once, not the states a sequence reaches (a record
 * deleted and made again, an offer rewritten after a cancellation). So the same kinds of state are written afresh on
 * the divergence's subject and read a visibility deadline later: when one changed, durable-state's own test meets the
 * fault and the explorer is blocked by it; when none did, only the sequence shows it, and world-model reports it.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { type CheckContext, freshId, target } from '../lib/index.ts';
import { recordId, Records, World, type Control, type Divergence, type ShapeResult } from '../lib/world/index.ts';
import { recordGroup } from '../../specs/record-groups.ts';
import { type DurableState, OfferState, RecordState } from './durable-kinds.ts';

function statesOf(ctx: CheckContext, d: Divergence): DurableState[] {
  const template = d.subject?.template;
  if (template === undefined) {
    if (d.subject?.offer === undefined) return [];
    return (['live', 'deleted by DELETE', 'cancelled by the flag'] as const).map(
      (kind) => new OfferState(kind, freshId('durable-control', ctx.runId), ctx.runId),
    );
  }
  const group = recordGroup(template);
  const world = new World();
  const records = new Records(world, ctx.runId);
  const values = (): Record<string, string> =>
    Object.fromEntries(group.params.map((p) => [p, recordId(ctx, 'durable-control')]));
  const kinds = group.del ? (['present', 'deleted'] as const) : (['present'] as const);
  return kinds.map((kind) => new RecordState(records, world, records.record(template, values()), kind));
}

export const durableStateControl: Control = async (ctx, d): Promise<ShapeResult | undefined> => {
  const states = statesOf(ctx, d);
  const shown = (await Promise.all(states.map(async (s) => ({ s, missed: await s.write(ctx) })))).flatMap(
    ({ s, missed }) => (missed ? [] : [s]),
  );
  for (const s of states) s.undo(ctx);
  if (shown.length === 0) return undefined;
  const due = Math.max(...shown.map((s) => s.writtenAt)) + target().visibilityTimeoutMs - Date.now();
  if (due > 0) await delay(due);
  const held = await Promise.all(shown.map((s) => s.audit(ctx)));
  const changed = held.some((h) => 'held' in h && !h.held && h.owner === undefined);
  return changed ? { divergence: { ...d, owner: 'durable-state' } } : { agreed: true };
};
