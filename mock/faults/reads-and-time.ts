/**
 * Faults of reads and of time (HTTP semantics; spec 1, spec 3 rules 1-2): a GET that changes what a later GET shows,
 * and a state that changes by itself after it showed. Each is a bug a real implementation could have: a read that
 * marks what it read, a status queue consumed by reading it, a forced status with an expiry, a soft delete a
 * background job undoes. The reads bend a route's 2xx answer (the answer is already built: the change shows from the
 * next read on); time bends the stores, lazily on the next access, as a job would between two requests.
 */
import type { FastifyRequest } from 'fastify';
import { notFound } from '../errors.ts';
import type { FaultName } from '../faults.ts';
import type { JsonObject } from '../json.ts';
import type { Collection } from '../store.ts';
import type { Bend, FaultLayer, Handler } from './layer.ts';

/** How long a forced status lasts, and how long a removed record stays away: shorter than any visibility deadline. */
const EXPIRES_AFTER_MS = 1_000;

function param(request: FastifyRequest, name: string): string {
  return String((request.params as Record<string, unknown>)[name] ?? '');
}

/** The record a GET by id of section 4.3 reads: its route's last segment names it (not a list under a parent). */
function readsOneRecord(request: FastifyRequest | undefined): boolean {
  const url = request?.routeOptions.url ?? '';
  return request?.method === 'GET' && /\/:[^/]+$/.test(url);
}

/** Every `name` of a removed record whose time is up is put back, unless it was written again meanwhile. */
function reviver(layer: FaultLayer) {
  const removed: { name: Collection; key: string; record: JsonObject; at: number }[] = [];
  const put = layer.ctx.records.put.bind(layer.ctx.records);
  const has = layer.ctx.records.has.bind(layer.ctx.records);
  return {
    note(name: Collection, key: string, record: JsonObject): void {
      removed.push({ name, key, record, at: Date.now() });
    },
    revive(): void {
      for (let i = removed.length - 1; i >= 0; i--) {
        const r = removed[i];
        if (!r || Date.now() - r.at < EXPIRES_AFTER_MS) continue;
        removed.splice(i, 1);
        if (!has(r.name, r.key)) put(r.name, r.key, r.record);
      }
    },
  };
}

export const readAndTimeBends = {
  // GET /offers/{offerId} marks the offer queried once it has answered (spec 2.2 `queried`): the next read shows it.
  'offer-read-marks-queried': (layer) =>
    layer.route('GET /offers/:offerId', {
      answer: (payload, request) => {
        const offerId = param(request, 'offerId');
        layer.ctx.offers.submit(layer.ctx.ids.next('batch'), [
          { offerId, operation: 'UPSERT', mutate: (o) => o && { ...o, queried: true } },
        ]);
        return payload;
      },
    }),
  // A GET of one section 4.3 record stores when it was last viewed, after answering: the next read shows it.
  'record-read-stamps-viewed': (layer) =>
    layer.decorate(layer.ctx.records, 'get', (get) => (name, key) => {
      const record = get(name, key);
      if (record && readsOneRecord(layer.currentRequest()))
        layer.ctx.records.put(name, key, { ...record, lastViewedAt: new Date().toISOString() });
      return record;
    }),
  // The status of a batch is read once, as from a queue: every later GET answers 404.
  'batch-status-read-once': (layer) => {
    const consumed = new Set<string>();
    layer.route('GET /bookings/requestsStatus/batch/:batchId', {
      handler:
        (previous: Handler): Handler =>
        async (request, reply) => {
          const batchId = param(request, 'batchId');
          if (consumed.has(batchId)) throw notFound('batch');
          const answer = await previous(request, reply);
          consumed.add(batchId);
          return answer;
        },
    });
  },
  // A forced status lasts a second, then the group shows its own again (spec 3 rule 1 forces it until rule 2 removes it).
  'forced-status-expires': (layer) => {
    const billing = layer.ctx.billing;
    const forcedAt = new Map<string, number>();
    const unforce = billing.unforce.bind(billing);
    const expire = () => {
      for (const [id, at] of forcedAt)
        if (Date.now() - at >= EXPIRES_AFTER_MS) {
          forcedAt.delete(id);
          unforce(id);
        }
    };
    layer.decorate(billing, 'force', (force) => (id, status) => {
      forcedAt.set(id, Date.now());
      force(id, status);
    });
    layer.decorate(billing, 'unforce', (original) => (id) => {
      forcedAt.delete(id);
      original(id);
    });
    for (const method of ['get', 'list', 'details'] as const)
      layer.decorate(
        billing,
        method,
        (read) =>
          ((...args: unknown[]) => {
            expire();
            return (read as (...a: unknown[]) => unknown)(...args);
          }) as never,
      );
  },
  // A section 4.3 record a DELETE removed comes back a second later, as it was (a job that restores what it finds
  // missing): spec 1, what was written stays until it is written again, and a removal is a write.
  'deleted-record-returns': (layer) => {
    const records = layer.ctx.records;
    const back = reviver(layer);
    layer.decorate(records, 'delete', (remove) => (name, key) => {
      const record = records.get(name, key);
      const done = remove(name, key);
      if (done && record && layer.currentRequest()?.method === 'DELETE') back.note(name, key, record);
      return done;
    });
    for (const method of ['get', 'has', 'list', 'where', 'keysWhere'] as const)
      layer.decorate(
        records,
        method,
        (read) =>
          ((...args: unknown[]) => {
            back.revive();
            return (read as (...a: unknown[]) => unknown)(...args);
          }) as never,
      );
  },
} satisfies Partial<Record<FaultName, Bend>>;
