/**
 * The conformance certificate as data (reports/certificate.json): provenance,
 * the verdict, the matrix of operations against checks, the spec clauses with
 * the checks that enforce each, and every failure with what reproduces it.
 * certificate-html.ts renders the same object; nothing here knows a token.
 */
import type { FailureRecord } from '../core/check-failure.ts';
import { BEYOND_SPEC, citedClauses, clauseOrder, isSpecClause, specClauses, type SpecClause } from './clauses.ts';
import { buildMatrix, type Matrix } from './matrix.ts';
import type { CheckOutcome, RunOutcomes, SkipKind } from './outcomes.ts';
import type { ClientUsage } from './client-usage.ts';
import type { RobustnessRow } from './robustness.ts';
import { clientParty, overallStatus, serviceParty } from './parties.ts';
import { verdictWord } from './verdict-words.ts';
import { publicBaseUrl, specProvenance, toolProvenance } from './provenance.ts';
import { groupNotJudged, groupSkips, notJudgedCount, notJudgedSummary, type NotJudgedGroup } from './skip-groups.ts';
import {
  type Certificate,
  CERTIFICATE_FORMAT,
  type CertificateFailure,
  type CertificateSubject,
  type ClauseEntry,
  type ClientClaim,
  type Parties,
  type RunFacts,
  type SkipSummary,
  type Verdict,
} from './certificate-types.ts';

const EXCHANGE_TEXT_LIMIT = 4_000;

function clipExchanges(exchanges: FailureRecord['exchanges']): FailureRecord['exchanges'] {
  const clip = (s: string) =>
    s.length > EXCHANGE_TEXT_LIMIT ? `${s.slice(0, EXCHANGE_TEXT_LIMIT)}… (${s.length} chars)` : s;
  return exchanges.map((x) => ({
    ...x,
    request: { ...x.request, ...(x.request.body !== undefined ? { body: clip(x.request.body) } : {}) },
    response: { ...x.response, text: clip(x.response.text), body: undefined },
  }));
}

function failureOf(o: CheckOutcome, id: string): CertificateFailure {
  const r = o.record;
  const clause = r?.clause ?? o.clause ?? '';
  const operationId = r?.operationId ?? o.blamed[0] ?? o.operation;
  return {
    id,
    title: o.title,
    check: r?.check ?? o.check ?? '(no check)',
    clause,
    severity: o.severity,
    blocking: o.severity === 'contract',
    message: r?.message ?? o.error ?? 'failed (no failure record)',
    curl: r?.curl ?? [],
    exchanges: clipExchanges(r?.exchanges ?? []),
    source: o.id.startsWith('traffic:') ? 'traffic' : 'suite',
    // Written to certificate.json with JSON.stringify, which leaves an undefined key out.
    testId: o.id.startsWith('traffic:') ? undefined : o.id,
    operationId: operationId || undefined,
    pointer: r?.pointer,
    schemaPath: r?.schemaPath || undefined,
    rerun: r?.rerun || undefined,
  };
}

/** The clauses an outcome speaks for: a failure's own (possibly narrower) clause, else the test's. */
function outcomeClauses(o: CheckOutcome): string[] {
  const citation = o.status === 'failed' && o.record ? o.record.clause : o.clause;
  return citation ? citedClauses(citation) : [];
}

function tally(outcomes: readonly CheckOutcome[], clauseId: string): ClauseEntry['checks'] {
  const by = new Map<string, { check: string; passed: number; failed: number; skipped: number }>();
  for (const o of outcomes) {
    if (!o.check || !outcomeClauses(o).includes(clauseId)) continue;
    const t = by.get(o.check) ?? { check: o.check, passed: 0, failed: 0, skipped: 0 };
    if (o.status === 'failed') t.failed += 1;
    else if (o.status === 'skipped') t.skipped += 1;
    else t.passed += 1;
    by.set(o.check, t);
  }
  return [...by.values()].sort((a, b) => a.check.localeCompare(b.check));
}

function clauseStatus(c: SpecClause, checks: ClauseEntry['checks']): ClauseEntry['status'] {
  if (checks.some((x) => x.failed > 0)) return 'failed';
  if (checks.some((x) => x.passed > 0)) return 'passed';
  if (checks.some((x) => x.skipped > 0)) return 'skipped';
  if (c.kind === 'not-shown') return 'not-shown';
  if (c.kind === 'document') return 'document';
  return 'not-tested';
}

