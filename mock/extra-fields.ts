/**
 * The extraFields variant: undocumented fields on every object a response
 * carries at its top level (and on the items of a top-level array). The
 * schemas allow them (spec 2 does not forbid them), so a suite that rejects
 * them is over-strict. Nested objects are left alone: they may be values the
 * client wrote and must read back unchanged.
 */
import type { FastifyInstance } from 'fastify';
import { isObject } from './json.ts';

const EXTRA_FIELDS = {
  tenantId: 'tenant-eu-west-7f3a',
  revision: 3,
  _links: { docs: 'https://flis.example.invalid/docs' },
};

function withExtras(value: unknown): unknown {
  if (!isObject(value)) return value;
  const missing = Object.entries(EXTRA_FIELDS).filter(([k]) => !(k in value));
  return { ...value, ...Object.fromEntries(missing) };
}

export function installExtraFields(app: FastifyInstance): void {
  app.addHook('preSerialization', async (_request, _reply, payload: unknown) =>
    Array.isArray(payload) ? payload.map(withExtras) : withExtras(payload),
  );
}

/**
 * The stampsRetrieval variant: every object an answer carries at its top level (and each item of a top-level array)
 * gets `retrievedAt`, the time of this answer. It is not stored: two reads of one record differ in it.
 */
export function installRetrievalStamp(app: FastifyInstance): void {
  app.addHook('preSerialization', async (_request, _reply, payload: unknown) => {
    const retrievedAt = new Date().toISOString();
    const stamp = (v: unknown) => (isObject(v) ? { ...v, retrievedAt } : v);
    return Array.isArray(payload) ? payload.map(stamp) : stamp(payload);
  });
}
