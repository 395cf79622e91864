/**
 * bad-input-rejected (advisory; a 5xx is contract, HTTP semantics): invalid
 * offer writes to POST /offers, PUT /offers/{offerId} and POST /offers/bulk.
 *
 * The spec tells the CLIENT what to send (spec 2.3 shapes, spec 4 "bodies are
 * JSON", spec 5 rule 3 "send Content-Type: application/json") and shows no
 * error codes (spec 7), so a server that reads a wrongly typed field leniently,
 * a JSON body sent as text/plain, or a bulk item without id (none is marked
 * required) breaks no sentence binding it. Accepting such input, or echoing
 * the bearer token in an error body, is therefore ADVISORY. Answering any of
 * it with a 5xx is CONTRACT: a server does not fail on a request it can judge.
 *
 * Every case that can be listed is sent on every run, to each of the three
 * operations (suites/generators/invalid-offer-body.ts: each typed field with
 * each wrong value, each malformed text, each wrong shape, no body, each other
 * content type), side by side, so the same server gets the same verdict whatever the seed; a
 * fast-check property then adds random cases (other bodies, JSON cut short).
 * Anything a server accepts is registered for cleanup.
 */
import fc from 'fast-check';
import { operationById } from '../../specs/contract.ts';
import { invalidOfferBodies, invalidOfferBodyArb, type InvalidBody } from '../generators/invalid-offer-body.ts';
import {
  type Severity,
  type CheckContext,
  type Clause,
  checkTest,
  test,
  type Exchange,
  secretForms,
  target,
  offerWriteBodyArb,
  freshId,
  checkProperty,
  mapBounded,
} from '../lib/index.ts';

type WriteOp = 'createOffer' | 'upsertOffer' | 'bulkWriteOffers';
const SINGLE_OPS: readonly WriteOp[] = ['createOffer', 'upsertOffer'];
/** Fixed, so the listed cases are the same bodies on every run whatever the seed. */
const BASE_SEED = 1;

interface Case {
  operationId: WriteOp;
  bad: InvalidBody;
}

function caseArb(runId: string): fc.Arbitrary<Case> {
  // Two prebuilt arbitraries rather than a chain: building one per draw is what would cost the time.
  const single = invalidOfferBodyArb(runId, 'single');
  const bulk = invalidOfferBodyArb(runId, 'bulk');
  return fc
    .oneof(fc.tuple(fc.constantFrom(...SINGLE_OPS), single), fc.tuple(fc.constant<WriteOp>('bulkWriteOffers'), bulk))
    .map(([operationId, bad]) => ({ operationId, bad }));
}

function listedCases(runId: string): Case[] {
  const [valid] = fc.sample(offerWriteBodyArb(runId, { cancel: false }), { seed: BASE_SEED, numRuns: 1 });
  return [
    ...SINGLE_OPS.flatMap((operationId) =>
      invalidOfferBodies(runId, 'single', valid).map((bad) => ({ operationId, bad })),
    ),
    ...invalidOfferBodies(runId, 'bulk', valid).map((bad) => ({ operationId: 'bulkWriteOffers' as const, bad })),
  ];
}

async function send(ctx: CheckContext, { operationId, bad }: Case): Promise<Exchange> {
  // Not registered for cleanup up front: a refused write stores nothing, and cleaning up nothing could itself be refused.
  const params = operationId === 'upsertOffer' ? { offerId: freshId('bad') } : undefined;
  return ctx.api.op(operationById(operationId), {
    ...(params ? { params } : {}),
    ...(bad.raw !== undefined ? { raw: bad.raw } : {}),
    ...(bad.contentType !== undefined ? { contentType: bad.contentType } : {}),
  });
}

