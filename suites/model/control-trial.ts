/**
 * Safe reads of records the run cannot write (billing groups, invoices: nothing in the spec creates them), judged
 * with a control record instead of a twin. Both are read through every view but the one on trial, at the start and at
 * the end; in between only the subject is read through the trial view. What changed on the subject and not on the
 * control may have been changed by the reads; it is confirmed by reading the control the same way: when it then changes
 * alike (to the same value, or a number in the same direction), the reads did it. A change that the trial view alone
 * shows is judged the same way, on the first and last reads through it.
 *
 * What it leaves the server free to do: change a record with time (spec 3: transitions are not shown), which would
 * have to strike the subject during its reads and the control during the confirming reads; stamp each answer with
 * values of its own (the control's confirming answers show their own). Statuses other runs force (suites/lib/forced-tag.ts)
 * are not compared: another writer may change them at any time.
 */
import type { CheckContext, Exchange } from '../lib/index.ts';
import type { Json } from './twin-trial.ts';
import { READS } from './twin-trial.ts';

/** A view of a listed record: how to read it, and the record's documented fields as it shows them (or undefined). */
export interface ListedView {
  name: string;
  read(ctx: CheckContext, id: string): Promise<Exchange>;
  shown(x: Exchange, id: string): Json | undefined;
}

export interface ControlFinding {
  view: string;
  field: string;
  before: unknown;
  after: unknown;
  controlBefore: unknown;
  controlAfter: unknown;
  exchanges: Exchange[];
}

type Shot = Map<string, { x: Exchange; shown: Json | undefined }>;

async function shoot(ctx: CheckContext, views: readonly ListedView[], id: string): Promise<Shot> {
  const out: Shot = new Map();
  for (const v of views) {
    const x = await v.read(ctx, id);
    out.set(v.name, { x, shown: v.shown(x, id) });
  }
  return out;
}

/** The values of `field` that changed between two snapshots of one view, if it did. */
function changes(before: Shot, after: Shot, ignore: (field: string, value: unknown) => boolean) {
  const out: { view: string; field: string; before: unknown; after: unknown; x: Exchange[] }[] = [];
  for (const [view, a] of before) {
    const b = after.get(view);
    if (!a.shown || !b?.shown) continue;
    for (const field of new Set([...Object.keys(a.shown), ...Object.keys(b.shown)])) {
      const [va, vb] = [a.shown[field], b.shown[field]];
      if (JSON.stringify(va) === JSON.stringify(vb) || ignore(field, va) || ignore(field, vb)) continue;
      out.push({ view, field, before: va, after: vb, x: [a.x, b.x] });
    }
  }
  return out;
}

/** The control changed alike: to the subject's new value, or a number moved the same way. */
function alike(before: unknown, after: unknown, controlBefore: unknown, controlAfter: unknown): boolean {
  if (JSON.stringify(controlBefore) === JSON.stringify(controlAfter)) return false;
  if (JSON.stringify(controlAfter) === JSON.stringify(after)) return true;
  if ((controlBefore === undefined || controlBefore === null) && after !== undefined && after !== null)
    return controlAfter !== undefined && controlAfter !== null;
  if ([before, after, controlBefore, controlAfter].every((v) => typeof v === 'number'))
    return (
      Math.sign((controlAfter as number) - (controlBefore as number)) ===
      Math.sign((after as number) - (before as number))
    );
  return false;
}

/** Reads `id` through `view` READS + 1 times; answers the first and the last reading. */
async function readMany(ctx: CheckContext, view: ListedView, id: string): Promise<Shot[]> {
  const first = await view.read(ctx, id);
  for (let i = 1; i < READS; i++) await view.read(ctx, id);
  const last = await view.read(ctx, id);
  return [first, last].map((x) => new Map([[view.name, { x, shown: view.shown(x, id) }]]));
}

/**
 * One trial: `subject` read through `trialView`, `control` not; `others` are the views both are watched through (none
 * of them may read the control the way the trial view does). Answers what the confirming reads of the control
 * reproduced.
 */
export async function controlTrial(
  ctx: CheckContext,
  trialView: ListedView,
  others: readonly ListedView[],
  subject: string,
  control: string,
  ignore: (field: string, value: unknown) => boolean,
): Promise<ControlFinding[]> {
  const [subjectStart, controlStart] = [await shoot(ctx, others, subject), await shoot(ctx, others, control)];
  const [subjectFirst, subjectLast] = (await readMany(ctx, trialView, subject)) as [Shot, Shot];
  const [subjectEnd, controlEnd] = [await shoot(ctx, others, subject), await shoot(ctx, others, control)];
  const controlQuiet = changes(controlStart, controlEnd, ignore);
  const suspects = [...changes(subjectStart, subjectEnd, ignore), ...changes(subjectFirst, subjectLast, ignore)].filter(
    (c) => !controlQuiet.some((q) => q.view === c.view && q.field === c.field),
  );
  if (suspects.length === 0) return [];
  const [controlFirst, controlLast] = (await readMany(ctx, trialView, control)) as [Shot, Shot];
  const controlAfter = await shoot(ctx, others, control);
  const findings: ControlFinding[] = [];
  for (const s of suspects) {
    const onTrialView = s.view === trialView.name;
    const [cb, ca] = onTrialView ? [controlFirst, controlLast] : [controlEnd, controlAfter];
    const before = cb.get(s.view);
    const after = ca.get(s.view);
    const [vb, va] = [before?.shown?.[s.field], after?.shown?.[s.field]];
    if (!before?.shown || !after?.shown || ignore(s.field, vb) || ignore(s.field, va)) continue;
    if (!alike(s.before, s.after, vb, va)) continue;
    findings.push({
      view: s.view,
      field: s.field,
      before: s.before,
      after: s.after,
      controlBefore: vb,
      controlAfter: va,
      exchanges: [...s.x, before.x, after.x],
    });
  }
  return findings;
}

export function describeControlFinding(
  what: string,
  subject: string,
  control: string,
  trialView: string,
  f: ControlFinding,
): string {
  const show = (v: unknown): string => (v === undefined ? '(nothing)' : JSON.stringify(v));
  return `${what} ${subject}: while it was read ${READS + 1} times through ${trialView}, ${f.view} went from ${f.field} ${show(f.before)} to ${show(f.after)}, where ${what} ${control}, not read that way, kept its own; once ${control} was read the same way, its ${f.field} went from ${show(f.controlBefore)} to ${show(f.controlAfter)}`;
}
