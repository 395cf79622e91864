/**
 * Safe reads judged with a twin (RFC 9110 9.2.1: GET is safe; spec 1: clients read). A record is written, read
 * through one view many times, and then compared with its twin: a record written identically afterwards and never read
 * through that view, read once it is at least as old as the first was when last read. What differs on the record that
 * was read, and not on its twin, may have been changed by the reads; it is confirmed by reading the twin the same way:
 * when the twin then shows what the first showed, the reads did it.
 *
 * What this leaves a server free to do (docs/verdicts.md, "Safe reads and durable state"):
 * - move a record through states with time (spec 3: transitions are not shown). The twin is read when at least as old
 *   as the first record was, so time has taken it at least as far; a value the first record shows and the older twin
 *   does not is one time has not reached, and the twin, read as the first was, never goes back to it;
 * - stamp each answer with values of its own (a time of retrieval, a request id): the twin's confirming read shows its
 *   own, not the first record's;
 * - give each record values of its own (a derived id, the time of writing).
 * Reads of the twin before its comparison are only those that find nothing (a write not yet visible), so a read that
 * changes what the view itself shows is met, not hidden.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { SchemaName } from '../../schemas/registry.ts';
import type { CheckContext, Exchange } from '../lib/index.ts';
import { pollVisible } from '../lib/visibility-deadline.ts';

export type Json = Record<string, unknown>;

/** One record written for the trial: how the views name it, and when its write was sent and answered. */
export interface Written {
  label: string;
  sentAt: number;
  answeredAt: number;
}

/** A view of a record (a GET by id, a list, a status): how to read it, and what it shows of the record. */
export interface View<R extends Written> {
  name: string;
  read(ctx: CheckContext, r: R): Promise<Exchange>;
  /**
   * What the answer shows of the record, comparable between two records written alike (their own ids and markers
   * replaced); undefined when it does not show it.
   */
  shown(x: Exchange, r: R): Json | undefined;
  /** True when the answer may leave records out (a list cut into pages): a record it does not show says nothing. */
  mayLeaveOut?(x: Exchange): boolean;
  /** The documented shape of its answer, where it has one: a broken one is response-schema's (the trial is blocked). */
  schema?: SchemaName;
}

export interface Twins<R extends Written> {
  /** How messages name the kind, e.g. `offer`. */
  what: string;
  views: readonly View<R>[];
  /** Writes one record, with the same content every time but its ids. */
  write(ctx: CheckContext): Promise<R>;
  /** The view shows the record as it was written (a write may take its time to show, spec 1). */
  written(shown: Json, r: R): boolean;
}

/** How many more reads of the first record than of its twin: enough for a read that changes something to show. */
export const READS = 5;

export interface Reading {
  x: Exchange;
  shown: Json | undefined;
}

export type Snapshot = Map<string, Reading>;

/** A difference between the record read many times and its twin, in one view, that reading the twin reproduced. */
export interface Finding {
  view: string;
  field: string;
  /** What the record read many times shows, its twin before and after the same reads. */
  first: unknown;
  twinBefore: unknown;
  twinAfter: unknown;
  exchanges: Exchange[];
}

/** The outcome of one trial: what reading the twin reproduced, and the differences it did not (time, own values). */
export interface TrialOutcome {
  findings: Finding[];
  unconfirmed: string[];
}

/** Every view of the record read once, in the order given. */
export async function snapshot<R extends Written>(
  ctx: CheckContext,
  views: readonly View<R>[],
  r: R,
): Promise<Snapshot> {
  const out: Snapshot = new Map();
  for (const v of views) {
    const x = await v.read(ctx, r);
    out.set(v.name, { x, shown: v.shown(x, r) });
  }
  return out;
}

/**
 * The twin's first sight: each view polled until it shows the record as written (a view that never does by the
 * deadline says nothing of it), the trial's own view last so its first read of the twin is the one compared.
 */
async function firstSight<R extends Written>(
  ctx: CheckContext,
  twins: Twins<R>,
  trialView: View<R>,
  r: R,
  firstEnd: Snapshot,
): Promise<Snapshot> {
  const out: Snapshot = new Map();
  for (const v of [...twins.views.filter((w) => w !== trialView), trialView]) {
    // A view that did not show the first record either is read once: waiting for the twin there would judge nothing.
    if (firstEnd.get(v.name)?.shown === undefined) {
      const x = await v.read(ctx, r);
      out.set(v.name, { x, shown: v.shown(x, r) });
      continue;
    }
    const seen = await pollVisible(
      () => v.read(ctx, r),
      (x) => {
        const s = v.shown(x, r);
        return s !== undefined && twins.written(s, r);
      },
    );
    out.set(v.name, { x: seen.value, shown: v.shown(seen.value, r) });
  }
  return out;
}

/** Waits until the twin is at least as old as the first record was at its last read (time is the subject here). */
async function ageTwin(first: Written, firstReadUntil: number, twin: Written): Promise<void> {
  const firstAge = firstReadUntil - first.sentAt;
  const left = firstAge - (Date.now() - twin.answeredAt);
  if (left > 0) await delay(left);
}

