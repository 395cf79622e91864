/**
 * Offer write bodies (spec 2.3) at the edges their shapes allow, listed so that every run writes all of them (the
 * same server gets the same verdict on every seed; a random draw reaches an edge only now and then):
 * - `references` out of sorted order, with a repeated value, empty, and long: a JSON array is an ordered sequence
 *   (RFC 8259 section 5), so it reads back in the written order;
 * - `transportTimestamp` at offsets other than Z (positive, negative, half and quarter hours, the widest), with and
 *   without fractional seconds, and at the ends of the range the suites write: read back as the same instant (UTC
 *   notation is fine). Spec 2 says timestamps are in UTC, so a server may refuse an offset with a 4xx; `offset` marks
 *   those bodies;
 * - numbers and coordinates at their ends (quantity 0 and fractional, latitude ±90, longitude ±180), and text
 *   outside ASCII.
 * Each body starts from the complete fixture body and changes the edge alone, so a miss names its edge.
 */
import type { OfferWrite } from '../../schemas/types.generated.ts';
import { formatAtOffset } from './date-time.ts';

export interface EdgeBody {
  /** What edge the body reaches, for the failure message. */
  edge: string;
  /** The `offer` fields the edge sets, merged over a complete body. */
  offer: NonNullable<OfferWrite['offer']>;
  /** True when the body carries a timestamp at an offset other than Z, which a server may refuse (spec 2). */
  offset: boolean;
}

/** Noon on 2030-06-15 UTC: well inside every window, its wall time differing from UTC at every offset below. */
const NOON = Date.UTC(2030, 5, 15, 12, 0, 0);

const OFFSETS: readonly { minutes: number; millis: boolean }[] = [
  { minutes: 120, millis: false },
  { minutes: -300, millis: false },
  { minutes: 330, millis: true },
  { minutes: 345, millis: false },
  { minutes: -570, millis: true },
  { minutes: 840, millis: false },
  { minutes: -720, millis: false },
];

export function offerEdgeBodies(runId: string): EdgeBody[] {
  const ref = (s: string) => `${runId}-ref-${s}`;
  const at = (ms: number, minutes: number, millis: boolean) => formatAtOffset(ms, minutes, millis);
  return [
    { edge: 'references out of sorted order', offer: { references: [ref('c'), ref('a'), ref('b')] }, offset: false },
    {
      edge: 'references with a repeated value',
      offer: { references: [ref('b'), ref('a'), ref('b')] },
      offset: false,
    },
    { edge: 'references empty', offer: { references: [] }, offset: false },
    {
      edge: 'references long, in descending order',
      offer: { references: Array.from({ length: 40 }, (_, i) => ref(`${String(40 - i).padStart(2, '0')}`)) },
      offset: false,
    },
    ...OFFSETS.map(({ minutes, millis }) => {
      const value = at(NOON, minutes, millis);
      return { edge: `transportTimestamp ${value}`, offer: { transportTimestamp: value }, offset: true };
    }),
    {
      edge: 'transportTimestamp +00:00',
      offer: { transportTimestamp: at(NOON, 0, false).replace('Z', '+00:00') },
      offset: true,
    },
    {
      edge: 'transportTimestamp at the start of the range',
      offer: { transportTimestamp: '1900-01-01T00:00:00Z' },
      offset: false,
    },
    {
      edge: 'transportTimestamp at the end of the range',
      offer: { transportTimestamp: '2199-12-31T23:59:59.999Z' },
      offset: false,
    },
    { edge: 'quantity 0', offer: { quantity: 0 }, offset: false },
    { edge: 'quantity fractional', offer: { quantity: 0.001 }, offset: false },
    {
      edge: 'coordinates at the poles and the antimeridian',
      offer: {
        fromLocation: { latitude: 90, longitude: -180, locationName: `${runId} Nordpol – Ωmega 北` },
        toLocation: { latitude: -90, longitude: 180, addressText: `${runId} Süd, Île ñ 🚚` },
      },
      offset: false,
    },
  ];
}
