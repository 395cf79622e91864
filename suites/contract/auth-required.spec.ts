/**
 * auth-required: every operation requires the bearer token (spec 4, spec 5
 * rule 2). A request without a token and one with a token no deployment issues
 * are both refused with 401 or 403, on all operations of the contract. Path
 * parameters are placeholders tagged with the run id and write bodies are
 * valid, so only the token can explain a refusal.
 */
import { operations, type Operation } from '../../specs/contract.ts';
import type { AuthMode } from '../lib/client.ts';
import { contractTest, is2xx, type ContractContext } from './contract-test.ts';
import { placeholderParams, validLookingBody } from './fixtures.ts';
import { cancelOffer } from './offers.ts';

const REFUSED = new Set([401, 403]);
const PROBES: { auth: AuthMode; what: string }[] = [
  { auth: 'none', what: 'no Authorization header' },
  { auth: 'wrong', what: 'a bearer token the deployment never issued' },
];

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

for (const op of operations()) {
  contractTest({ check: 'auth-required', clause: 'spec 5 rule 2', operation: op }, async (ctx) => {
    const params = placeholderParams(op, ctx.runId);
    const json = validLookingBody(op, ctx.runId, params);
    for (const probe of PROBES) {
      const x = await ctx.api.op(op, { params, auth: probe.auth, ...(json !== undefined ? { json } : {}) });
      if (REFUSED.has(x.response.status)) continue;
      if (is2xx(x)) undoAcceptedUpsert(ctx, op, params);
      ctx.check.fail(`a request with ${probe.what} must be refused with 401 or 403 (spec 5 rule 2: every request sends the bearer token); got ${x.response.status}`, { exchanges: [x] });
    }
  });
}
