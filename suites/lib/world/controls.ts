/**
 * Who reports a divergence (one fault, one failure). The checks that judge the model by shapes of their own
 * (suites/lib/world/record-shapes.ts) can each meet a fault whose rule another of them owns: the upsert shape of
 * order attachments meets an order that its attachment's PUT overwrote (record-isolation's rule), the isolation shape
 * meets a third write that is lost (record-upsert's). So a check that meets a divergence of another check's rule runs
 * that check's shape as a control, on fresh records: when the control meets a divergence of the same rule, the owner's
 * own test fails on the fault, and this check is blocked by it; when it does not, only this check's shape or sequence
 * shows the fault, and it reports it itself, citing the broken rule's clause. world-model, the random-sequence
 * explorer, is never an owner: it reports only what no owner's shape shows. A divergence whose owner has no shape
 * (offer-upsert, event-cancel, response-schema, ...) is that owner's: its own tests judge that rule on every run.
 */
import type { CheckId } from '../catalogue.ts';
import type { CheckContext } from '../check-test.ts';
import { recordGroup, type RecordGroup } from './record-groups.ts';
import { deleteShape, isolationShape, type ShapeResult, upsertShape } from './record-shapes.ts';
import { skip } from '../skip.ts';
import type { Divergence } from './world.ts';

/** The shape of one check's rule, run on fresh records about the divergence's subject. */
type Control = (ctx: CheckContext, d: Divergence) => Promise<ShapeResult | undefined>;

function onGroup(shape: (ctx: CheckContext, group: RecordGroup) => Promise<ShapeResult>): Control {
  return async (ctx, d) => {
    const template = d.subject?.template;
    return template === undefined ? undefined : shape(ctx, recordGroup(template));
  };
}

/** The shape each check with one runs as its own test, and as a control for the others. */
const CONTROLS: Partial<Record<CheckId, Control>> = {
  'record-upsert': onGroup(upsertShape),
  'record-delete': onGroup((ctx, g) => (g.del ? deleteShape(ctx, g) : Promise.resolve({ agreed: true }))),
  'record-isolation': (ctx) => isolationShape(ctx),
};

/**
 * The check that reports `d`, which the test of `self` met: `self` when it owns the rule; the owner when it has no
 * shape, or when its shape meets a divergence of its rule on fresh records; else `self`, whose shape alone shows it.
 */
export async function reporterOf(ctx: CheckContext, d: Divergence, self: CheckId): Promise<CheckId> {
  if (d.owner === self) return self;
  const control = CONTROLS[d.owner];
  if (!control) return d.owner;
  const result = await control(ctx, d);
  return result && 'divergence' in result && result.divergence.owner === d.owner ? d.owner : self;
}

/**
 * A divergence a check's own shape or sequence met, reported by the check the chain names: this check fails on it,
 * citing the broken rule's clause, or is blocked by the check whose simpler shape meets the fault too.
 */
export async function reportFound(ctx: CheckContext, d: Divergence): Promise<never> {
  const self = ctx.check.meta.check;
  const who = await reporterOf(ctx, d, self);
  if (who !== self) return ctx.check.blocked(who, d.exchanges.at(-1), d.message);
  const note = d.owner === self ? '' : ` (${d.owner}'s own test does not meet it: only this check's shape shows it)`;
  return ctx.check.fail(
    `${d.message}${note}`,
    { exchanges: d.exchanges, ...(d.pointer !== undefined ? { pointer: d.pointer } : {}) },
    d.clause,
  );
}

/** A shape run as its own check's test: a divergence is reported as the chain says, a refusal skips the test. */
export async function reportShape(ctx: CheckContext, result: ShapeResult): Promise<void> {
  if ('nothingToJudge' in result) skip.nothingToJudge(ctx, result.nothingToJudge);
  if ('divergence' in result) await reportFound(ctx, result.divergence);
}