function isAbsent(v: unknown): boolean {
  return v === undefined || v === null;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Whether reading the twin took it where the first record was: the same value, a value that appeared where the twin
 * had none (a stamp), or a number moved towards the first record's. Time takes the older twin further on, never back
 * to a value only the younger record shows.
 */
export function caughtUp(first: unknown, before: unknown, after: unknown): boolean {
  if (same(before, after)) return false;
  if (same(after, first)) return true;
  if (isAbsent(before) && !isAbsent(first) && !isAbsent(after)) return true;
  if (typeof first === 'number' && typeof before === 'number' && typeof after === 'number')
    return Math.sign(after - before) === Math.sign(first - before);
  return false;
}

/** The fields of a view in which the two snapshots differ; `present` stands for whether the view shows the record. */
function differences(
  view: View<Written>,
  a: Reading | undefined,
  b: Reading | undefined,
): { field: string; first: unknown; twin: unknown }[] {
  if (!a || !b) return [];
  if (a.shown === undefined || b.shown === undefined) {
    const left = a.shown === undefined && b.shown !== undefined && view.mayLeaveOut?.(a.x) !== true;
    return left ? [{ field: 'present', first: false, twin: true }] : [];
  }
  const keys = new Set([...Object.keys(a.shown), ...Object.keys(b.shown)]);
  return [...keys]
    .filter((k) => !same(a.shown?.[k], b.shown?.[k]))
    .map((k) => ({ field: k, first: a.shown?.[k], twin: b.shown?.[k] }));
}

function valueIn(r: Reading | undefined, field: string): unknown {
  if (field === 'present') return r?.shown !== undefined;
  return r?.shown?.[field];
}

/**
 * One trial through `trialView`: the first record written, read through the view until it shows the write and READS
 * times more, read through every view; its twin written, aged, read through every view; every difference confirmed by
 * reading the twin the way the first was read.
 */
export async function trial<R extends Written>(
  ctx: CheckContext,
  twins: Twins<R>,
  trialView: View<R>,
): Promise<TrialOutcome | { notVisible: Exchange; record: R }> {
  const first = await twins.write(ctx);
  const seen = await pollVisible(
    () => trialView.read(ctx, first),
    (x) => {
      const s = trialView.shown(x, first);
      return s !== undefined && twins.written(s, first);
    },
  );
  if (!seen.ok) return { notVisible: seen.value, record: first };
  const readsOfFirst = seen.attempts + READS;
  for (let i = 0; i < READS; i++) await trialView.read(ctx, first);
  const firstEnd = await snapshot(ctx, twins.views, first);
  const readUntil = Date.now();
  const twin = await twins.write(ctx);
  await ageTwin(first, readUntil, twin);
  const twinEnd = await firstSight(ctx, twins, trialView, twin, firstEnd);
  const diffs = twins.views.flatMap((v) =>
    differences(v as View<Written>, firstEnd.get(v.name), twinEnd.get(v.name)).map((d) => ({ view: v.name, ...d })),
  );
  if (diffs.length === 0) return { findings: [], unconfirmed: [] };
  for (let i = 0; i < readsOfFirst; i++) await trialView.read(ctx, twin);
  const twinAfter = await snapshot(ctx, twins.views, twin);
  const findings: Finding[] = [];
  const unconfirmed: string[] = [];
  for (const d of diffs) {
    const after = valueIn(twinAfter.get(d.view), d.field);
    const view = twins.views.find((v) => v.name === d.view);
    const last = twinAfter.get(d.view);
    const confirmed =
      d.field === 'present'
        ? after === false && last !== undefined && view?.mayLeaveOut?.(last.x) !== true
        : caughtUp(d.first, d.twin, after);
    if (!confirmed) {
      unconfirmed.push(`${d.view} ${d.field}`);
      continue;
    }
    const x = (s: Snapshot): Exchange[] => {
      const r = s.get(d.view);
      return r ? [r.x] : [];
    };
    findings.push({
      view: d.view,
      field: d.field,
      first: d.first,
      twinBefore: d.twin,
      twinAfter: after,
      exchanges: [...x(firstEnd), ...x(twinEnd), ...x(twinAfter)],
    });
  }
  return { findings, unconfirmed };
}

/** A finding in words, for a failure message. */
export function describeFinding(what: string, trialView: string, f: Finding): string {
  const show = (v: unknown): string => (v === undefined ? '(nothing)' : JSON.stringify(v));
  if (f.field === 'present')
    return `after ${READS} more reads through ${trialView}, ${f.view} no longer shows the ${what}, where its twin (written alike, not read that way) still showed; once the twin was read the same way, ${f.view} no longer showed it either`;
  return `after ${READS} more reads through ${trialView}, ${f.view} shows ${f.field} ${show(f.first)} on the ${what}, where its twin (written alike, not read that way, at least as old) showed ${show(f.twinBefore)}; once the twin was read the same way it showed ${show(f.twinAfter)}`;
}
