/**
 * Chaining a partner's recorded traffic onto another deployment. Ids the
 * recorded answers introduced (an offer id from POST /offers, a batchId, a
 * booking id) are paired with the ids the target answers at the same place;
 * a later request that used a recorded id is sent with the target's. Ids the
 * partner chose itself for a record it creates (PUT /offers/{offerId}, the
 * items of a bulk write) are tagged with the run id, so everything the replay
 * writes carries it and can be found again and cleaned up. Both directions
 * are kept: the target's answers are read back in the recorded ids, so an id
 * the target minted never counts as a difference.
 */

/** Where a recorded id came from: the exchange whose recorded answer introduced it. */
export interface IdOrigin {
  seq: number;
  line: number;
  operationId: string | null;
  /** The JSON pointer in that answer. */
  pointer: string;
}

/** The target's id for a recorded one, or why there is none. */
type Entry = { given: true; now: string; origin: IdOrigin | null } | { given: false; origin: IdOrigin; why: string };

export type IdShape = 'uuid' | 'numeric' | 'other';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The format of an id, as far as a client could come to depend on it (spec 2: all identifiers are strings). */
export function idShape(id: string): IdShape {
  if (UUID.test(id)) return 'uuid';
  if (/^\d+$/.test(id)) return 'numeric';
  return 'other';
}

/**
 * A key whose string value is an identifier: `id`, or a name ending in `Id` (batchId, bookingId, offerId), or one
 * ending in `Ids` whose array holds them (an invoice's billingGroupIds): left out, a target's other ids there would
 * read as changed values.
 */
export function isIdKey(key: string): boolean {
  return key === 'id' || /[a-z]Ids?$/.test(key);
}

/** Every (pointer, value) of a string at an id key, arrays included. */
export function idsIn(value: unknown, at = ''): { pointer: string; value: string }[] {
  const out: { pointer: string; value: string }[] = [];
  const walk = (v: unknown, p: string, key: string | undefined) => {
    if (typeof v === 'string') {
      if (key !== undefined && isIdKey(key) && v !== '') out.push({ pointer: p, value: v });
      return;
    }
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, `${p}/${i}`, key);
    } else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) walk(x, `${p}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`, k);
  };
  walk(value, at, undefined);
  return out;
}

function atPointer(value: unknown, pointer: string): unknown {
  let v = value;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(v)) v = v[Number(seg)];
    else if (v && typeof v === 'object') v = (v as Record<string, unknown>)[seg];
    else return undefined;
  }
  return v;
}

/** Ids of one recorded answer paired with the target's (regress/ids.ts IdMap.pair). */
export interface Pairing {
  pairs: { pointer: string; recorded: string; now: string }[];
  missing: { pointer: string; recorded: string; why: string }[];
}

/** A change of id format seen while pairing ids: a client that parses ids would break on it. */
export interface IdFormatChange {
  pointer: string;
  recorded: string;
  now: string;
}

export class IdMap {
  private readonly entries = new Map<string, Entry>();
  /** Target id → recorded id, to read the target's answers back in the recorded ids. */
  private readonly back = new Map<string, string>();

  constructor(private readonly runId: string) {}

  /** The target's id for a recorded one (itself when it was never mapped). */
  forward(recorded: string): string {
    const e = this.entries.get(recorded);
    return e?.given ? e.now : recorded;
  }

  /** The recorded id for one the target answered (itself when it is no mapped id). */
  backward(now: string): string {
    return this.back.get(now) ?? now;
  }

  /** Set when an earlier recorded answer introduced this id and the target's answer did not give one. */
  missing(recorded: string): { origin: IdOrigin; why: string } | undefined {
    const e = this.entries.get(recorded);
    return e && !e.given ? { origin: e.origin, why: e.why } : undefined;
  }

  known(recorded: string): boolean {
    return this.entries.has(recorded);
  }

  private set(recorded: string, now: string, origin: IdOrigin | null): void {
    this.entries.set(recorded, { given: true, now, origin });
    if (now !== recorded) this.back.set(now, recorded);
  }

