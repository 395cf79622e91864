/**
 * A section 4.3 record in the world, addressed by its path (suites/lib/world/record-groups.ts). The model holds one of:
 * - present, with the marker of its latest write (spec 1: "a PUT to a path that carries the resource id creates or
 *   updates it"): every view that has it shows it, and a view that echoes what was written shows that marker;
 * - gone (a DELETE answered 2xx): a GET by id answers 4xx or a record that says it was deleted, or at least one that no
 *   longer reads as before; a list leaves it out or shows it so (spec 3 rule 5: a booking event is marked, never
 *   removed);
 * - free: a write the model cannot follow named it (an action on it, its parent's DELETE, a refused write), so nothing
 *   is judged until it is written again.
 *
 * After every step each record reads its views: polled to the visibility deadline when the step's write names it,
 * read once otherwise (a list once for all its records, suites/lib/world/step-reads.ts). Two views that disagree are
 * view-consistency's; views that agree on something else than the model are the rule's of the step
 * (suites/lib/world/step.ts): the write's own (record-upsert, record-delete, event-cancel), record-isolation for a write
 * to another record, safe-reads after a read, durable-state after time alone.
 */
import type { CheckId } from '../catalogue.ts';
import type { Clause } from '../check.ts';
import type { CheckContext } from '../check-test.ts';
import type { Exchange } from '../exchange.ts';
import { recordsOf } from '../listed-records.ts';
import { pollVisible } from '../visibility-deadline.ts';
import type { RecordBook } from './record-book.ts';
import type { RecordGroup } from './record-groups.ts';
import { readingById, readingInList, type ViewReading } from './record-views.ts';
import type { Step } from './step.ts';
import { type Divergence, VIEW_CONSISTENCY, type WorldRecord } from './world.ts';

export type Held =
  | { kind: 'present'; marker: string }
  | { kind: 'gone'; before: Partial<Record<ViewReading['view'], string>> }
  | { kind: 'free'; why: string };

/** What is wrong with one view, in words. */
interface Problem {
  reading: ViewReading;
  what: string;
}

const EVENT_CANCEL = 'event-cancel' satisfies CheckId;

/** The path a record is known by: its template filled with its ids as they are (not percent-encoded). */
export function recordKey(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
}

/**
 * The same write on a fresh record of the group, left for `leftMs` with no write to it: answers whether it then no
 * longer matches its model either (time alone changed it). Records (records.ts) gives each record one.
 */
export type TimeControl = (ctx: CheckContext, record: CatalogueRecord, leftMs: number) => Promise<boolean>;

export class CatalogueRecord implements WorldRecord {
  readonly key: string;
  readonly label: string;
  readonly id: string;
  /** Every marker written to it, the latest last. */
  readonly markers: string[] = [];
  private held: Held = { kind: 'free', why: 'nothing written yet' };
  /** When its latest write was sent, and whether every view has matched the model since. */
  private lastWriteAt = 0;
  private matchedSinceWrite = false;
  /**
   * What each view said of a deletion once the record's latest write showed (none, as a rule): a present record that
   * starts saying it was deleted or cancelled, with no DELETE naming it, has changed.
   */
  private goneSaidAtWrite: Partial<Record<ViewReading['view'], string>> = {};

  constructor(
    readonly group: RecordGroup,
    readonly values: Readonly<Record<string, string>>,
    private readonly book: RecordBook,
    private readonly timeControl?: TimeControl,
  ) {
    this.key = recordKey(group.template, values);
    this.label = this.key;
    this.id = values[group.params.at(-1) ?? ''] ?? '';
  }

  /** What the model holds now (a method, not a getter: each write changes it). */
  state(): Held {
    return this.held;
  }

  /** A write answered 2xx carrying `marker`: the record is there, with that write. */
  wrote(marker: string): void {
    this.markers.push(marker);
    this.held = { kind: 'present', marker };
    this.goneSaidAtWrite = {};
    this.written();
  }

  /** A DELETE answered 2xx; `before` is how each view showed the record just before it. */
  deleted(before: Partial<Record<ViewReading['view'], string>>): void {
    this.held = { kind: 'gone', before };
    this.written();
  }

  /** A write the model cannot follow named it: judge nothing until it is written again. */
  free(why: string): void {
    this.held = { kind: 'free', why };
    this.written();
  }

  private written(): void {
    this.lastWriteAt = Date.now();
    this.matchedSinceWrite = false;
  }

  /** How each view shows the record now (one read each, no waiting): what `deleted` is given. */
  async snapshot(ctx: CheckContext, step: Step): Promise<Partial<Record<ViewReading['view'], string>>> {
    const out: Partial<Record<ViewReading['view'], string>> = {};
    for (const r of await this.read(ctx, step, false)) if (r.shown) out[r.view] = r.text;
    return out;
  }

