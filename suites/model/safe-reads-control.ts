/**
 * safe-reads' trial as a control for the world-model explorer (suites/lib/world/controls.ts): a sequence that meets a
 * record changed by a read step names safe-reads as the rule's owner, but safe-reads' own test reads one fresh record
 * of each group, not the states a sequence reaches (a record deleted and made again, an offer cancelled). So the
 * trial runs again on the divergence's subject: when it meets a read that changed a record, safe-reads' own test fails
 * on the fault too and the sequence is blocked by it; when it does not, only the sequence shows the fault, and
 * world-model reports it citing HTTP semantics.
 */
import type { CheckContext } from '../lib/index.ts';
import type { Control, Divergence, ShapeResult } from '../lib/world/index.ts';
import { recordGroup, recordGroups } from '../../specs/record-groups.ts';
import { offerTwins } from './offer-twins.ts';
import { RecordRefused, recordTwins, writeParents } from './record-twins.ts';
import { trial, type Twins, type Written } from './twin-trial.ts';

async function twinsOf(ctx: CheckContext, d: Divergence): Promise<Twins<Written> | undefined> {
  const template = d.subject?.template;
  if (template === undefined) return d.subject?.offer === undefined ? undefined : offerTwins(ctx);
  const group = recordGroup(template);
  const byTemplate = new Map(recordGroups().map((g) => [g.template, g]));
  const parent = await writeParents(ctx, group, (t) => byTemplate.get(t));
  return parent ? recordTwins(group, parent) : undefined;
}

/** The trial through every view of the subject's kind: a confirmed finding is safe-reads' own test meeting it. */
export const safeReadsControl: Control = async (ctx, d): Promise<ShapeResult | undefined> => {
  const twins = await twinsOf(ctx, d);
  if (!twins) return undefined;
  try {
    for (const view of twins.views) {
      const outcome = await trial(ctx, twins, view);
      if ('findings' in outcome && outcome.findings.length > 0) return { divergence: { ...d, owner: 'safe-reads' } };
    }
  } catch (error) {
    if (error instanceof RecordRefused) return undefined;
    throw error;
  }
  return { agreed: true };
};
