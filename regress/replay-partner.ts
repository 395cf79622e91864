/**
 * One partner's recorded traffic replayed against the target, in recorded
 * order, read document by document (memory does not grow with the cassette:
 * only counts and the exchanges worth showing are kept). Each request is sent
 * with the target's ids (regress/ids.ts), its answer judged against the
 * recorded one (regress/judge.ts). A run of identical reads (a client polling
 * a batch status) is one poll: sent until the answer matches the last recorded
 * one, then judged by it. After the partner has written, a read whose answer
 * has not settled is asked again until the visibility deadline: how long an
 * asynchronous write takes to show is the server's choice (spec 1).
 */
import { encodeBody, jsonValue } from '../recorder/body.ts';
import type { LocatedExchange, QueryMap, RecordedRequest, RecordedResponse } from '../recorder/cassette-format.ts';
import { fileParts, parseExchange } from '../recorder/cassette-reader.ts';
import { pathEscape } from '../recorder/path-escape.ts';
import { matchOperation, type Operation, operations } from '../specs/contract.ts';
import { toCurl } from '../suites/lib/worker/curl.ts';
import { pollUntil } from '../suites/lib/poll.ts';
import { IdMap, idsIn, mapStrings, stringsIn } from './ids.ts';
import { type Answer, type Finding, judge, SETTLING, verdictOf } from './judge.ts';
import { type OutgoingRequest, type Received, send, urlOf } from './send.ts';
import type { ExchangeReport, OperationCell, PartnerReport } from './types.ts';
import type { Connection } from '../net/types.ts';

export interface ReplayTarget {
  baseUrl: string;
  /** The deployment's own base URL, for curl commands (the embedded mock's is its loopback address). */
  publicBaseUrl: string;
  connection: Connection;
  runId: string;
  writes: boolean;
  writesSkippedReason: string;
  visibilityTimeoutMs: number;
  /** True once the user asked to stop: the partner ends after the request in flight, and its writes are undone. */
  stopped: () => boolean;
  /** False: send only, judge nothing (the benchmark's baseline). */
  judge?: boolean;
}

export interface PartnerCassette {
  partner: string;
  file: string;
}

const MAX_NOTES = 200;
const MAX_SHOWN_BODY = 4000;
const READS = new Set(['GET', 'HEAD']);

/** A path segment's id, or undefined when its percent-encoding is malformed (a client that never encoded it). */
function decodedSegment(seg: string): string | undefined {
  try {
    return decodeURIComponent(seg);
  } catch {
    return undefined;
  }
}

function describe(r: RecordedRequest): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(r.query)) for (const x of [v].flat()) qs.append(k, x);
  const s = qs.toString();
  return `${r.method} ${r.path}${s ? `?${s}` : ''}`;
}

function requestKey(e: LocatedExchange): string {
  return `${describe(e.request)}\n${JSON.stringify(e.request.body?.value ?? null)}`;
}

function bodyValue(body: RecordedResponse['body']): unknown {
  const v = jsonValue(body);
  return v.ok ? v.value : undefined;
}

/** A body as the report shows it: the JSON value, cut to a readable size. */
function shown(v: unknown): unknown {
  if (v === undefined) return undefined;
  const s = JSON.stringify(v);
  return s.length > MAX_SHOWN_BODY ? `${s.slice(0, MAX_SHOWN_BODY)}… (${s.length} characters)` : v;
}