  async diverges(ctx: CheckContext, step: Step): Promise<Divergence | undefined> {
    if (this.held.kind === 'free') return undefined;
    // The record the step's write names may take its time to show it (spec 1: writes are asynchronous); any other
    // record is read once, after the named one showed the write (World.settle compares named records first).
    const readings = step.namesRecord(this.key)
      ? (
          await pollVisible(
            () => this.read(ctx, step, true),
            (rs) => this.problems(rs).length === 0,
          )
        ).value
      : await this.read(ctx, step, false);
    this.learnEchoes(readings);
    const problems = this.problems(readings);
    if (problems.length === 0) {
      if (step.namesRecord(this.key)) this.noteGoneSaid(readings);
      this.matchedSinceWrite = true;
      return undefined;
    }
    return this.overTime(ctx, this.classify(readings, problems, step), step);
  }

  /**
   * A record that matched the model since its last write and no longer does, after a step that does not name it, was
   * changed by that step or by time alone (spec 1: what was written stays until written again). The same write on a
   * fresh record, left as long, tells them apart: changed alike, the divergence is durable-state's, whatever the step
   * (one fault, one failure on a slow machine too, where more time passes between two steps).
   */
  private async overTime(ctx: CheckContext, d: Divergence, step: Step): Promise<Divergence> {
    if (!this.matchedSinceWrite || step.namesRecord(this.key) || d.owner === VIEW_CONSISTENCY) return d;
    if (step.kind === 'audit' || !this.timeControl) return d;
    const leftMs = Date.now() - this.lastWriteAt;
    if (!(await this.timeControl(ctx, this, leftMs))) return d;
    return {
      ...d,
      owner: 'durable-state',
      clause: 'spec 1',
      message: `${d.message}; the same write on a fresh record of ${this.group.template}, left ${leftMs} ms with no write to it, changed alike: time, not ${step}, changed it`,
    };
  }

  private async read(ctx: CheckContext, step: Step, fresh: boolean): Promise<ViewReading[]> {
    const g = this.group;
    const out: Promise<ViewReading>[] = [];
    const params = { ...this.values };
    if (g.get) {
      const get = g.get;
      const x = fresh ? ctx.api.op(get, { params }) : step.reads.read(ctx, get, params);
      out.push(x.then((e) => readingById(e, `GET ${this.key}`)));
    }
    if (g.collection) {
      const coll = g.collection;
      const parentParams = Object.fromEntries(coll.pathParams.map((p) => [p, this.values[p] ?? '']));
      const listPath = recordKey(coll.path, parentParams);
      const x = fresh ? ctx.api.op(coll, { params: parentParams }) : step.reads.read(ctx, coll, parentParams);
      out.push(x.then((e) => readingInList(e, `GET ${listPath}`, this.book, listPath, this.id, this.markers)));
    }
    return Promise.all(out);
  }

  private noteGoneSaid(readings: readonly ViewReading[]): void {
    if (this.held.kind !== 'present') return;
    for (const r of readings) if (r.shown) this.goneSaidAtWrite[r.view] = r.goneBy.join(', ');
  }

  /** A view that has shown a record's latest marker echoes what was written, from now on in this test. */
  private learnEchoes(readings: readonly ViewReading[]): void {
    const latest = this.markers.at(-1);
    if (this.held.kind !== 'present' || latest === undefined) return;
    for (const r of readings) if (r.shown && r.text.includes(latest)) this.book.learnEcho(this.group.template, r.view);
  }

  private problems(readings: readonly ViewReading[]): Problem[] {
    return readings.flatMap((r) => {
      const what = this.problemOf(r);
      return what === undefined ? [] : [{ reading: r, what }];
    });
  }

  private problemOf(r: ViewReading): string | undefined {
    const held = this.held;
    if (held.kind === 'present') return this.presentProblem(r, held.marker);
    if (held.kind === 'gone') return this.goneProblem(r, held.before[r.view]);
    return undefined;
  }

