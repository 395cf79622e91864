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
import type { LocatedExchange, RecordedRequest, RecordedResponse } from '../recorder/cassette-format.ts';
import { fileParts, parseExchange } from '../recorder/cassette-reader.ts';
import { pathEscape } from '../recorder/path-escape.ts';
import { matchOperation, type Operation } from '../specs/contract.ts';
import { toCurl } from '../core/curl.ts';
import { pollUntil } from '../core/poll.ts';
import { IdMap, idsIn, mapStrings } from './ids.ts';
import { type Answer, type Finding, judge, SETTLING, verdictOf } from './judge.ts';
import { Cells } from './replay-cells.ts';
import { bodyValue, describe, header, type Prepared, prepareRequest, requestKey } from './replay-request.ts';
import { registerWrite, Writes } from './replay-writes.ts';
import { type Received, send, urlOf } from './send.ts';
import type { ExchangeReport, PartnerReport } from './types.ts';
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

/** A body as the report shows it: the JSON value, cut to a readable size. */
function shown(v: unknown): unknown {
  if (v === undefined) return undefined;
  const s = JSON.stringify(v);
  return s.length > MAX_SHOWN_BODY ? `${s.slice(0, MAX_SHOWN_BODY)}… (${s.length} characters)` : v;
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

  private remember(e: LocatedExchange, prepared: Prepared): void {
    for (const s of prepared.used) this.sentIds.add(s);
    const json = jsonValue(e.request.body);
    if (json.ok) for (const x of idsIn(json.value)) this.sentIds.add(x.value);
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
    const prepared = prepareRequest(first, op, this.ids);
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
      registerWrite(this.writes, first, op, prepared, newBody);
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