function header(h: Record<string, string | string[]>, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

function templateSegments(op: Operation | undefined): string[] {
  return op ? op.path.split('/') : [];
}

/** Undo steps for what the replay wrote, newest first: DELETE cancels an offer (spec 3 rule 4). */
class Writes {
  private readonly steps = new Map<string, { path: string; what: string }>();
  readonly leftBehind: string[] = [];
  private readonly notes = new Set<string>();

  /** A record written under `path` (the target's id in it); undone by DELETE where the contract has one. */
  wrote(template: string, path: string): void {
    if (this.steps.has(path)) return;
    const del = operations().find((o) => o.method === 'delete' && o.path === template);
    if (del) this.steps.set(path, { path, what: `${template} ${path}` });
    else if (!this.notes.has(template)) {
      this.notes.add(template);
      this.leftBehind.push(`${path}: the contract has no DELETE for ${template}; the record carries the run id`);
    }
  }

  /** A write the contract gives no way to undo (a POST to a collection with no DELETE for its items). */
  cannotUndo(template: string, path: string): void {
    if (this.notes.has(template)) return;
    this.notes.add(template);
    this.leftBehind.push(`${path}: the contract has no DELETE for what POST ${template} creates`);
  }

  async undo(baseUrl: string, connection: Connection): Promise<void> {
    for (const s of [...this.steps.values()].reverse()) {
      try {
        const r = await send(baseUrl, connection, { method: 'DELETE', path: s.path, query: [] });
        if ((r.status < 200 || r.status > 299) && r.status !== 404)
          this.leftBehind.push(`${s.path}: DELETE answered ${r.status}`);
      } catch (e) {
        this.leftBehind.push(`${s.path}: DELETE failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    this.steps.clear();
  }
}

class Cells {
  private readonly cells = new Map<string, OperationCell>();

  add(operation: string, outcome: ExchangeReport['outcome'], n = 1): void {
    let c = this.cells.get(operation);
    if (!c) {
      c = {
        operation,
        exchanges: 0,
        unchanged: 0,
        changed: 0,
        broken: 0,
        blocked: 0,
        notReplayed: 0,
        verdict: 'unchanged',
      };
      this.cells.set(operation, c);
    }
    c.exchanges += n;
    if (outcome === 'not-replayed') c.notReplayed += n;
    else c[outcome] += n;
  }

  list(): OperationCell[] {
    const rank = (c: OperationCell): OperationCell['verdict'] =>
      c.broken ? 'broken' : c.changed ? 'changed' : c.blocked ? 'blocked' : c.unchanged ? 'unchanged' : 'not-replayed';
    return [...this.cells.values()]
      .map((c) => ({ ...c, verdict: rank(c) }))
      .sort((a, b) => a.operation.localeCompare(b.operation));
  }
}

interface Prepared {
  out: OutgoingRequest;
  /** The target's path, for undo steps. */
  path: string;
  template: string | undefined;
  /** Recorded ids the request uses. */
  used: string[];
}

export class PartnerReplay {
  private readonly ids: IdMap;
  private readonly sentIds = new Set<string>();
  private readonly writes = new Writes();
  private readonly cells = new Cells();
  private readonly notes: ExchangeReport[] = [];
  private omitted = 0;
  private exchanges = 0;
  private replayed = 0;
  private notReplayed = 0;
  private blocked = 0;
  private wroteSomething = false;
  private interrupted = false;

  constructor(
    private readonly p: PartnerCassette,
    private readonly t: ReplayTarget,
  ) {
    // Partners may choose the same ids: each one's are tagged apart, so one partner's cleanup never meets another's.
    this.ids = new IdMap(`${t.runId}-${p.partner.replace(/[^A-Za-z0-9_-]+/g, '_')}`);
  }

  async run(): Promise<PartnerReport> {
    try {
      let group: LocatedExchange[] = [];
      let headerSeen = false;
      for (const part of fileParts(this.p.file)) {
        if (part.kind !== 'document' || !part.complete) continue;
        if (!headerSeen) {
          headerSeen = true;
          continue;
        }
        const e = parseExchange(this.p.file, part);
        if (group.length && READS.has(e.request.method) && requestKey(group[0]!) === requestKey(e)) {
          group.push(e);
          continue;
        }
        if (group.length) await this.replayGroup(group);
        group = [e];
        if (this.t.stopped()) {
          this.interrupted = true;
          group = [];
          break;
        }
      }
      if (group.length && !this.t.stopped()) await this.replayGroup(group);
      else if (group.length) this.interrupted = true;
    } finally {
      await this.writes.undo(this.t.baseUrl, this.t.connection);
    }
    return this.report();
  }

  private report(): PartnerReport {
    const operations = this.cells.list();
    const verdict = operations.some((c) => c.broken)
      ? 'broken'
      : operations.some((c) => c.changed)
        ? 'changed'
        : 'unchanged';
    return {
      partner: this.p.partner,
      cassette: this.p.file,
      verdict,
      exchanges: this.exchanges,
      replayed: this.replayed,
      notReplayed: {
        count: this.notReplayed,
        reason: this.notReplayed ? `writes are not replayed: ${this.t.writesSkippedReason}` : undefined,
      },
      blocked: this.blocked,
      operations,
      notes: this.notes,
      omitted: this.omitted,
      leftBehind: this.writes.leftBehind,
      interrupted: this.interrupted ? true : undefined,
    };
  }

  private note(r: ExchangeReport): void {
    if (this.notes.length < MAX_NOTES) this.notes.push(r);
    else this.omitted += 1;
  }

  private origin(e: LocatedExchange, op: Operation | undefined) {
    return { seq: e.seq, line: e.line, operationId: op?.operationId ?? null };
  }

  /** The request with the target's ids: ids the partner chose for a record it creates are tagged with the run id. */
  private prepare(e: LocatedExchange, op: Operation | undefined): Prepared {
    const r = e.request;
    const used: string[] = [];
    const tpl = templateSegments(op);
    const segs = r.path.split('/');
    const creates = r.method === 'PUT' && tpl.length > 0 && /^\{\w+\}$/.test(tpl.at(-1) ?? '');
    const path = segs
      .map((seg, i) => {
        if (!/^\{\w+\}$/.test(tpl[i] ?? '')) return seg;
        const decoded = decodedSegment(seg);
        const id = decoded ?? seg;
        used.push(id);
        const now = creates && i === segs.length - 1 && !this.ids.known(id) ? this.ids.tag(id) : this.ids.forward(id);
        // An id that is not mapped goes out as the partner encoded it; one with a bare % was never encoded by the
        // partner, so the target's id goes out unencoded too.
        if (now === id) return seg;
        return decoded === undefined ? now : encodeURIComponent(now);
      })
      .join('/');
    const query: [string, string][] = [];
    for (const [k, v] of Object.entries(r.query as QueryMap))
      for (const x of [v].flat()) {
        used.push(x);
        query.push([k, this.ids.forward(x)]);
      }
    let body: string | undefined;
    const json = jsonValue(r.body);
    if (json.ok) {
      let value = json.value;
      used.push(...stringsIn(value));
      // The items of a bulk write carry the ids the partner chose (spec 2.3).
      if (r.method === 'POST' && op?.path.endsWith('/bulk') && Array.isArray(value))
        value = value.map((item) =>
          item && typeof item === 'object' && typeof (item as { id?: unknown }).id === 'string'
            ? {
                ...item,
                id: this.ids.known((item as { id: string }).id)
                  ? (item as { id: string }).id
                  : this.ids.tag((item as { id: string }).id),
              }
            : item,
        );
      body = JSON.stringify(mapStrings(value, (s) => this.ids.forward(s)));
    } else if (r.body) {
      body =
        r.body.encoding === 'base64'
          ? Buffer.from(String(r.body.value), 'base64').toString('latin1')
          : String(r.body.value);
    }
    const ct = header(r.headers, 'content-type');
    return {
      out: {
        method: r.method,
        path,
        query,
        body,
        contentType: ct || undefined,
      },
      path,
      template: op?.path,
      used,
    };
  }

  private remember(e: LocatedExchange, prepared: Prepared): void {
    for (const s of prepared.used) this.sentIds.add(s);
    const json = jsonValue(e.request.body);
    if (json.ok) for (const x of idsIn(json.value)) this.sentIds.add(x.value);
  }

  /** Undo steps for a write the target accepted. */
  private registerWrite(e: LocatedExchange, op: Operation | undefined, prepared: Prepared, body: unknown): void {
    if (!op) return;
    // A PUT is undone by the contract's DELETE on the same path: a record removed (an offer cancelled), a forced
    // billing-group status removed (spec 3 rule 2).
    if (e.request.method === 'PUT') this.writes.wrote(op.path, prepared.path);
    if (op.operationId === 'bulkUpdateBillingGroupStatus' && prepared.out.body) {
      const items: unknown = JSON.parse(prepared.out.body);
      if (Array.isArray(items))
        for (const it of items) {
          const id = it && typeof it === 'object' ? (it as { billingGroupId?: unknown }).billingGroupId : undefined;
          if (typeof id === 'string')
            this.writes.wrote(
              '/billingGroups/{billingGroupId}/status',
              `/billingGroups/${encodeURIComponent(id)}/status`,
            );
        }
      return;
    }
    if (e.request.method === 'POST') {
      let undoable = false;
      const item = `${op.path}/{id}`;
      const single = operations().find((o) => o.method === 'delete' && o.path.replace(/\{\w+\}$/, '{id}') === item);
      const id = body && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
      if (single && typeof id === 'string') {
        undoable = true;
        this.writes.wrote(single.path, `${op.path}/${encodeURIComponent(id)}`);
      }
      if (op.path.endsWith('/bulk') && prepared.out.body) {
        const parent = op.path.slice(0, -'/bulk'.length);
        const del = operations().find(
          (o) => o.method === 'delete' && o.path.replace(/\{\w+\}$/, '{id}') === `${parent}/{id}`,
        );
        const items: unknown = JSON.parse(prepared.out.body);
        undoable ||= del !== undefined;
        if (del && Array.isArray(items))
          for (const it of items) {
            const itemId = it && typeof it === 'object' ? (it as { id?: unknown }).id : undefined;
            if (typeof itemId === 'string') this.writes.wrote(del.path, `${parent}/${encodeURIComponent(itemId)}`);
          }
      }
      if (!undoable) this.writes.cannotUndo(op.path, prepared.path);
    }
  }

  private async replayGroup(group: LocatedExchange[]): Promise<void> {
    const last = group.at(-1)!;
    const first = group[0]!;
    const op = matchOperation(first.request.method, first.request.path);
    const opName = op?.operationId ?? `${first.request.method} ${first.request.path}`;
    const n = group.length;
    this.exchanges += n;
    const base: Omit<ExchangeReport, 'outcome' | 'findings'> = {
      cassette: this.p.file,
      line: last.line,
      seq: last.seq,
      operationId: op?.operationId ?? null,
      request: describe(first.request),
    };
    const isRead = READS.has(first.request.method);
    if (!isRead && !this.t.writes) {
      this.notReplayed += n;
      this.cells.add(opName, 'not-replayed', n);
      this.ids.notSent(
        bodyValue(last.response.body),
        this.origin(last, op),
        'it was not replayed (a write)',
        this.sentIds,
      );
      return;
    }
    const prepared = this.prepare(first, op);
    // The recorded path passed the reader's rule; an id the target answered, put into it, could still lead out.
    const way = pathEscape(prepared.out.path);
    if (way) {
      this.blocked += n;
      this.cells.add(opName, 'blocked', n);
      this.note({
        ...base,
        outcome: 'blocked',
        findings: [],
        reason: `not sent: with the target's ids its path would leave the base path (${way})`,
      });
      return;
    }
    const missing = prepared.used.map((s) => this.ids.missing(s)).find((m) => m !== undefined);
    if (missing) {
      this.blocked += n;
      this.cells.add(opName, 'blocked', n);
      const by = missing.origin;
      this.note({
        ...base,
        outcome: 'blocked',
        findings: [],
        reason: `needs an id that line ${by.line} (${by.operationId ?? 'no operation'}) should have given: ${missing.why}`,
        blockedBy: { line: by.line, seq: by.seq, operationId: by.operationId },
      });
      this.ids.notSent(
        bodyValue(last.response.body),
        this.origin(last, op),
        `it was blocked (line ${by.line})`,
        this.sentIds,
      );
      return;
    }
    this.remember(first, prepared);
    const recorded: Answer = { status: last.response.status, body: bodyValue(last.response.body) };
    const judging = this.t.judge !== false;
    let sent = 0;
    const attempt = async () => {
      sent += 1;
      const got = await send(this.t.baseUrl, this.t.connection, prepared.out);
      return { got, findings: judging ? this.judge(last, op, prepared, recorded, got) : [] };
    };
    let result = await attempt();
    // A run of polls: asked as often as the partner asked, until the answer matches the last recorded one.
    while (isRead && sent < n && result.findings.length > 0) result = await attempt();
    const settling = (f: Finding[]) => f.some((x) => SETTLING.has(x.kind));
    if (isRead && judging && settling(result.findings) && (this.wroteSomething || n > 1)) {
      const polled = await pollUntil(attempt, (r) => !settling(r.findings), {
        timeoutMs: this.t.visibilityTimeoutMs,
        intervalMs: 100,
      });
      result = polled.value;
    }
    this.replayed += n;
    const { got } = result;
    const newBody = parsedBody(got);
    if (!isRead && got.status >= 200 && got.status < 300) {
      this.wroteSomething = true;
      this.registerWrite(first, op, prepared, newBody);
    }
    const formatChanges = this.ids.commit(
      this.ids.pair(recorded.body, newBody, got.status >= 200 && got.status < 300, this.sentIds),
      this.origin(last, op),
    );
    const findings: Finding[] = [
      ...result.findings,
      ...(judging
        ? formatChanges.map(
            (c): Finding => ({
              verdict: 'changed',
              kind: 'id-format',
              pointer: c.pointer,
              recorded: c.recorded,
              now: c.now,
            }),
          )
        : []),
    ];
    const verdict = verdictOf(findings);
    this.cells.add(opName, verdict, n);
    if (verdict === 'unchanged') return;
    this.note({
      ...base,
      outcome: verdict,
      findings,
      recorded: { status: recorded.status, body: recorded.body !== undefined ? shown(recorded.body) : undefined },
      now: { status: got.status, body: newBody !== undefined ? shown(newBody) : undefined },
      curl: toCurl({
        method: prepared.out.method,
        url: urlOf(this.t.publicBaseUrl, prepared.out),
        headers: {
          Authorization: 'Bearer [REDACTED]',
          ...(prepared.out.body !== undefined
            ? { 'Content-Type': prepared.out.contentType ?? 'application/json' }
            : {}),
        },
        ...(prepared.out.body !== undefined ? { body: prepared.out.body } : {}),
      }),
      sent,
    });
  }

  private judge(
    e: LocatedExchange,
    op: Operation | undefined,
    prepared: Prepared,
    recorded: Answer,
    got: Received,
  ): Finding[] {
    const ct = header(got.headers, 'content-type');
    const response: RecordedResponse = {
      status: got.status,
      headers: got.headers,
      body: encodeBody(got.bytes, ct),
      timing: { durationMs: 0, firstByteMs: 0 },
    };
    const request: RecordedRequest = { ...e.request, path: prepared.path };
    const raw = bodyValue(response.body);
    const back = this.ids.backwardWith(
      raw === undefined ? undefined : this.ids.pair(recorded.body, raw, true, this.sentIds),
    );
    const now: Answer = { status: got.status, body: raw === undefined ? undefined : mapStrings(raw, back) };
    const recordedClean =
      !e.violations.some((v) => v.direction === 'response') && (e.response.body?.encoding ?? 'json') === 'json';
    return judge({ operation: op, recorded, response, request, now, recordedClean });
  }
}

function parsedBody(got: Received): unknown {
  if (got.bytes.length === 0) return undefined;
  try {
    return JSON.parse(got.bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
