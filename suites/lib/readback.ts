/**
 * What an offer must read back after a write (spec 2.2, 2.3, 4.1): every
 * documented field the body wrote, compared as the spec types it, and nothing
 * the spec leaves open:
 * - fields a present mapping request may resolve (carrierId for `carrier`, a
 *   location for its `…Location`/`…LocationGroup`) count as derived;
 * - fields whose type is not shown (prices, productMassKg, …) are derived when
 *   null was written: a server may price or look them up;
 * - an update says nothing about fields it leaves out (merge or replace is not
 *   shown), so only the fields it carries are expected;
 * - numbers within a relative 1e-9 (absolute 1e-6 near zero, which covers a
 *   server that keeps six decimals of a coordinate), timestamps as instants,
 *   references in the order written (a JSON array is an ordered sequence, RFC 8259
 *   section 5), a null key-value store as null or empty.
 */
import type { Location, OfferWrite } from '../../schemas/types.generated.ts';
import type { CheckId } from './catalogue.ts';

export type Compare = 'exact' | 'number' | 'instant' | 'null-or-empty';

export interface Expectation {
  /** JSON pointer into the Offer. */
  pointer: string;
  value: unknown;
  compare: Compare;
}

export interface ExpectOptions {
  /** True when this write creates the offer: defaults apply (noPayment false, not cancelled). */
  created: boolean;
}

function escapeKey(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function keyValue(pointer: string, value: unknown): Expectation[] {
  if (value === null) return [{ pointer, value: null, compare: 'null-or-empty' }];
  if (typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).map(([k, v]) => ({
    pointer: `${pointer}/${escapeKey(k)}`,
    value: v,
    compare: 'exact' as const,
  }));
}

function location(pointer: string, loc: Location): Expectation[] {
  const out: Expectation[] = [];
  for (const [key, value] of Object.entries(loc)) {
    if (key === 'properties') out.push(...keyValue(`${pointer}/properties`, value));
    else out.push({ pointer: `${pointer}/${key}`, value, compare: typeof value === 'number' ? 'number' : 'exact' });
  }
  return out;
}

/** The expectations one write body sets on the offer it writes. */
export function expectationsOf(body: OfferWrite, opts: ExpectOptions): Expectation[] {
  const offer = body.offer ?? {};
  const mapping = body.mappingRequests ?? {};
  const out: Expectation[] = [];
  const exact = (pointer: string, value: unknown): void => void out.push({ pointer, value, compare: 'exact' });
  if (offer.references !== undefined) out.push({ pointer: '/references', value: offer.references, compare: 'exact' });
  if (offer.offerVersion !== undefined) exact('/offerVersion', offer.offerVersion);
  if (offer.bookingId !== undefined) exact('/bookingId', offer.bookingId);
  if (offer.carrierId !== undefined && mapping.carrier === undefined) exact('/carrierId', offer.carrierId);
  if (offer.quantity !== undefined) out.push({ pointer: '/quantity', value: offer.quantity, compare: 'number' });
  if (offer.properties !== undefined) out.push(...keyValue('/properties', offer.properties));
  if (offer.noPayment !== undefined) exact('/noPayment', offer.noPayment);
  else if (opts.created) exact('/noPayment', false);
  for (const side of ['fromLocation', 'toLocation'] as const) {
    const mapped = mapping[side] !== undefined || mapping[`${side}Group`] !== undefined;
    const loc = offer[side];
    if (loc && !mapped) out.push(...location(`/${side}`, loc));
  }
  if (offer.transportTimestamp !== undefined)
    out.push({ pointer: '/transportTimestamp', value: offer.transportTimestamp, compare: 'instant' });
  if (body.cancel !== undefined) exact('/canceled', body.cancel);
  else if (opts.created) exact('/canceled', false);
  if (body.settled !== undefined) exact('/settled', body.settled);
  return out;
}

/** The value at a JSON pointer, or undefined. */
export function at(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function sameNumber(a: unknown, b: number): boolean {
  return typeof a === 'number' && Math.abs(a - b) <= Math.max(1e-6, Math.abs(b) * 1e-9);
}

function sameInstant(a: unknown, b: string): boolean {
  return typeof a === 'string' && Date.parse(a) === Date.parse(b);
}

function isEmptyObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}

export function matches(actual: unknown, e: Expectation): boolean {
  switch (e.compare) {
    case 'number':
      return sameNumber(actual, e.value as number);
    case 'instant':
      return sameInstant(actual, e.value as string);
    case 'null-or-empty':
      return actual === null || isEmptyObject(actual);
    case 'exact':
      return JSON.stringify(actual) === JSON.stringify(e.value);
  }
}

/** One line per expectation the offer does not meet, e.g. `/quantity: wrote 3, read "3"`. */
export function mismatches(offer: unknown, expectations: readonly Expectation[]): string[] {
  return expectations
    .filter((e) => !matches(at(offer, e.pointer), e))
    .map(
      (e) =>
        `${e.pointer}: wrote ${JSON.stringify(e.value)}, read ${JSON.stringify(at(offer, e.pointer)) ?? '(absent)'}`,
    );
}

/** The value a field showed before the write, as `e` compares it: the same value (absent or null when nothing was there). */
function sameAsBefore(actual: unknown, old: unknown, e: Expectation): boolean {
  if (old === undefined || old === null) return actual === undefined || actual === null;
  if (e.compare === 'number' && typeof old === 'number') return matches(actual, { ...e, value: old });
  if (e.compare === 'instant' && typeof old === 'string') return matches(actual, { ...e, value: old });
  return JSON.stringify(actual) === JSON.stringify(old);
}

/**
 * For a read that does not meet every expectation yet: 'wait' while each unmet field still shows what it showed
 * before the write (`before`: the offer as last read; undefined for an offer the write creates, whose fields
 * showed nothing), 'impossible' once one shows a third value. An asynchronous write may take a while to show
 * (spec 1), but a value that is neither the old one nor the one written can never turn into the written one.
 */
export function unmetVerdict(
  offer: unknown,
  expectations: readonly Expectation[],
  before?: unknown,
): 'wait' | 'impossible' {
  const third = expectations.some((e) => {
    const actual = at(offer, e.pointer);
    return !matches(actual, e) && !sameAsBefore(actual, before === undefined ? undefined : at(before, e.pointer), e);
  });
  return third ? 'impossible' : 'wait';
}

/** The JSON pointers of the expectations the offer does not meet. */
export function unmetPointers(offer: unknown, expectations: readonly Expectation[]): string[] {
  return expectations.filter((e) => !matches(at(offer, e.pointer), e)).map((e) => e.pointer);
}

/**
 * The check that owns a read-back rule (one fault, one failure): `canceled` is offer-cancel's (spec 3 rule 4),
 * `settled` offer-settled's (spec 2.3), every other written field offer-upsert's (spec 1, 2.3, 4.1).
 */
export function readBackOwner(pointers: readonly string[]): CheckId {
  if (pointers.some((p) => p !== '/canceled' && p !== '/settled')) return 'offer-upsert';
  if (pointers.includes('/canceled')) return 'offer-cancel';
  return pointers.includes('/settled') ? 'offer-settled' : 'offer-upsert';
}
