/**
 * The drift switch: a deployment whose answers have drifted from the
 * contract the way real ones do, for the drift report to find. Offers gain
 * undocumented fields (`carbonKg` at the top, `geoHash` inside both
 * locations) and lose the documented `queried`; billing groups gain
 * `currency`. Dropping `queried` also breaks the Offer schema (spec 2.2
 * lists it), so response-schema fails too: drift that removes a field is a
 * violation as well as drift. Unlike the extraFields variant, nested objects
 * drift too.
 */
import type { FastifyInstance } from 'fastify';
import { isObject, type JsonObject } from './json.ts';

export const DRIFT_ADDED = { offer: 'carbonKg', location: 'geoHash', billingGroup: 'currency' } as const;
export const DRIFT_REMOVED = { offer: 'queried' } as const;

function isOffer(v: JsonObject): boolean {
  return 'offerVersion' in v && 'fromLocation' in v;
}

function isBillingGroup(v: JsonObject): boolean {
  return 'humanReadableId' in v && 'priceTotal' in v;
}

function drifted(v: unknown): unknown {
  if (!isObject(v)) return v;
  if (isOffer(v)) {
    const { [DRIFT_REMOVED.offer]: _removed, ...rest } = v;
    const loc = (l: unknown) => (isObject(l) ? { ...l, [DRIFT_ADDED.location]: 'gcw2j' } : l);
    return { ...rest, [DRIFT_ADDED.offer]: 412.5, fromLocation: loc(v.fromLocation), toLocation: loc(v.toLocation) };
  }
  if (isBillingGroup(v)) return { ...v, [DRIFT_ADDED.billingGroup]: 'GBP' };
  return v;
}

export function installDrift(app: FastifyInstance): void {
  app.addHook('preSerialization', async (_request, _reply, payload: unknown) =>
    Array.isArray(payload) ? payload.map(drifted) : drifted(payload),
  );
}
