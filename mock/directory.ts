/**
 * Reference data the mock derives Offer fields from (carrier names, the
 * client's corporate account, districts). The spec returns these fields but a
 * client never writes them, so a real service looks them up; so does the mock.
 */
import type { JsonObject } from './json.ts';

export interface Carrier {
  id: string;
  externalId: string;
  name: string;
}

export interface Corporate {
  id: string;
  name: string;
  subaccountId: string;
  subaccountName: string;
  subaccountIntegrationId: string;
  /** Where an offer starts when the client sends no location at all. */
  depot: JsonObject;
}

export interface District {
  id: string;
  name: string;
  region: string;
  latitude: number;
  longitude: number;
}

export interface Directory {
  /** Never empty: a new offer written without a carrier takes the first. */
  carriers: [Carrier, ...Carrier[]];
  corporate: Corporate;
  districts: District[];
  newId(kind: string): string;
}

export function carrierById(dir: Directory, id: string): Carrier | undefined {
  return dir.carriers.find((c) => c.id === id);
}

export function carrierByExternalId(dir: Directory, externalId: string): Carrier | undefined {
  return dir.carriers.find((c) => c.externalId === externalId);
}

function squaredDistance(d: District, lat: number, lon: number): number {
  return (d.latitude - lat) ** 2 + (d.longitude - lon) ** 2;
}

function stableHash(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return h;
}

/** The nearest district by coordinates, else a stable pick from the location's text, so reads repeat. */
export function districtFor(dir: Directory, location: JsonObject): District {
  const [lat, lon] = [location.latitude, location.longitude];
  const districts = dir.districts;
  if (typeof lat === 'number' && typeof lon === 'number') {
    return districts.reduce((best, d) => (squaredDistance(d, lat, lon) < squaredDistance(best, lat, lon) ? d : best));
  }
  const key = `${String(location.locationId ?? '')}|${String(location.addressText ?? '')}`;
  return districts[stableHash(key) % districts.length] ?? (districts[0] as District);
}
