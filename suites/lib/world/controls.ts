/**
 * Who reports a divergence (one fault, one failure). The checks that judge the model by shapes of their own
 * (suites/lib/world/record-shapes.ts) stand in a chain, simplest shape first; world-model, the random-sequence
 * explorer, comes last. When a check's test meets a divergence, the shapes of the checks before it in the chain run as
 * controls on fresh records: the first that meets the fault too reports it (its own test fails on it), and this
 * check is blocked by it. When none does, only this check's own shape or sequence shows the fault, and it reports it
 * itself, whatever rule the divergence breaks. A divergence whose owner stands outside the chain (offer-upsert,
 * event-cancel, response-schema, ...) is that owner's: its own tests judge that rule on every run.
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

/** Simplest shape first: the order decides who reports a fault several shapes meet. */
const CHAIN: readonly { check: CheckId; control: Control }[] = [
  { check: 'record-upsert', control: onGroup(upsertShape) },
  {
    check: 'record-delete',
    control: onGroup((ctx, g) => (g.del ? deleteShape(ctx, g) : Promise.resolve({ agreed: true }))),
  },
  { check: 'record-isolation', control: (ctx) => isolationShape(ctx) },
];

const IN_CHAIN = new Set<string>([...CHAIN.map((c) => c.check), 'world-model']);

/**
 * The check that reports `d`, which the test of `self` met: `d`'s owner when it stands outside the chain; else the
 * first check before `self` in the chain whose shape meets the fault too; else `self`.
 */
export async function reporterOf(ctx: CheckContext, d: Divergence, self: CheckId): Promise<CheckId> {
  if (!IN_CHAIN.has(d.owner)) return d.owner;
  const mine = CHAIN.findIndex((c) => c.check === self);
  for (const { check, control } of CHAIN.slice(0, mine < 0 ? CHAIN.length : mine)) {
    const result = await control(ctx, d);
    if (result && 'divergence' in result) return check;
  }
  return self;
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
