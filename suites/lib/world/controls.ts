/**
 * Who reports a divergence the world-model explorer found (one fault, one failure). Each owner's own test runs the
 * simple shape of its rule on fresh records; the explorer runs the same shapes as controls. When a control meets a
 * divergence its own check owns, that check's test fails on the same fault, so the explorer is blocked by it. When no
 * control meets one, only a sequence shows the fault, and the explorer (`world-model`) reports it itself.
 */
import type { CheckId } from '../catalogue.ts';
import type { CheckContext } from '../check-test.ts';
import { recordGroup } from './record-groups.ts';
import { deleteShape, isolationShape, type ShapeResult, upsertShape } from './record-shapes.ts';
import type { Divergence } from './world.ts';

/** The shape of one owner's rule, run on fresh records about the divergence's subject. */
type Control = (ctx: CheckContext, d: Divergence) => Promise<ShapeResult | undefined>;

function onGroup(
  shape: (ctx: CheckContext, template: ReturnType<typeof recordGroup>) => Promise<ShapeResult>,
): Control {
  return async (ctx, d) => {
    const template = d.subject?.template;
    return template === undefined ? undefined : shape(ctx, recordGroup(template));
  };
}

const CONTROLS: Partial<Record<CheckId, Control>> = {
  'record-upsert': onGroup(upsertShape),
  'record-delete': onGroup((ctx, g) => (g.del ? deleteShape(ctx, g) : Promise.resolve({ agreed: true }))),
  'record-isolation': (ctx) => isolationShape(ctx),
};

/** The owner first, then every other owner a control can ask about the same subject. */
function candidates(d: Divergence): CheckId[] {
  return [d.owner, ...(Object.keys(CONTROLS) as CheckId[]).filter((c) => c !== d.owner)];
}

/**
 * The check whose own test fails on the fault behind `d`, if a control shows one: its shape met a divergence that
 * check owns. Undefined when no control meets the fault: only a sequence shows it.
 */
export async function ownerThatSeesIt(ctx: CheckContext, d: Divergence): Promise<CheckId | undefined> {
  for (const owner of candidates(d)) {
    const control = CONTROLS[owner];
    const result = control ? await control(ctx, d) : undefined;
    if (result && 'divergence' in result && result.divergence.owner === owner) return owner;
  }
  return undefined;
}
