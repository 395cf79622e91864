/**
 * auth-required: every operation requires the bearer token (spec 4, spec 5
 * rule 2). A request without a token and one with a token no deployment issues
 * are both refused, on all operations of the contract: any 4xx is a refusal
 * (401 and 403 are usual, but spec 7 shows no error codes). Path
 * parameters are placeholders tagged with the run id and write bodies are
 * valid, so only the token can explain a refusal.
 *
 * Besides no token and an unrelated one, near misses of the real token (one
 * character changed, the last dropped, one added, the case changed) catch a
 * sloppy comparison; they are redacted from every report like the token.
 * Read operations and write-method operations are probed in separate tests:
 * on a read-only target the write-method probes are skipped (no request with
 * a write method may be sent there), saying so.
 *
 * One test per probe and kind over all operations rather than one per operation:
 * Playwright replaces its worker after every failed test,
 * and a server that ignores auth would otherwise fail 125 tests and pay for
 * 125 worker starts. The failure still names every operation that let a
 * request through, and shows the first exchanges with their curl commands.
 */
import { operations, type Operation } from '../../specs/contract.ts';
import type { AuthMode } from '../lib/client.ts';
import { Check } from '../lib/check.ts';
import type { Exchange } from '../lib/exchange.ts';
import { contractTest, test, is2xx, skipTest, type ContractContext } from './contract-test.ts';
import { placeholderParams, validLookingBody } from './fixtures.ts';
import { NEAR_MISS_LABELS, nearMissTokens } from './near-miss-tokens.ts';
import { cancelOffer } from './offers.ts';

/** Spec 7 shows no error status codes: any 4xx refuses; a 2xx lets the request through, a 5xx is no answer. */
const refused = (status: number): boolean => status >= 400 && status < 500;

interface Probe {
  auth: AuthMode;
  label: string;
  what: string;
  /** The wrong token to send, when it is not the client's fixed WRONG_TOKEN. */
  bearer?: string;
}

const FIXED_PROBES: Probe[] = [
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
async function probe(ctx: ContractContext, op: Operation, p: Probe): Promise<LetThrough | undefined> {
  const params = placeholderParams(op, ctx.runId);
  const json = validLookingBody(op, ctx.runId, params);
  const exchange = await ctx.api.op(op, {
    params,
    auth: p.auth,
    ...(p.bearer !== undefined ? { bearer: p.bearer } : {}),
    ...(json !== undefined ? { json } : {}),
  });
  if (refused(exchange.response.status)) return undefined;
  if (is2xx(exchange)) undoAcceptedUpsert(ctx, op, params);
  return { op, what: p.what, exchange };
}

function describe(l: LetThrough): string {
  return `${l.op.operationId} (${l.op.method.toUpperCase()} ${l.op.path}): ${l.exchange.response.status}`;
}

/** The probes of one run: no token, an unrelated token, and near misses of the real token. */
function probeFor(label: string, token: string): Probe | undefined {
  const fixed = FIXED_PROBES.find((p) => p.label === label);
  if (fixed) return fixed;
  const near = nearMissTokens(token).find((n) => n.label === label);
  return near ? { auth: 'wrong', label, what: near.what, bearer: near.token } : undefined;
}

const all = operations();
/** Write methods are probed apart: on a read-only target no request with a write method may be sent at all. */
const groups = [
  { kind: 'read', ops: all.filter((o) => o.method === 'get'), writes: false },
  { kind: 'write-method', ops: all.filter((o) => o.method !== 'get'), writes: true },
] as const;

for (const label of [...FIXED_PROBES.map((p) => p.label), ...NEAR_MISS_LABELS]) {
  for (const { kind, ops, writes } of groups) {
    test(
      ...contractTest(
        {
          check: 'auth-required',
          clause: 'spec 5 rule 2',
          title: `${label} · ${ops.length} ${kind} operations`,
        },
        async (ctx) => {
          const t = ctx.api.target;
          if (writes && !t.allowWrites) {
            const reason = `${t.writesSkippedReason}: no request with a write method may be sent to a read-only target, so the auth probes of the ${ops.length} write-method operations are not sent`;
            ctx.testInfo.annotations.push({ type: 'skipped-because', description: reason });
            skipTest(ctx, reason);
          }
          const token = t.token;
          const p = probeFor(label, token);
          if (!p)
            skipTest(ctx, `the token has no ${label} variant that differs from it (e.g. no letters to change case)`);
          // Hundreds of sequential requests to a remote deployment can outlast the default test timeout.
          ctx.testInfo.setTimeout(Math.max(ctx.testInfo.timeout, 300_000));
          const letThrough = (await mapLimited(ops, IN_FLIGHT, (op) => probe(ctx, op, p))).filter(
            (l): l is LetThrough => l !== undefined,
          );
          const first = letThrough[0];
          if (!first) return;
          for (const l of letThrough)
            ctx.testInfo.annotations.push({ type: 'operation', description: l.op.operationId });
          // The near misses are as secret as the token: a report must not show them either.
          const check = new Check(ctx.check.meta, [token, ...nearMissTokens(token).map((n) => n.token)]);
          check.fail(
            `every request must send the bearer token, and one with ${p.what} must be refused with a 4xx (spec 5 rule 2); ${letThrough.length} of ${ops.length} ${kind} operation(s) answered otherwise:\n    ${letThrough.map(describe).join('\n    ')}`,
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
}