function clauseEntries(outcomes: readonly CheckOutcome[]): { clauses: ClauseEntry[]; beyondSpec: ClauseEntry[] } {
  const cited = new Set(outcomes.flatMap(outcomeClauses));
  const known = new Set(specClauses.map((c) => c.id));
  const extra: SpecClause[] = [...cited]
    .filter((id) => !known.has(id))
    .sort((a, b) => clauseOrder(a) - clauseOrder(b) || a.localeCompare(b))
    .map((id) => ({
      id,
      title:
        id === BEYOND_SPEC
          ? 'A server does not answer 5xx to a request it can judge'
          : 'cited by a check; not in the clause catalogue',
      kind: 'rule',
    }));
  const entry = (c: SpecClause): ClauseEntry => {
    const checks = tally(outcomes, c.id);
    return { ...c, checks, status: clauseStatus(c, checks) };
  };
  return {
    clauses: [...specClauses, ...extra.filter((c) => isSpecClause(c.id))].map(entry),
    beyondSpec: extra.filter((c) => !isSpecClause(c.id)).map(entry),
  };
}

export function skipSummary(outcomes: readonly CheckOutcome[]): SkipSummary[] {
  const by = new Map<string, SkipSummary>();
  for (const o of outcomes.filter((x) => x.status === 'skipped')) {
    const kind = o.skipKind ?? 'skipped';
    const reason = o.skipReason ?? 'skipped';
    const key = `${kind}\u0000${reason}`;
    const s = by.get(key) ?? { kind, reason, tests: 0 };
    s.tests += 1;
    by.set(key, s);
  }
  return [...by.values()].sort((a, b) => b.tests - a.tests || a.reason.localeCompare(b.reason));
}

export interface VerdictScope {
  coverage: Matrix['coverage'];
  skipped: SkipSummary[];
  /** One shard of a sharded run ("2/4"): never the whole contract, whatever it covered. */
  shard?: string;
  /** The suites a run was limited to (`--suite`): the checks of the others did not run. */
  suites?: readonly string[];
  /**
   * Operations a check could not judge. Said in the reasons, never counted as passed; like what the spec shows no
   * means to exercise, they do not narrow the scope: no run could have judged them without a record it may change.
   */
  notJudged?: readonly NotJudgedGroup[];
}

function percentOf(coverage: Matrix['coverage']): string {
  return `${coverage.percent}% (${coverage.covered}/${coverage.total} operations)`;
}

/** Skip reasons one per cause, with their test counts: nine tests blocked by one broken shape are one entry. */
function groupedList(skipped: readonly SkipSummary[]): string {
  return groupSkips(skipped)
    .map((g) => `${g.kind === 'blocked' ? 'blocked by ' : ''}${g.cause} (${g.tests})`)
    .join('; ');
}

export function verdictOf(
  failures: readonly CertificateFailure[],
  suiteErrors: readonly string[],
  ran: number,
  { coverage, skipped, shard, suites, notJudged = [] }: VerdictScope = {
    coverage: { covered: 1, total: 1, percent: 100 },
    skipped: [],
  },
): Verdict {
  const reasons: string[] = [];
  const blocking = failures.filter((f) => f.blocking);
  const advisories = failures.length - blocking.length;
  // What the spec gives no means to exercise (a webhook subscription) narrows no run: no run could exercise it.
  const narrowing = skipped.filter((x) => x.kind !== 'not-shown');
  const notShown = skipped.filter((x) => x.kind === 'not-shown');
  const full = coverage.total > 0 && coverage.covered === coverage.total && narrowing.length === 0 && !shard && !suites;
  const scope = {
    scope: full ? ('full' as const) : ('partial' as const),
    coverage: coverage.total ? coverage.covered / coverage.total : 0,
    advisories,
    skipped,
  };
  if (blocking.length) {
    const byClause = new Map<string, number>();
    for (const f of blocking) for (const c of citedClauses(f.clause)) byClause.set(c, (byClause.get(c) ?? 0) + 1);
    reasons.push(
      `${blocking.length} failed check${blocking.length === 1 ? '' : 's'} on contract rules: ${[...byClause].map(([c, n]) => `${c} (${n})`).join(', ')}`,
    );
  }
  if (suiteErrors.length) reasons.push(`${suiteErrors.length} error(s) outside any test: the run is incomplete`);
  if (ran === 0) reasons.push('no check ran');
  if (reasons.length) return { status: 'not-certified', reasons, ...scope };
  const advisoryReason = advisories
    ? [
        `${advisories} advisory failure${advisories === 1 ? '' : 's'} (${[...new Set(failures.map((f) => f.check))].join(', ')}); no contract rule failed`,
      ]
    : [];
  const notShownReason = [
    ...(notShown.length ? [`not exercisable through the interface, so not judged: ${groupedList(notShown)}`] : []),
    ...(notJudged.length ? [notJudgedSummary(notJudged)] : []),
  ];
  if (!full) {
    const skippedTests = narrowing.reduce((n, x) => n + x.tests, 0);
    return {
      status: 'partial',
      reasons: [
        `nothing failed on a contract rule, but the run${shard ? ` (shard ${shard}; merge the shards for the verdict)` : ''}${suites ? ` (only the suites ${suites.join(', ')})` : ''} exercised ${percentOf(coverage)} of the contract${skippedTests ? ` and skipped ${skippedTests} test(s): ${groupedList(narrowing)}` : ''}`,
        ...advisoryReason,
        ...notShownReason,
      ],
      ...scope,
    };
  }
  if (advisories)
    return { status: 'certified-with-advisories', reasons: [...advisoryReason, ...notShownReason], ...scope };
  const all =
    notShown.length || notJudged.length
      ? 'every check the interface can exercise'
      : 'every check of the whole contract';
  return { status: 'certified', reasons: [`${all} ran and passed`, ...notShownReason], ...scope };
}