/** Whatever a wrongly accepted write may have stored: the id a create answered or a PUT named, the ids of bulk items. */
function registerAccepted(ctx: CheckContext, x: Exchange, bad: InvalidBody): void {
  const id = (x.response.body as { id?: unknown } | undefined)?.id;
  if (typeof id === 'string') ctx.cleanup.offer(id);
  const putId =
    x.operationId === 'upsertOffer' ? decodeURIComponent(new URL(x.request.url).pathname.split('/').pop() ?? '') : '';
  if (putId) ctx.cleanup.offer(putId);
  try {
    const parsed: unknown = JSON.parse(bad.raw ?? '');
    for (const item of Array.isArray(parsed) ? parsed : []) {
      const itemId = (item as { id?: unknown } | null)?.id;
      if (typeof itemId === 'string') ctx.cleanup.offer(itemId);
    }
  } catch {
    // Not JSON: nothing to find in it.
  }
}

interface Finding {
  severity: Severity;
  /** The clause it breaks; none for hygiene beyond the spec (advisory), which cites the check's own clauses. */
  clause: Clause | undefined;
  message: string;
  exchange: Exchange;
}

/** What is wrong with the answer to one bad write, worst first; nothing when it was refused with a clean 4xx. */
function judge(c: Case, x: Exchange, token: string): Finding[] {
  const op = operationById(c.operationId);
  const what = `${op.method.toUpperCase()} ${op.path} answered ${x.response.status} to bad input (${c.bad.flaw})`;
  const status = x.response.status;
  const out: Finding[] = [];
  if (status >= 500)
    out.push({
      severity: 'contract',
      clause: 'HTTP semantics',
      message: `${what}: a server must not answer 5xx to a request it can judge; bad input is the client's error`,
      exchange: x,
    });
  else if (status < 400)
    out.push({
      severity: 'advisory',
      // Spec 5 rule 3 binds the client, so the server's leniency is advisory only.
      clause: 'spec 5 rule 3',
      message: `${what}: accepted; refusing it with a 4xx would tell the client its mistake`,
      exchange: x,
    });
  if (token && secretForms(token).some((form) => x.response.text.includes(form)))
    out.push({
      severity: 'advisory',
      clause: undefined,
      message: `the ${status} answer of ${op.method.toUpperCase()} ${op.path} echoes the bearer token`,
      exchange: x,
    });
  return out;
}

/** Fails with the worst finding (a 5xx before anything advisory), counting the rest. */
function report(ctx: CheckContext, findings: readonly Finding[], total: number): void {
  const worst = findings.find((f) => f.severity === 'contract') ?? findings[0];
  if (!worst) return;
  const same = findings.filter((f) => f.severity === worst.severity);
  const others = same
    .slice(1, 6)
    .map((f) => f.message)
    .join('\n    ');
  const op = worst.exchange.operationId ? operationById(worst.exchange.operationId) : undefined;
  ctx.check.fail(
    `${worst.message}\n  ${same.length} of ${total} bad writes were answered this way${others ? `; more:\n    ${others}` : ''}`,
    {
      severity: worst.severity,
      exchanges: [worst.exchange],
      ...(op ? { operationId: op.operationId, method: op.method, path: op.path } : {}),
    },
    worst.clause,
  );
}

test(
  ...checkTest(
    {
      check: 'bad-input-rejected',
      title: 'invalid offer writes: never a 5xx (contract); refused with a 4xx, never echo the token (advisory)',
      writes: true,
    },
    async (ctx) => {
      const t = target();
      const cases = listedCases(ctx.runId);
      // Side by side; the findings keep the order of the cases, so the report does not depend on timing.
      const answers = await mapBounded(cases, (c) => send(ctx, c));
      const findings: Finding[] = [];
      for (const [i, x] of answers.entries()) {
        const c = cases[i]!;
        if (x.response.status >= 200 && x.response.status < 300) registerAccepted(ctx, x, c.bad);
        findings.push(...judge(c, x, t.token));
      }
      report(ctx, findings, cases.length);
      // Random cases add to the listed ones; they never stand in for them.
      await checkProperty(
        ctx,
        [caseArb(ctx.runId)],
        async (c) => {
          const x = await send(ctx, c);
          if (x.response.status >= 200 && x.response.status < 300) registerAccepted(ctx, x, c.bad);
          report(ctx, judge(c, x, t.token), 1);
        },
        { numRuns: Math.max(1, t.runs * 2), independentRuns: true },
      );
    },
  ),
);