  private presentProblem(r: ViewReading, marker: string): string | undefined {
    if (!r.shown) {
      if (r.view === 'collection' && !r.whole) return undefined;
      return r.view === 'by id'
        ? `answers ${r.x.response.status}`
        : `leaves it out (${countOf(r.x)} record(s), no sign of paging)`;
    }
    const saidAtWrite = this.goneSaidAtWrite[r.view];
    if (saidAtWrite !== undefined && r.goneBy.length > 0 && r.goneBy.join(', ') !== saidAtWrite)
      return `says it was deleted or cancelled (${r.goneBy.join(', ')}), where it said ${saidAtWrite === '' ? 'nothing of the kind' : saidAtWrite} once its latest write showed, and no DELETE named it since`;
    if (r.text.includes(marker)) return undefined;
    const seen = this.book.markersIn(r.text);
    // A marker is a string only the run wrote, to one record: a view of this record that shows another's write, and
    // not its own, answers that other record's content, whether or not the view echoed writes before. A parent may
    // show its children's writes and a child its parent's (not shown either way).
    const foreign = seen.filter((m) => m.owner !== this.key && !this.related(m.owner));
    if (foreign.length > 0)
      return `shows what was written to ${[...new Set(foreign.map((m) => m.owner))].join(', ')} (marker ${foreign[0]?.marker}) and not its own latest write`;
    if (!this.book.echoes(this.group.template, r.view)) return undefined;
    const older = seen.filter((m) => m.owner === this.key);
    if (older.length > 0) return `still shows an earlier write (marker ${older.at(-1)?.marker}), not its latest`;
    return 'no longer shows what was written to it, where this view showed every write before';
  }

  /** Its parent or child records, and the record the spec names as the same one (spec 9 rule 3). */
  private related(key: string): boolean {
    if (this.group.sameRecordsAs.some((t) => key === recordKey(t, this.values))) return true;
    return key.startsWith(`${this.key}/`) || this.key.startsWith(`${key}/`);
  }

  private goneProblem(r: ViewReading, before: string | undefined): string | undefined {
    if (this.group.deleteMarks && r.view === 'by id') {
      if (!r.shown)
        return `answers ${r.x.response.status}: spec 3 rule 5 marks a deleted booking event canceled, it keeps it`;
      return r.goneBy.length > 0 ? undefined : 'does not say it was canceled';
    }
    if (!r.shown || r.goneBy.length > 0) return undefined;
    if (before !== undefined && r.text !== before) return undefined;
    return r.view === 'by id'
      ? 'still answers the record as it was before its DELETE, saying nothing of a deletion'
      : 'still lists the record as it was before its DELETE, saying nothing of a deletion';
  }

  /**
   * Judged by the rule of the step (suites/lib/world/step.ts), whichever of its views shows it: a record's views are
   * its own (record-upsert owns "a PUT shows in every view that has the record", record-delete the same of a DELETE).
   */
  private classify(readings: readonly ViewReading[], problems: readonly Problem[], step: Step): Divergence {
    const agreeing = readings.filter(
      (r) => (r.view === 'by id' || r.whole || r.shown) && !problems.some((p) => p.reading === r),
    );
    const text = problems.map((p) => `${p.reading.name} ${p.what}`).join('; ');
    const others =
      agreeing.length > 0
        ? `, while ${agreeing.map((r) => r.name).join(' and ')} show${agreeing.length === 1 ? 's' : ''} it as the model holds`
        : '';
    const { owner, clause, rule } = this.ruleOf(step);
    return {
      owner,
      clause,
      message: `${this.label} after ${step}: ${text}${others}; the model holds ${this.describe()} (${rule})`,
      exchanges: [...agreeing.map((r) => r.x), ...problems.map((p) => p.reading.x)],
      subject: { template: this.group.template },
    };
  }

  private ruleOf(step: Step): { owner: CheckId; clause: Clause; rule: string } {
    if (step.kind === 'read')
      return { owner: 'safe-reads', clause: 'HTTP semantics', rule: 'a GET changes nothing a later GET shows' };
    if (step.kind === 'audit')
      return { owner: 'durable-state', clause: 'spec 1', rule: 'what was written stays until it is written again' };
    if (!step.namesRecord(this.key))
      return {
        owner: 'record-isolation',
        clause: 'spec 1',
        rule: 'a write changes the record its path names, no other',
      };
    if (this.held.kind === 'gone' && this.group.deleteMarks)
      return { owner: EVENT_CANCEL, clause: 'spec 3 rule 5', rule: 'DELETE on a booking event marks it canceled' };
    if (this.held.kind === 'gone')
      return { owner: 'record-delete', clause: 'spec 1', rule: 'a DELETE removes the record or marks it deleted' };
    return {
      owner: 'record-upsert',
      clause: 'spec 1',
      rule: 'a PUT to a path that carries the resource id creates or updates it',
    };
  }

  private describe(): string {
    const held = this.held;
    if (held.kind === 'present') return `it present with its latest write (marker ${held.marker})`;
    if (held.kind === 'gone') return this.group.deleteMarks ? 'it canceled' : 'it deleted';
    return 'nothing';
  }
}

function countOf(x: Exchange): number {
  return recordsOf(x.response.body).length;
}