export interface CertificateInput {
  run: RunOutcomes;
  subject: CertificateSubject;
  facts: RunFacts;
  date?: Date;
  /** A partner's certificate: the client's usage (absent when no cassette was given) and what the partner claims. */
  client?:
    | { usage?: ClientUsage | undefined; claim?: ClientClaim | undefined; robustness?: RobustnessRow[] | undefined }
    | undefined;
}

function scopeOf(outcomes: readonly CheckOutcome[], facts: RunFacts, coverage: Matrix['coverage']): VerdictScope {
  return {
    coverage,
    skipped: skipSummary(outcomes),
    ...(facts.shard ? { shard: facts.shard } : {}),
    ...(facts.suites !== 'all' ? { suites: facts.suites } : {}),
    notJudged: groupNotJudged(outcomes),
  };
}

/** The two parties' verdicts, and the certificate's own verdict made the worse of them, its reasons said per party. */
function withParties(
  verdict: Verdict,
  run: RunOutcomes,
  failures: readonly CertificateFailure[],
  facts: RunFacts,
  client: NonNullable<CertificateInput['client']>,
): { verdict: Verdict; parties: Parties } {
  const suiteOutcomes = run.outcomes.filter((o) => !o.id.startsWith('traffic:'));
  const suiteFailures = failures.filter((f) => f.source === 'suite');
  const { coverage, rows } = buildMatrix(suiteOutcomes, new Map());
  const ran = suiteOutcomes.filter((o) => o.status !== 'skipped').length;
  const serviceVerdict = verdictOf(suiteFailures, run.errors, ran, scopeOf(suiteOutcomes, facts, coverage));
  const parties: Parties = {
    client: clientParty(client.usage, failures, client.claim, client.robustness),
    service: serviceParty(
      serviceVerdict,
      failures,
      rows.filter((r) => r.covered).map((r) => r.operationId),
      rows.map((r) => r.operationId),
    ),
  };
  const status = overallStatus(parties, verdict.status);
  return {
    parties,
    verdict: {
      ...verdict,
      status,
      scope: status === 'partial' ? 'partial' : verdict.scope,
      reasons: [
        `the client: ${verdictWord(parties.client.status)} — ${parties.client.reasons.join('; ')}`,
        `the service: ${verdictWord(parties.service.status)} — ${parties.service.reasons.join('; ')}`,
      ],
    },
  };
}

export function buildCertificate({ run, subject, facts, date = new Date(), client }: CertificateInput): Certificate {
  const failedOutcomes = run.outcomes.filter((o) => o.status === 'failed');
  const failureIds = new Map(failedOutcomes.map((o, i) => [o.id, `failure-${i + 1}`]));
  const failures = failedOutcomes.map((o) => failureOf(o, failureIds.get(o.id) ?? ''));
  const { coverage, ...matrix } = buildMatrix(run.outcomes, failureIds);
  const count = (s: CheckOutcome['status']) => run.outcomes.filter((o) => o.status === s).length;
  const skipKind = (k: SkipKind) => run.outcomes.filter((o) => o.status === 'skipped' && o.skipKind === k).length;
  const passed = count('passed') + count('flaky');
  const ran = passed + failures.length;
  const notJudged = groupNotJudged(run.outcomes);
  const own = verdictOf(failures, run.errors, ran, scopeOf(run.outcomes, facts, coverage));
  const judged = client ? withParties(own, run, failures, facts, client) : { verdict: own };
  return {
    kind: 'flis-conformance-certificate',
    format: CERTIFICATE_FORMAT,
    date: date.toISOString(),
    subject: { ...subject, baseUrl: publicBaseUrl(subject.baseUrl) },
    spec: specProvenance(),
    tool: toolProvenance(),
    run: facts,
    verdict: judged.verdict,
    counts: {
      passed,
      failed: failures.length,
      skipped: count('skipped'),
      blocked: skipKind('blocked'),
      inconclusive: skipKind('inconclusive'),
      total: run.outcomes.length,
      suiteErrors: run.errors.length,
      notJudged: notJudgedCount(notJudged),
    },
    notJudged,
    coverage,
    matrix,
    ...clauseEntries(run.outcomes),
    failures,
    suiteErrors: run.errors,
    ...('parties' in judged ? { parties: judged.parties } : {}),
  };
}
