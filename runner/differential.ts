/**
 * Differential runs (`flis diff`): the same requests, generated from one seed,
 * sent to two deployments, answers paired per operation for
 * reporting/shape-diff.ts. Reads everywhere: every parameterless GET, the
 * documented filters with generated values, and unknown ids (both should
 * refuse). Writes only when both deployments allow them: generated offers
 * upserted under run-tagged ids, read back once visible, then cancelled.
 */
import fc from 'fast-check';
import { type Dispatcher, request } from 'undici';
import type { TokenSource } from '../net/types.ts';
import { fillPath, operationById, operations, type Operation } from '../specs/contract.ts';
import { dateTimeArb } from '../suites/generators/date-time.ts';
import { offerWriteBodyArb } from '../suites/generators/offer-write-body.ts';
import type { ObservedAnswer, PairedAnswers } from '../reporting/shape-diff.ts';
import { pollUntil } from '../core/poll.ts';
import { narrowedListQuery, wholeListQuery } from '../core/whole-list.ts';

export interface DiffTarget {
  name: string;
  baseUrl: string;
  /** The deployment's connection (net/connection.ts): its dispatcher and the token source of the run. */
  connection: { dispatcher: Dispatcher; tokens: TokenSource };
}

interface Input {
  op: Operation;
  params?: Record<string, string> | undefined;
  query?: Record<string, string>;
  json?: unknown;
  /** Poll until a 2xx (an asynchronous write becoming visible), up to the visibility deadline. */
  awaitVisible?: boolean;
}

export interface DiffOptions {
  seed: number;
  runs: number;
  runId: string;
  writes: boolean;
  visibilityTimeoutMs: number;
}

function sample<T>(arb: fc.Arbitrary<T>, seed: number, n: number): T[] {
  return fc.sample(arb, { seed, numRuns: n });
}

/** The requests to send, the same list for both deployments. */
export function diffInputs(o: DiffOptions): Input[] {
  const out: Input[] = [];
  // A list goes with its documented window (core/whole-list.ts): a deployment may refuse it without one.
  for (const op of operations().filter((x) => x.method === 'get' && x.pathParams.length === 0)) {
    const query = wholeListQuery(op.operationId);
    out.push(Object.keys(query).length > 0 ? { op, query } : { op });
  }
  for (const [start, end] of sample(fc.tuple(dateTimeArb(), dateTimeArb()), o.seed, o.runs))
    out.push({
      op: operationById('listOffers'),
      query: { start: start < end ? start : end, end: start < end ? end : start },
    });
  for (const [limit, page] of sample(
    fc.tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 4 })),
    o.seed,
    o.runs,
  ))
    out.push({
      op: operationById('listInvoices'),
      query: narrowedListQuery('listInvoices', { limit: String(limit), page: String(page) }),
    });
  out.push({
    op: operationById('listBillingGroups'),
    query: narrowedListQuery('listBillingGroups', { inactive: 'false' }),
  });
  for (const op of operations().filter((x) => x.method === 'get' && x.pathParams.length > 0)) {
    out.push({ op, params: Object.fromEntries(op.pathParams.map((p) => [p, `${o.runId}-unknown-${p}`])) });
  }
  if (o.writes) {
    sample(offerWriteBodyArb(o.runId, { cancel: false }), o.seed, o.runs).forEach((body, i) => {
      const offerId = `${o.runId}-diff-offer-${i}`;
      out.push({ op: operationById('upsertOffer'), params: { offerId }, json: body });
      out.push({ op: operationById('getOffer'), params: { offerId }, awaitVisible: true });
    });
  }
  return out;
}

function describeInput(i: Input): string {
  const q = i.query ? `?${new URLSearchParams(i.query).toString()}` : '';
  return `${i.op.method.toUpperCase()} ${fillPath(i.op.path, i.params ?? {})}${q}`;
}

/** RFC 6750 3.1: the token expired or was revoked, which a refresh may cure. */
function invalidToken(status: number, headers: Record<string, string | string[] | undefined>): boolean {
  const challenge = [headers['www-authenticate'] ?? ''].flat().join(', ');
  return status === 401 && /\bBearer\b[\s\S]*\berror\s*=\s*"?invalid_token\b/i.test(challenge);
}

/** One request with the current token; a 401 invalid_token is refreshed once and sent again (a token's expiry is the deployment's right). */
async function sendOnce(t: DiffTarget, i: Input): Promise<ObservedAnswer> {
  const url = new URL(t.baseUrl + fillPath(i.op.path, i.params ?? {}));
  for (const [k, v] of Object.entries(i.query ?? {})) url.searchParams.set(k, v);
  const send = async (token: string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (i.json !== undefined) headers['content-type'] = 'application/json';
    return request(url, {
      method: i.op.method.toUpperCase() as Dispatcher.HttpMethod,
      headers,
      dispatcher: t.connection.dispatcher,
      ...(i.json !== undefined ? { body: JSON.stringify(i.json) } : {}),
    });
  };
  const token = await t.connection.tokens.current();
  let res = await send(token);
  if (invalidToken(res.statusCode, res.headers)) {
    await res.body.dump();
    res = await send(await t.connection.tokens.refresh(`401 invalid_token (flis diff, ${t.name})`, token));
  }
  const text = await res.body.text();
  let body: unknown;
  try {
    body = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, ...(body !== undefined ? { body } : {}) };
}

async function send(t: DiffTarget, i: Input, visibilityTimeoutMs: number): Promise<ObservedAnswer> {
  if (!i.awaitVisible) return sendOnce(t, i);
  const r = await pollUntil(
    () => sendOnce(t, i),
    (a) => a.status >= 200 && a.status < 300,
    { timeoutMs: visibilityTimeoutMs, intervalMs: 100 },
  );
  return r.value;
}

/** Cancels the offers the writes created (DELETE cancels, spec 3 rule 4); failures are reported, never thrown. */
async function cleanup(t: DiffTarget, inputs: Input[]): Promise<string[]> {
  const left: string[] = [];
  for (const i of inputs.filter((x) => x.op.operationId === 'upsertOffer')) {
    const a = await sendOnce(t, { op: operationById('deleteOffer'), params: i.params }).catch(() => ({ status: 0 }));
    if (a.status < 200 || a.status > 299)
      left.push(`${t.name}: offer ${i.params?.offerId} (DELETE answered ${a.status})`);
  }
  return left;
}

export async function runDifferential(
  a: DiffTarget,
  b: DiffTarget,
  o: DiffOptions,
): Promise<{ pairs: PairedAnswers[]; leftBehind: string[] }> {
  const inputs = diffInputs(o);
  const pairs: PairedAnswers[] = [];
  let leftBehind: string[] = [];
  try {
    for (const i of inputs) {
      const [x, y] = await Promise.all([send(a, i, o.visibilityTimeoutMs), send(b, i, o.visibilityTimeoutMs)]);
      pairs.push({ operationId: i.op.operationId, request: describeInput(i), a: x, b: y });
    }
  } finally {
    if (o.writes) leftBehind = [...(await cleanup(a, inputs)), ...(await cleanup(b, inputs))];
  }
  return { pairs, leftBehind };
}
