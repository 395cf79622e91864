/**
 * ISO 8601 date-times (spec 2: "Timestamps are ISO 8601 date-times in UTC")
 * across three centuries, with and without fractional seconds, written as `Z`
 * or `+00:00`. With `offsets: true` the same instants are also written at other
 * UTC offsets (−12:00 … +14:00, quarter and half hours): those are valid ISO
 * 8601 but not "in UTC", so the flows send UTC only and a server that refuses
 * other offsets is not failed for it.
 */
import fc from 'fast-check';

const MIN = Date.UTC(1900, 0, 1);
const MAX = Date.UTC(2199, 11, 31, 23, 59, 59, 999);
const UTC_SUFFIXES = ['Z', '+00:00'] as const;
const OFFSET_MINUTES = [-720, -570, -210, -60, 60, 330, 345, 525, 765, 840] as const;

function pad(n: number, width = 2): string {
  return String(Math.abs(n)).padStart(width, '0');
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${pad(Math.trunc(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/** The instant `ms` as wall time at `offsetMinutes`, e.g. 2030-01-01T05:30:00+05:30. */
export function formatAtOffset(
  ms: number,
  offsetMinutes: number,
  withMillis: boolean,
  utcSuffix: 'Z' | '+00:00' = 'Z',
): string {
  const wall = new Date(ms + offsetMinutes * 60_000).toISOString();
  const body = withMillis ? wall.slice(0, 23) : wall.slice(0, 19);
  return body + (offsetMinutes === 0 ? utcSuffix : offsetText(offsetMinutes));
}

export interface DateTimeOptions {
  offsets?: boolean;
  /** Epoch ms bounds; default 1900-01-01 .. 2199-12-31. */
  min?: number;
  max?: number;
}

export function dateTimeArb(options: DateTimeOptions = {}): fc.Arbitrary<string> {
  const instant = fc.integer({ min: options.min ?? MIN, max: options.max ?? MAX });
  const utc = fc
    .tuple(instant, fc.boolean(), fc.constantFrom(...UTC_SUFFIXES))
    .map(([ms, millis, suffix]) => formatAtOffset(ms, 0, millis, suffix));
  if (!options.offsets) return utc;
  const shifted = fc
    .tuple(instant, fc.boolean(), fc.constantFrom(...OFFSET_MINUTES))
    .map(([ms, millis, off]) => formatAtOffset(ms, off, millis));
  return fc.oneof(utc, shifted);
}