  /**
   * An id the partner chose for a record it creates: written under `<run id>-<id>` on the target, so the run's
   * writes are found by their tag (runner/undo-run.ts) and never collide with the partner's own records.
   */
  tag(recorded: string): string {
    const e = this.entries.get(recorded);
    if (e?.given) return e.now;
    const now = recorded.startsWith(this.runId) ? recorded : `${this.runId}-${recorded}`;
    this.set(recorded, now, null);
    return now;
  }

  /**
   * Pairs the ids of a recorded answer with the target's answer to the same request, without keeping them (a read
   * is judged with them while it is polled; `commit` keeps the last). An id already known is left alone. A new one
   * is given when the target's answer holds the same value anywhere, or another string at the same pointer (in a
   * list, the item at the same place: a partner that picked the first group of a list picks the first again);
   * otherwise it is missing, and a later request that uses it is blocked by this exchange. `sentBefore` holds ids
   * the partner itself sent earlier: those were not introduced by an answer.
   */
  pair(recordedBody: unknown, newBody: unknown, newOk: boolean, sentBefore: ReadonlySet<string>): Pairing {
    const pairs: Pairing['pairs'] = [];
    const missing: Pairing['missing'] = [];
    const found = idsIn(recordedBody);
    if (found.length === 0) return { pairs, missing };
    const nowValues = new Set(idsIn(newBody).map((x) => x.value));
    const seen = new Set<string>();
    for (const { pointer, value } of found) {
      if (this.entries.has(value) || sentBefore.has(value) || seen.has(value)) continue;
      seen.add(value);
      if (nowValues.has(value)) {
        pairs.push({ pointer, recorded: value, now: value });
        continue;
      }
      const now = atPointer(newBody, pointer);
      if (typeof now === 'string' && now !== '') pairs.push({ pointer, recorded: value, now });
      else
        missing.push({
          pointer,
          recorded: value,
          why: newOk ? `its answer has no ${pointer}` : 'its answer was not a success',
        });
    }
    return { pairs, missing };
  }

  /** Keeps a pairing; returns the id format changes it shows, one per place (`*` for every item of a list). */
  commit(p: Pairing, origin: Omit<IdOrigin, 'pointer'>): IdFormatChange[] {
    const changes = new Map<string, IdFormatChange>();
    for (const x of p.pairs) {
      if (this.entries.has(x.recorded)) continue;
      this.set(x.recorded, x.now, { ...origin, pointer: x.pointer });
      const place = x.pointer.replace(/\/\d+(?=\/|$)/g, '/*');
      if (idShape(x.now) !== idShape(x.recorded) && !changes.has(place))
        changes.set(place, { pointer: place, recorded: x.recorded, now: x.now });
    }
    for (const m of p.missing)
      if (!this.entries.has(m.recorded))
        this.entries.set(m.recorded, { given: false, origin: { ...origin, pointer: m.pointer }, why: m.why });
    return [...changes.values()];
  }

  /** Reads a target's id back as the recorded one, with a pairing not yet kept. */
  backwardWith(p: Pairing | undefined): (now: string) => string {
    if (!p || p.pairs.length === 0) return (now) => this.backward(now);
    const local = new Map(p.pairs.map((x) => [x.now, x.recorded]));
    return (now) => local.get(now) ?? this.backward(now);
  }

  /** Marks ids the target never had the chance to give (the request that would have given them was not sent). */
  notSent(
    recordedBody: unknown,
    origin: Omit<IdOrigin, 'pointer'>,
    why: string,
    sentBefore: ReadonlySet<string>,
  ): void {
    for (const { pointer, value } of idsIn(recordedBody))
      if (!this.entries.has(value) && !sentBefore.has(value))
        this.entries.set(value, { given: false, origin: { ...origin, pointer }, why });
  }
}

/** Every string of a JSON value, replaced by `f`; object keys too (a map keyed by id, e.g. crnNumberByCustomerId). */
export function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((x) => mapStrings(x, f));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [f(k), mapStrings(v, f)]));
  return value;
}

/** Every string of a JSON value, for finding the recorded ids a request uses. */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const x of value) stringsIn(x, out);
  else if (value && typeof value === 'object') for (const x of Object.values(value)) stringsIn(x, out);
  return out;
}
