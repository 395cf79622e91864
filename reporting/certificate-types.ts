/**
 * The certificate's types (reports/certificate.json): what certificate.ts builds, parties.ts judges per party and
 * certificate-html.ts, the gates and the registry read. Types of their own, apart from the modules that build them, so
 * a reader of a certificate imports no builder and no builder imports another for a type.
 */
import type { FailureRecord } from '../core/check-failure.ts';
import type { SpecClause } from './clauses.ts';
import type { ClientUsage } from './client-usage.ts';
import type { Matrix } from './matrix.ts';
import type { Severity, SkipKind } from './outcomes.ts';
import type { SpecProvenance } from './provenance.ts';
import type { RobustnessRow } from './robustness.ts';
import type { NotJudgedGroup } from './skip-groups.ts';

export const CERTIFICATE_FORMAT = 1;

export type VerdictStatus = 'certified' | 'certified-with-advisories' | 'partial' | 'not-certified';

/** Skipped tests grouped by why: the verdict says what was not exercised. */
export interface SkipSummary {
  kind: SkipKind;
  reason: string;
  tests: number;
}

/**
 * `certified` only when the whole contract was exercised (every operation covered, no check skipped) and
 * nothing failed; `partial` when nothing failed on a contract rule but the run did not exercise it all.
 */
export interface Verdict {
  status: VerdictStatus;
  reasons: string[];
  scope: 'full' | 'partial';
  /** Share of the contract's operations that had a check run on them, 0..1. */
  coverage: number;
  /** Failed checks of severity `advisory`. */
  advisories: number;
  skipped: SkipSummary[];
}

export interface CertificateFailure {
  id: string;
  title: string;
  check: string;
  clause: string;
  severity: Severity;
  /** True for a `contract` failure: it blocks certification. An `advisory` one is reported only. */
  blocking: boolean;
  operationId?: string | undefined;
  message: string;
  pointer?: string | undefined;
  schemaPath?: string | undefined;
  curl: string[];
  /** What was sent and received, as the failure record has it (token redacted by the suites). */
  exchanges: FailureRecord['exchanges'];
  /** The Playwright test id: html/index.html#?testId=… opens it in the Playwright report. */
  testId?: string | undefined;
  /** The `flis run` line that reruns a run against the embedded mock, whose port (in `curl`) is gone after it. */
  rerun?: string | undefined;
  source: 'suite' | 'traffic';
}

export interface ClauseEntry extends SpecClause {
  checks: { check: string; passed: number; failed: number; skipped: number }[];
  status: 'passed' | 'failed' | 'skipped' | 'not-tested' | 'not-shown' | 'document';
}

/** The subject and facts are written to certificate.json with JSON.stringify, which leaves an undefined key out. */
export interface CertificateSubject {
  deployment: string;
  baseUrl: string;
  partner?: string | undefined;
}

export interface RunFacts {
  seed: number | null;
  runId: string | null;
  suites: readonly string[] | 'all';
  allowWrites: boolean;
  /** "2/4" for one shard's partial certificate; the shards merged, for a merged one. */
  shard?: string | undefined;
  mergedShards?: string[];
  /** Cassettes of client traffic checked alongside the run (flis certify). */
  cassettes?: { file: string; exchanges: number }[] | undefined;
  /** What reaching the deployment took: throttling waited out, token refreshes, timeouts (docs/throttling.md). */
  network?: NetworkFacts | undefined;
}

/** The gateway's counts for one run (runner/gateway.ts); throttling and renewals are the deployment's right, never failures. */
export interface NetworkFacts {
  /** Requests the suites sent (each counted once, however often it was retried). */
  requests: number;
  /** Answers of 429, or 503 with Retry-After, waited out and asked again. */
  throttled: number;
  /** Wall-clock time the run held requests back because the deployment asked it to (ms). */
  waitedMs: number;
  /** Requests sent again: after throttling, or once after a refused token was renewed. */
  retries: number;
  /** Tokens renewed during the run (ahead of expiry, or after a 401 invalid_token). */
  tokenRefreshes: number;
  /** Requests unanswered within the request timeout: their checks are inconclusive. */
  timeouts: number;
  /** Throttled requests given up on at the run's wait cap: their checks are inconclusive. */
  waitCapReached: number;
  /**
   * Requests whose connection the other side closed before the whole answer, every time they were sent: their checks are
   * inconclusive (absent from reports written before it was counted).
   */
  closedBeforeAnswer?: number;
}

export interface Certificate {
  kind: 'flis-conformance-certificate';
  format: typeof CERTIFICATE_FORMAT;
  date: string;
  subject: CertificateSubject;
  spec: SpecProvenance;
  tool: { name: string; version: string };
  run: RunFacts;
  verdict: Verdict;
  /** `skipped` counts every skipped test; `blocked` and `inconclusive` are the part of it with those reasons. */
  counts: {
    passed: number;
    failed: number;
    skipped: number;
    blocked: number;
    inconclusive: number;
    total: number;
    suiteErrors: number;
    /** Operations a check could not judge (each check and operation once): never counted as passed. */
    notJudged: number;
  };
  /** What the checks could not judge, one group per check and reason (auth-required without a served request). */
  notJudged: NotJudgedGroup[];
  coverage: Matrix['coverage'];
  matrix: Omit<Matrix, 'coverage'>;
  clauses: ClauseEntry[];
  /** Cited clauses that are not spec clauses (HTTP semantics): failures there are advisories. */
  beyondSpec: ClauseEntry[];
  failures: CertificateFailure[];
  suiteErrors: string[];
  /**
   * A partner's certificate (flis certify): a verdict for each party, the partner's client (its recorded traffic) and
   * the service as the partner uses it (the suites), with what each used of the contract. `verdict` is the worse.
   */
  parties?: Parties;
}

/** A party's verdict: the certificate's, and `not-judged` for a client whose traffic was not given. */
export type PartyStatus = VerdictStatus | 'not-judged';

export interface ClientParty {
  status: PartyStatus;
  reasons: string[];
  /** Client-traffic failures on a rule that binds the client. */
  violations: number;
  /** Absent when no cassette was given. */
  usage?: ClientUsage | undefined;
  /** The operations the partner says its client integrates, and those its traffic did not use. */
  required?: { operations: string[]; missing: string[]; source: string } | undefined;
  /** The client command against each conformant variant of the embedded mock (--client-command). */
  robustness?: RobustnessRow[] | undefined;
}

export interface ServiceParty {
  status: VerdictStatus;
  reasons: string[];
  scope: Verdict['scope'];
  /** Failures of the suites on contract rules. */
  failures: number;
  /** Operations a suite check ran on, of `operationsTotal`. */
  operationsExercised: string[];
  operationsNotExercised: string[];
  operationsTotal: number;
}

export interface Parties {
  client: ClientParty;
  service: ServiceParty;
}

/** What the partner says its client integrates: `--require-operations`, or the operations of a partner profile. */
export interface ClientClaim {
  operations: string[];
  /** `--require-operations` or the profile file. */
  source: string;
}
