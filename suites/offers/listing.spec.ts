/**
 * offer-listing (spec 4.1): GET /offers with `start` and `end` answers an array
 * of valid offers, judged both ways. Which timestamp the window filters on is not
 * shown (spec 4.3), so:
 * - a window that covers both the transportTimestamp written and the time of
 *   writing lists the offers the suite wrote;
 * - a window that both lie well outside (at least 6 hours, before or after) does
 *   not list them, whichever reading the server chose, and whether its bounds
 *   include themselves or not.
 * Nothing is asserted about the other offers a window holds.
 */
import fc from 'fast-check';
import { runNow } from '../lib/clock.ts';
import { operationById } from '../../specs/contract.ts';
import { dateTimeArb } from '../generators/date-time.ts';
import { offerWriteBodyArb } from '../generators/offer-write-body.ts';
import { type CheckContext, checkTest, test } from '../lib/index.ts';
import { pollVisible } from '../lib/visibility-deadline.ts';
import { target } from '../lib/target.ts';
import { awaitOffer } from '../lib/offers/await-offer.ts';
import { upsertOffer } from '../lib/offers/flow-steps.ts';
import { expectationsOf } from '../lib/readback.ts';
import { freshId } from '../lib/fresh-id.ts';
import { offerWriteBody } from '../lib/fixtures.ts';
import type { OfferWrite } from '../../schemas/types.generated.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WRITTEN = 3;
/**
 * Windows both the transport timestamps (within an hour of the run's clock) and the times of writing (after it,
 * within the run) lie well outside of: six hours is more than any clock skew, and than a run lasts.
 */
function windowsOutside(now: number): { where: string; start: string; end: string }[] {
  const iso = (ms: number) => new Date(ms).toISOString();
  return [
    { where: 'before', start: iso(now - 3 * DAY), end: iso(now - 6 * HOUR) },
    { where: 'after', start: iso(now + 6 * HOUR), end: iso(now + 3 * DAY) },
  ];
}

/** The ids in a listing: an offer counts as found by its id or by the unique reference the suite gave it. */
function found(body: unknown, wanted: Map<string, string>): Set<string> {
  const out = new Set<string>();
  if (!Array.isArray(body)) return out;
  for (const o of body as { id?: unknown; references?: unknown }[]) {
    for (const [id, ref] of wanted) {
      if (o.id === id || (Array.isArray(o.references) && o.references.includes(ref))) out.add(id);
    }
  }
  return out;
}

/**
 * GET /offers two hours either side of the run's clock (the transport timestamps written, the time of writing, clock
 * skew), read until it lists every offer wanted (by id or reference) or the deadline passes: the last answer, and the
 * offers it leaves out.
 */
async function listedAround(ctx: CheckContext, now: number, wanted: Map<string, string>) {
  const query = { start: new Date(now - 2 * HOUR).toISOString(), end: new Date(now + 2 * HOUR).toISOString() };
  const r = await pollVisible(
    () => ctx.api.op(operationById('listOffers'), { query }),
    (x) => found(x.response.body, wanted).size === wanted.size,
  );
  ctx.check.expectSuccess(r.value, 'GET /offers');
  ctx.check.expectSchema(r.value, 'offer-list');
  const missing = [...wanted.keys()].filter((id) => !found(r.value.response.body, wanted).has(id));
  return { x: r.value, query, missing };
}

