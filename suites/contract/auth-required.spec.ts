/**
 * auth-required: every operation requires the bearer token (spec 4, spec 5
 * rule 2). A request without a token and one with a token no deployment issues
 * are both refused with 401 or 403, on all operations of the contract. Path
 * parameters are placeholders tagged with the run id and write bodies are
 * valid, so only the token can explain a refusal.
 *
 * One test per probe (no token, wrong token) over all operations rather than
 * one per operation: Playwright replaces its worker after every failed test,
 * and a server that ignores auth would otherwise fail 125 tests and pay for
 * 125 worker starts. The failure still names every operation that let a
 * request through, and shows the first exchanges with their curl commands.
 */
import { operations, type Operation } from '../../specs/contract.ts';
import type { AuthMode } from '../lib/client.ts';
import type { Exchange } from '../lib/exchange.ts';
import { contractTest, test, is2xx, type ContractContext } from './contract-test.ts';
import { placeholderParams, validLookingBody } from './fixtures.ts';
import { cancelOffer } from './offers.ts';

const REFUSED = new Set([401, 403]);
const PROBES: { auth: AuthMode; label: string; what: string }[] = [
  { auth: 'none', label: 'no token', what: 'no Authorization header' },
  { auth: 'wrong', label: 'wrong token', what: 'a bearer token the deployment never issued' },
];
/** Enough exchanges to show the pattern without burying the report. */
const SHOWN_EXCHANGES = 6;

interface LetThrough {
  op: Operation;
  what: string;
  exchange: Exchange;
}

/**
 * A server that wrongly accepts the probe of a PUT has written a record; undo it
 * through the DELETE of the same path, as a client with the valid token would.
 */
function undoAcceptedUpsert(ctx: ContractContext, op: Operation, params: Record<string, string>): void {
  const del = operations().find((o) => o.method === 'delete' && o.path === op.path);
  if (op.method !== 'put' || !del) return;
  ctx.cleanup.add(`undo ${op.operationId} accepted without a valid token`, () =>
    del.operationId === 'deleteOffer' ? cancelOffer(ctx.api, params.offerId ?? '') : ctx.api.op(del, { params }),
  );
}

/** Requests in flight at once: enough to keep a remote run short, few enough to be polite. */
const IN_FLIGHT = 4;

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/** The probe's answer when the operation let it through, undefined when it was refused. */
async function probe(
  ctx: ContractContext,
  op: Operation,
  auth: AuthMode,
  what: string,
): Promise<LetThrough | undefined> {
  const params = placeholderParams(op, ctx.runId);
  const json = validLookingBody(op, ctx.runId, params);
  const exchange = await ctx.api.op(op, { params, auth, ...(json !== undefined ? { json } : {}) });
  if (REFUSED.has(exchange.response.status)) return undefined;
  if (is2xx(exchange)) undoAcceptedUpsert(ctx, op, params);
  return { op, what, exchange };
}

function describe(l: LetThrough): string {
  return `${l.op.operationId} (${l.op.method.toUpperCase()} ${l.op.path}): ${l.exchange.response.status}`;
}

const all = operations();

for (const { auth, label, what } of PROBES) {
  test(
    ...contractTest(
      { check: 'auth-required', clause: 'spec 5 rule 2', title: `${label} · all ${all.length} operations` },
      async (ctx) => {
        // Hundreds of sequential requests to a remote deployment can outlast the default test timeout.
        ctx.testInfo.setTimeout(Math.max(ctx.testInfo.timeout, 300_000));
        const letThrough = (await mapLimited(all, IN_FLIGHT, (op) => probe(ctx, op, auth, what))).filter(
          (l): l is LetThrough => l !== undefined,
        );
        const first = letThrough[0];
        if (!first) return;
        for (const l of letThrough) ctx.testInfo.annotations.push({ type: 'operation', description: l.op.operationId });
        ctx.check.fail(
          `every request must send the bearer token, and one with ${what} must be refused with 401 or 403 (spec 5 rule 2); ${letThrough.length} of ${all.length} operation(s) answered otherwise:\n    ${letThrough.map(describe).join('\n    ')}`,
          {
            operationId: first.op.operationId,
            method: first.op.method,
            path: first.op.path,
            exchanges: letThrough.slice(0, SHOWN_EXCHANGES).map((l) => l.exchange),
          },
        );
      },
    ),
  );
}
