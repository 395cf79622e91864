/**
 * auth-required: every operation requires the bearer token (spec 4, spec 5
 * rule 2). A refusal proves something only where the same request with the
 * valid token is served: a 404 without a token for a record that does not
 * exist is no proof that the token was checked. So each operation is first given
 * a request the valid token is served (a 2xx: a list, or a record the run wrote
 * or found, suites/contract/served-requests.ts), and exactly that request is
 * resent with no token, with a token no deployment issues, and with near misses
 * of the real token (one character changed, the last dropped, one added, the
 * case changed), which catch a sloppy comparison. Each must be refused: any 4xx
 * is a refusal (spec 7 shows no error codes). A DELETE is probed before the
 * valid request, which then shows that the record was there to remove.
 *
 * An operation for which no served request can be had (nothing listed to read,
 * a write refused with the valid token, a record the run may not change) is NOT
 * JUDGED: annotated `not-judged` with the reason, never counted as refused. Its
 * probes still go to placeholder ids: a 2xx without a valid token is a failure
 * wherever it happens.
 *
 * One test per kind (reads; write methods, which a read-only target never gets)
 * rather than one per operation: Playwright replaces its worker after every failed
 * test, and a server that ignores auth would pay for 125 worker starts. The
 * operations are judged side by side (suites/lib/parallel.ts). The near misses are
 * as secret as the token: every report redacts them.
 */
import { operations, type Operation } from '../../specs/contract.ts';
import {
  type AuthMode,
  type CallOptions,
  type Exchange,
  is2xx,
  checkTest,
  test,
  type CheckContext,
  skip,
  nearMissTokens,
  Check,
  mapBounded,
  placeholderParams,
  validLookingBody,
} from '../lib/index.ts';
import { catalogueBody, deleteCreatedLater, deleteLater } from './catalogue-writes.ts';
import { SharedRecords, prepareServed } from './served-requests.ts';

/** Spec 7 shows no error status codes: any 4xx refuses; a 2xx lets the request through, a 5xx is no answer. */
const refused = (status: number): boolean => status >= 400 && status < 500;

interface Probe {
  auth: AuthMode;
  label: string;
  /** The wrong token to send, when it is not the client's fixed WRONG_TOKEN. */
  bearer?: string;
}

/** No token, an unrelated token, and the near misses of the real one that differ from it. */
function probesFor(token: string): Probe[] {
  return [
    { auth: 'none', label: 'no token' },
    { auth: 'wrong', label: 'wrong token' },
    ...nearMissTokens(token).map((n): Probe => ({ auth: 'wrong', label: n.label, bearer: n.token })),
  ];
}

/** Enough exchanges to show the pattern without burying the report. */
const SHOWN_EXCHANGES = 6;

interface Verdict {
  op: Operation;
  /** Probes answered otherwise than with a 4xx, with their answers. */
  letThrough: { probe: Probe; exchange: Exchange }[];
  notJudged?: string;
}

async function send(ctx: CheckContext, op: Operation, call: CallOptions, probe?: Probe): Promise<Exchange> {
  return ctx.api.op(op, {
    ...call,
    ...(probe ? { auth: probe.auth, ...(probe.bearer !== undefined ? { bearer: probe.bearer } : {}) } : {}),
  });
}

/** The probes of one request; what each was answered when it was not refused, in the order of the probes. */
async function probeAll(
  ctx: CheckContext,
  op: Operation,
  call: CallOptions,
  probes: Probe[],
  created: ((x: Exchange) => void) | undefined,
): Promise<Verdict['letThrough']> {
  // Side by side: each probe is the same request, and none depends on another's answer. mapBounded lets the probes
  // already sent settle before a skip (an unanswered probe) ends the test.
  const answers = await mapBounded(probes, (probe) => send(ctx, op, call, probe), probes.length);
  const letThrough: Verdict['letThrough'] = [];
  for (const [i, x] of answers.entries()) {
    if (refused(x.response.status)) continue;
    if (is2xx(x)) created?.(x);
    letThrough.push({ probe: probes[i] as Probe, exchange: x });
  }
  return letThrough;
}

/**
 * With no request the valid token is served, the probes still go to placeholder ids (records that do not exist):
 * a refusal there proves nothing, but a 2xx without the token is a failure wherever it happens.
 */
async function probeUnserved(ctx: CheckContext, op: Operation, probes: Probe[], why: string): Promise<Verdict> {
  const params = placeholderParams(op, ctx.runId);
  const json = op.documented ? validLookingBody(op, ctx.runId, params) : catalogueBody(op, ctx.runId);
  const call: CallOptions = { params, ...(json !== undefined ? { json } : {}) };
  const undo = (x: Exchange) => undoAccepted(ctx, op, params, json, x);
  const letThrough = (await probeAll(ctx, op, call, probes, undo)).filter((l) => is2xx(l.exchange));
  return { op, letThrough, notJudged: `${why} (probed on placeholder ids, where only a 2xx proves anything)` };
}