test(
  ...checkTest(
    {
      check: 'offer-listing',
      operation: operationById('listOffers'),
      title: 'GET /offers with start and end lists the offers written in the window',
      writes: true,
    },
    async (ctx) => {
      const t = target();
      const now = runNow();
      const nearNow = dateTimeArb({ min: now - HOUR, max: now + HOUR });
      const bodies = fc.sample(offerWriteBodyArb(ctx.runId, { cancel: false, transportTimestamp: nearNow }), {
        seed: t.seed,
        numRuns: WRITTEN,
      });
      const wanted = new Map<string, string>();
      for (const body of bodies) {
        const id = ctx.cleanup.offer(freshId('offer'));
        const ref = `${id}-listing`;
        const written = { ...body, offer: { ...body.offer, references: [...(body.offer?.references ?? []), ref] } };
        await upsertOffer(ctx, id, written);
        await awaitOffer(ctx, id, {
          expectations: expectationsOf(written, { created: true }),
          problem: 'was not created by a PUT to a new id',
          clause: 'spec 1',
          setupOwnedBy: 'offer-upsert',
        });
        wanted.set(id, ref);
      }
      const { x, query, missing } = await listedAround(ctx, now, wanted);
      if (missing.length > 0)
        ctx.check.fail(
          `GET /offers?start=${query.start}&end=${query.end} does not list ${missing.length} of the ${wanted.size} offers written in that window: ${missing.join(', ')}`,
          { exchanges: [x] },
        );
      // The other way: now that every offer shows, windows far from both their timestamps must leave them out.
      for (const w of windowsOutside(now)) {
        const x = await ctx.api.op(operationById('listOffers'), { query: { start: w.start, end: w.end } });
        ctx.check.expectSuccess(x, 'GET /offers');
        ctx.check.expectSchema(x, 'offer-list');
        const wrong = [...found(x.response.body, wanted)];
        if (wrong.length > 0)
          ctx.check.fail(
            `GET /offers?start=${w.start}&end=${w.end} lists ${wrong.length} offer(s) whose transportTimestamp and time of writing both lie at least 6 hours ${w.where} that window (whichever of the two it filters on, spec 4.3): ${wrong.join(', ')}; an offer outside the window must not be listed (spec 4.1)`,
            { exchanges: [x] },
          );
      }
    },
  ),
);

/**
 * Equal sort keys: offers that share one transportTimestamp are as many offers in the window, however the server
 * orders or keys its listing (a listing keyed by timestamp would keep one of them). An offer updated after it was
 * listed is still listed. Order among equal timestamps is the server's (spec 4.1 shows none).
 */
test(
  ...checkTest(
    {
      check: 'offer-listing',
      operation: operationById('listOffers'),
      title: 'GET /offers lists every offer that shares a transportTimestamp, and an offer still after its update',
      writes: true,
    },
    async (ctx) => {
      const now = runNow();
      // One instant for all, apart from the instants other tests write (whole seconds of the run's clock).
      const shared = new Date(now - HOUR + 1 + (target().seed % 997)).toISOString();
      const wanted = new Map<string, string>();
      const bodies = new Map<string, { body: OfferWrite; read: Record<string, unknown> }>();
      for (let i = 0; i < WRITTEN; i++) {
        const id = ctx.cleanup.offer(freshId('same-time-offer'));
        const ref = `${id}-listing`;
        const base = offerWriteBody(ctx.runId);
        const written: OfferWrite = {
          ...base,
          offer: { ...base.offer, references: [ref], transportTimestamp: shared },
        };
        const put = await upsertOffer(ctx, id, written);
        const read = await awaitOffer(ctx, id, {
          expectations: expectationsOf(written, { created: true }),
          problem: 'was not created by a PUT to a new id',
          clause: 'spec 1',
          batchIds: put.batchIds,
          setupOwnedBy: 'offer-upsert',
        });
        wanted.set(id, ref);
        bodies.set(id, { body: written, read });
      }
      const [first] = wanted.keys();
      const firstWrite = first ? bodies.get(first) : undefined;
      if (first && firstWrite) {
        const { body } = firstWrite;
        const update: OfferWrite = { ...body, offer: { ...body.offer, offerVersion: 'updated' } };
        const put = await upsertOffer(ctx, first, update);
        await awaitOffer(ctx, first, {
          expectations: expectationsOf(update, { created: false }),
          problem: 'was not updated by a PUT to its id',
          clause: 'spec 1',
          before: firstWrite.read,
          batchIds: put.batchIds,
          setupOwnedBy: 'offer-upsert',
        });
      }
      const { x, query, missing } = await listedAround(ctx, now, wanted);
      if (missing.length > 0)
        ctx.check.fail(
          `GET /offers?start=${query.start}&end=${query.end} lists ${wanted.size - missing.length} of the ${wanted.size} offers written with transportTimestamp ${shared} (the first of them updated since): ${missing.join(', ')} missing; offers with one timestamp are still as many offers`,
          { exchanges: [x] },
        );
    },
  ),
);
