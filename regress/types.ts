/**
 * What `flis regress` reports, per exchange, per partner and operation, and for the run (regress.json). Written with
 * JSON.stringify only, which leaves an undefined key out: an optional field may be given undefined.
 */
import type { Finding, Verdict } from './judge.ts';

export type ExchangeOutcome = Verdict | 'blocked' | 'not-replayed';

/** One recorded exchange (or a run of identical polls, judged by its last answer) and what became of it. */
export interface ExchangeReport {
  /** The cassette and the line where the exchange starts (of the last poll, for a run of polls). */
  cassette: string;
  line: number;
  seq: number;
  operationId: string | null;
  /** "GET /offers/abc" as recorded. */
  request: string;
  outcome: ExchangeOutcome;
  findings: Finding[];
  /** Why it was blocked or not replayed. */
  reason?: string | undefined;
  /** The exchange whose answer should have given the id this one needed. */
  blockedBy?: { line: number; seq: number; operationId: string | null };
  recorded?: { status: number; body?: unknown } | undefined;
  now?: { status: number; body?: unknown } | undefined;
  /** Reproduces the request sent to the target; the token is read from $FLIS_TOKEN. */
  curl?: string;
  /** How many times it was sent (a run of polls, or a read polled while a write showed). */
  sent?: number;
}

export interface OperationCell {
  /** The operationId, or "METHOD path" for a request that is no operation of the contract. */
  operation: string;
  exchanges: number;
  unchanged: number;
  changed: number;
  broken: number;
  blocked: number;
  notReplayed: number;
  verdict: ExchangeOutcome;
}

export interface PartnerReport {
  partner: string;
  cassette: string;
  verdict: Verdict;
  exchanges: number;
  replayed: number;
  notReplayed: { count: number; reason?: string | undefined };
  blocked: number;
  operations: OperationCell[];
  /** The broken, changed and blocked exchanges (capped; `omitted` says how many more). */
  notes: ExchangeReport[];
  omitted: number;
  /** Writes the cleanup could not undo, one line each. */
  leftBehind: string[];
  interrupted?: true | undefined;
}

export interface RegressReport {
  tool: 'flis regress';
  runId: string;
  target: { deployment: string; baseUrl: string; writes: boolean; writesSkippedReason?: string | undefined };
  shard?: string | undefined;
  startedAt: string;
  durationMs: number;
  partners: PartnerReport[];
  totals: {
    partners: number;
    unchanged: number;
    changed: number;
    broken: number;
    exchanges: number;
    notReplayed: number;
  };
  interrupted?: string | undefined;
}
