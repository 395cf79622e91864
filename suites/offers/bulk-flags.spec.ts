/**
 * offer-bulk-flags (spec 2.3, spec 3 rule 4): the fields the spec gives a
 * meaning to take effect in bulk items as in single writes: `cancel` (the
 * offer reads canceled), `settled`, and `noPayment` with its default false.
 * Every combination is listed and run, every time: each of the three true,
 * false or left out, 27 items over three bulk calls of nine.
 * Only the three flags are judged. An item that never reads back, or reads
 * back with other content than it was written with, is offer-bulk's failure:
 * it is left unjudged here, and the test is blocked if no item could be judged.
 */
import type { OfferBulkItem } from '../../schemas/types.generated.ts';
import { operationById } from '../../specs/contract.ts';
import {
  type CheckContext,
  checkTest,
  test,
  skip,
  target,
  offerWriteBody,
  RESPONSE_SCHEMA,
  pollVisible,
  freshId,
  bulkWriteOffers,
  readOffer,
  readVerdict,
  writtenVersion,
  expectationsOf,
  mismatches,
  type Expectation,
} from '../lib/index.ts';

const FLAGS = new Set(['/canceled', '/settled', '/noPayment']);
const CHOICES = [true, false, undefined] as const;
const CHUNK = 9;

function items(ctx: CheckContext): OfferBulkItem[] {
  const out: OfferBulkItem[] = [];
  for (const cancel of CHOICES)
    for (const settled of CHOICES)
      for (const noPayment of CHOICES) {
        const base = offerWriteBody(ctx.runId);
        const { noPayment: _n, ...offer } = base.offer ?? {};
        out.push({
          id: ctx.cleanup.offer(freshId('flags')),
          offer: noPayment === undefined ? offer : { ...offer, noPayment },
          ...(cancel === undefined ? {} : { cancel }),
          ...(settled === undefined ? {} : { settled }),
        });
      }
  return out;
}

interface Judged {
  item: OfferBulkItem;
  wrong: string[];
}

/** Waits for the item to read back as written; answers its flag mismatches, or undefined when it is offer-bulk's to judge. */
async function judge(ctx: CheckContext, item: OfferBulkItem): Promise<Judged | undefined> {
  const all = expectationsOf(item, { created: true });
  const flags = all.filter((e: Expectation) => FLAGS.has(e.pointer));
  const content = all.filter((e: Expectation) => !FLAGS.has(e.pointer));
  // A field that shows a value this item never had cannot turn right later: stop polling at once (core/poll.ts).
  const r = await pollVisible(
    () => readOffer(ctx, item.id),
    (read) => (read.shapeProblem !== undefined ? 'accept' : readVerdict(read, all)),
  );
  // A broken Offer shape is response-schema's to report; comparing flags on it would fail this check for that fault.
  if (r.value.shapeProblem !== undefined)
    skip.blockedBy(ctx, RESPONSE_SCHEMA, r.value.exchange, `GET /offers/${item.id}: ${r.value.shapeProblem}`);
  const offer = writtenVersion(r.value, content);
  if (!offer || mismatches(offer, content).length > 0) return undefined;
  if (offer.canceled === true) ctx.cleanup.offerCancelled(item.id);
  return { item, wrong: mismatches(offer, flags) };
}

function flagsOf(item: OfferBulkItem): string {
  const said = (v: boolean | undefined) => (v === undefined ? 'left out' : String(v));
  return `cancel ${said(item.cancel)}, settled ${said(item.settled)}, noPayment ${said(item.offer?.noPayment)}`;
}

test(
  ...checkTest(
    {
      check: 'offer-bulk-flags',
      operation: operationById('bulkWriteOffers'),
      title: 'cancel, settled and noPayment (default false) take effect in every bulk item, alone and combined',
      writes: true,
    },
    async (ctx) => {
      const all = items(ctx);
      ctx.testInfo.setTimeout(ctx.testInfo.timeout + all.length * target().visibilityTimeoutMs);
      const judged: Judged[] = [];
      let unjudged = 0;
      for (let i = 0; i < all.length; i += CHUNK) {
        const chunk = all.slice(i, i + CHUNK);
        await bulkWriteOffers(ctx, chunk);
        for (const item of chunk) {
          const j = await judge(ctx, item);
          if (j) judged.push(j);
          else unjudged++;
        }
      }
      if (judged.length === 0) {
        skip.blockedBy(
          ctx,
          'offer-bulk',
          undefined,
          `none of the ${all.length} bulk items read back with the content written`,
        );
      }
      const bad = judged.filter((j) => j.wrong.length > 0);
      if (bad.length > 0)
        ctx.check.fail(
          `${bad.length} of ${judged.length} bulk item(s) read back with flags other than written${unjudged ? ` (${unjudged} not judged: offer-bulk's)` : ''}:\n    ${bad
            .slice(0, 8)
            .map((b) => `${b.item.id} (${flagsOf(b.item)}): ${b.wrong.join('; ')}`)
            .join('\n    ')}`,
          { exchanges: ctx.api.exchanges.filter((x) => x.request.method === 'POST').slice(-1) },
        );
    },
  ),
);