/** A probe wrongly accepted on placeholder ids may have written a record: undo it as a client with the token would. */
function undoAccepted(
  ctx: CheckContext,
  op: Operation,
  params: Record<string, string>,
  json: unknown,
  x: Exchange,
): void {
  if (op.path.startsWith('/offers')) {
    const ackId = (x.response.body as { id?: unknown } | undefined)?.id;
    const bulkIds = Array.isArray(json) ? json.map((i) => (i as { id?: unknown }).id) : [];
    const ids = [params.offerId, ackId, ...bulkIds].filter((v): v is string => typeof v === 'string');
    for (const id of ids) ctx.cleanup.offer(id, { awaitVisible: true });
  } else if (params.billingGroupId !== undefined || op.path.startsWith('/billingGroups')) return;
  else if (op.method === 'put') deleteLater(ctx, op.path, params);
  else if (op.method === 'post') deleteCreatedLater(ctx, op, json, x);
}

/** The valid request, then the probes (for a DELETE the probes first); what was let through, or why nothing is judged. */
async function judge(ctx: CheckContext, op: Operation, probes: Probe[], shared: SharedRecords): Promise<Verdict> {
  const prepared = await prepareServed(ctx, op, shared);
  if ('notJudged' in prepared) return probeUnserved(ctx, op, probes, prepared.notJudged);
  const { call, destructive, created } = prepared.served;
  const valid = async (): Promise<Exchange> => {
    const x = await send(ctx, op, call);
    if (is2xx(x)) created?.(x);
    return x;
  };
  const first = destructive ? undefined : await valid();
  if (first && !is2xx(first))
    return {
      op,
      letThrough: [],
      notJudged: `the valid token was not served either: it answered ${first.response.status}`,
    };
  const letThrough = await probeAll(ctx, op, call, probes, created);
  const last = destructive ? await valid() : first;
  // A 2xx without the valid token is a failure wherever it happens; anything else counts only where the token is served.
  if (last && !is2xx(last) && !letThrough.some((l) => is2xx(l.exchange)))
    return {
      op,
      letThrough: [],
      notJudged: `the valid token was not served either: it answered ${last.response.status} after the probes`,
    };
  return { op, letThrough };
}

function describe(v: Verdict): string {
  const answers = v.letThrough.map((l) => `${l.probe.label} → ${l.exchange.response.status}`).join(', ');
  return `${v.op.operationId} (${v.op.method.toUpperCase()} ${v.op.path}): ${answers}`;
}

const all = operations();
/** Write methods are probed apart: on a read-only target no request with a write method may be sent at all. */
const groups = [
  { kind: 'read', ops: all.filter((o) => o.method === 'get'), writes: false },
  { kind: 'write-method', ops: all.filter((o) => o.method !== 'get'), writes: true },
] as const;

for (const { kind, ops, writes } of groups) {
  test(
    ...checkTest(
      {
        check: 'auth-required',
        title: `${ops.length} ${kind} operations, each on a request the valid token is served: refused without it`,
      },
      async (ctx) => {
        const t = ctx.api.target;
        if (writes && !t.allowWrites) {
          const reason = `${t.writesSkippedReason}: no request with a write method may be sent to a read-only target, so the auth probes of the ${ops.length} write-method operations are not sent`;
          ctx.testInfo.annotations.push({ type: 'skipped-because', description: reason });
          skip.nothingToJudge(ctx, reason);
        }
        const probes = probesFor(t.token);
        const shared = new SharedRecords(ctx.runId);
        const verdicts = await mapBounded(ops, (op) => judge(ctx, op, probes, shared));
        for (const v of verdicts)
          if (v.notJudged)
            ctx.testInfo.annotations.push({ type: 'not-judged', description: `${v.op.operationId}: ${v.notJudged}` });
        const failed = verdicts.filter((v) => v.letThrough.length > 0);
        const judged = verdicts.filter((v) => !v.notJudged).length;
        ctx.testInfo.annotations.push({
          type: 'note',
          description: `${judged} of ${ops.length} ${kind} operations judged; ${ops.length - judged} not judged (no request the valid token is served; see not-judged)`,
        });
        const first = failed[0];
        if (!first) return;
        for (const v of failed) ctx.testInfo.annotations.push({ type: 'operation', description: v.op.operationId });
        // The near misses are as secret as the token: a report must not show them either.
        const check = new Check(ctx.check.meta, [t.token, ...nearMissTokens(t.token).map((n) => n.token)]);
        check.fail(
          `every request must send the bearer token (spec 5 rule 2): the same request that the valid token is served must be refused with a 4xx without it; ${failed.length} of ${judged} judged ${kind} operation(s) answered a probe otherwise:\n    ${failed.map(describe).join('\n    ')}`,
          {
            operationId: first.op.operationId,
            method: first.op.method,
            path: first.op.path,
            exchanges: failed.flatMap((v) => v.letThrough.map((l) => l.exchange)).slice(0, SHOWN_EXCHANGES),
          },
        );
      },
    ),
  );
}
