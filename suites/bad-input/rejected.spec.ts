/**
 * bad-input-rejected (HTTP semantics; spec 2.3, spec 4, spec 5 rule 3):
 * generated invalid offer writes — a documented field of the wrong JSON type,
 * an impossible date-time, malformed JSON, a JSON value of the wrong shape, no
 * body, a body not sent as JSON — to POST /offers, PUT /offers/{offerId} and
 * POST /offers/bulk are answered 4xx: never accepted (2xx), never a server
 * error (5xx), and the error body never echoes the bearer token. The error
 * code and body are not shown (spec 7), so any 4xx passes. Anything a server
 * wrongly accepts is registered for cleanup.
 */
import fc from 'fast-check';
import { operationById } from '../../specs/contract.ts';
import { invalidOfferBodyArb, type InvalidBody } from '../generators/invalid-offer-body.ts';
import { checkTest, test } from '../lib/check-test.ts';
import { freshOfferId, withCleanup, type FlowContext } from '../lib/cleanup.ts';
import type { Exchange } from '../lib/exchange.ts';
import { checkProperty } from '../lib/property.ts';
import { secretForms } from '../lib/redact.ts';
import { target } from '../lib/target.ts';

type WriteOp = 'createOffer' | 'upsertOffer' | 'bulkWriteOffers';

function caseArb(runId: string): fc.Arbitrary<{ operationId: WriteOp; bad: InvalidBody }> {
  // Two prebuilt arbitraries rather than a chain: building one per draw is what would cost the time.
  const single = invalidOfferBodyArb(runId, 'single');
  const bulk = invalidOfferBodyArb(runId, 'bulk');
  return fc
    .oneof(
      fc.tuple(fc.constantFrom<WriteOp>('createOffer', 'upsertOffer'), single),
      fc.tuple(fc.constant<WriteOp>('bulkWriteOffers'), bulk),
    )
    .map(([operationId, bad]) => ({ operationId, bad }));
}

async function send(flow: FlowContext, operationId: WriteOp, bad: InvalidBody): Promise<Exchange> {
  // Not registered for cleanup up front: a refused write stores nothing, and cleaning up nothing could itself be refused.
  const params = operationId === 'upsertOffer' ? { offerId: freshOfferId('bad') } : undefined;
  return flow.api.op(operationById(operationId), {
    ...(params ? { params } : {}),
    ...(bad.raw !== undefined ? { raw: bad.raw } : {}),
    ...(bad.contentType !== undefined ? { contentType: bad.contentType } : {}),
  });
}

/** Whatever a wrongly accepted write may have stored: the id a create answered or a PUT named, the ids of bulk items. */
function registerAccepted(flow: FlowContext, x: Exchange, bad: InvalidBody): void {
  const id = (x.response.body as { id?: unknown } | undefined)?.id;
  if (typeof id === 'string') flow.cleanup.offer(id);
  const putId =
    x.operationId === 'upsertOffer' ? decodeURIComponent(new URL(x.request.url).pathname.split('/').pop() ?? '') : '';
  if (putId) flow.cleanup.offer(putId);
  try {
    const parsed: unknown = JSON.parse(bad.raw ?? '');
    for (const item of Array.isArray(parsed) ? parsed : []) {
      const itemId = (item as { id?: unknown } | null)?.id;
      if (typeof itemId === 'string') flow.cleanup.offer(itemId);
    }
  } catch {
    // Not JSON: nothing to find in it.
  }
}

function echoesToken(x: Exchange, token: string): boolean {
  return secretForms(token).some((form) => x.response.text.includes(form));
}

test(
  ...checkTest(
    {
      check: 'bad-input-rejected',
      clause: 'HTTP semantics; spec 2.3, spec 4, spec 5 rule 3',
      title: 'invalid offer writes are answered 4xx, never accepted, never 5xx, never echo the token',
      writes: true,
    },
    (ctx) =>
      withCleanup(ctx, async (flow) => {
        const token = target().token;
        await checkProperty(
          flow,
          [caseArb(target().runId)],
          async ({ operationId, bad }) => {
            const op = operationById(operationId);
            const x = await send(flow, operationId, bad);
            const where = { exchanges: [x], operationId: op.operationId, method: op.method, path: op.path };
            const status = x.response.status;
            if (status >= 200 && status < 300) registerAccepted(flow, x, bad);
            if (status >= 500)
              flow.check.fail(
                `${op.method.toUpperCase()} ${op.path} answered ${status} to bad input (${bad.flaw}); bad input is the client's error, a 4xx`,
                where,
                'HTTP semantics',
              );
            if (status < 400 || status >= 500)
              flow.check.fail(
                `${op.method.toUpperCase()} ${op.path} answered ${status} to bad input (${bad.flaw}); it must be refused with a 4xx, not accepted`,
                where,
              );
            if (token && echoesToken(x, token))
              flow.check.fail(
                `the ${status} error body of ${op.method.toUpperCase()} ${op.path} echoes the bearer token`,
                where,
                'spec 5',
              );
          },
          { numRuns: Math.max(1, target().runs * 2) },
        );
      }),
  ),
);
