/**
 * A partner's certificate speaks for two parties, each with its own verdict
 * (Pact's model: a verdict per party):
 *
 * - the partner's **client**: its recorded traffic (cassettes) judged against the rules that bind a client, with
 *   the share of the contract it uses (operations, documented request fields, flows) and the operations the partner
 *   says it integrates (`--require-operations`, a partner profile);
 * - the **service as the partner uses it**: the suites run against the deployment.
 *
 * The certificate's own verdict is the worse of the two; the exit code stays one number, and the line before the
 * last says which party failed.
 */
import type { ClientUsage } from './client-usage.ts';
import { type RobustnessRow, robustnessReason } from './robustness.ts';
import { verdictWord } from './verdict-words.ts';
import type {
  Certificate,
  CertificateFailure,
  ClientClaim,
  ClientParty,
  Parties,
  ServiceParty,
  Verdict,
  VerdictStatus,
} from './certificate-types.ts';

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function clientParty(
  usage: ClientUsage | undefined,
  failures: readonly CertificateFailure[],
  claim: ClientClaim | undefined,
  robustness?: RobustnessRow[],
): ClientParty {
  const violations = failures.filter((f) => f.source === 'traffic' && f.blocking).length;
  const missing = claim ? claim.operations.filter((op) => !usage?.operationsUsed.includes(op)) : [];
  const required = claim ? { operations: claim.operations, missing, source: claim.source } : undefined;
  // Written to certificate.json with JSON.stringify, which leaves an undefined key out.
  const base = { violations, usage, required, robustness };
  if (!usage)
    return {
      status: 'not-judged',
      reasons: ["no client traffic given: record the client with 'flis record' and pass the cassette with --cassette"],
      ...base,
    };
  const reasons: string[] = [];
  if (usage.exchanges === 0) reasons.push('the cassettes hold no exchange of the client');
  if (violations)
    reasons.push(
      `${plural(violations, 'violation')} of a rule that binds the client in ${plural(usage.exchanges, 'exchange')}`,
    );
  if (claim && usage.exchanges < claim.operations.length)
    reasons.push(
      `${plural(usage.exchanges, 'exchange')} cannot cover the ${plural(claim.operations.length, 'operation')} claimed (${claim.source}): missing ${missing.join(', ')}`,
    );
  else if (missing.length)
    reasons.push(
      `${plural(missing.length, 'operation')} the partner integrates (${claim?.source}) not in the client's traffic: ${missing.join(', ')}`,
    );
  const fragile = robustness ? robustnessReason(robustness) : undefined;
  if (fragile) reasons.push(fragile);
  if (reasons.length) return { status: 'not-certified', reasons, ...base };
  return {
    status: 'certified',
    reasons: [
      `${plural(usage.exchanges, 'exchange')}, no violation; ${usage.operationsUsed.length} of ${usage.operationsTotal} operations used${claim ? `, every one of the ${claim.operations.length} it integrates` : ''}${robustness ? `; survived all ${robustness.length} conformant variants of the embedded mock` : ''}`,
    ],
    ...base,
  };
}

export function serviceParty(
  verdict: Verdict,
  failures: readonly CertificateFailure[],
  exercised: readonly string[],
  all: readonly string[],
): ServiceParty {
  const done = new Set(exercised);
  return {
    status: verdict.status,
    reasons: verdict.reasons,
    scope: verdict.scope,
    failures: failures.filter((f) => f.source === 'suite' && f.blocking).length,
    operationsExercised: [...done].sort(),
    operationsNotExercised: all.filter((op) => !done.has(op)).sort(),
    operationsTotal: all.length,
  };
}

/** Which party failed, in words, for the line before the last. */
export function failedParties(p: Parties): ('client' | 'service')[] {
  return (['client', 'service'] as const).filter((k) => p[k].status === 'not-certified');
}

/**
 * The certificate's verdict given the parties': not certified when either failed; partial when the client could not
 * be judged (no traffic given) or the service's run was partial; else the run's own.
 */
export function overallStatus(p: Parties, own: VerdictStatus): VerdictStatus {
  if (own === 'not-certified' || failedParties(p).length) return 'not-certified';
  if (p.client.status === 'not-judged' || p.service.status === 'partial') return 'partial';
  return own;
}

/** "client: 2 exchanges, 0 violations; 3 of 125 operations used; 4 of 19 documented request fields sent; flows …". */
export function clientUsageLine(c: ClientParty): string {
  const u = c.usage;
  if (!u) return 'no client traffic given';
  const fields = u.requestFields.sent.length + u.requestFields.notSent.length;
  const flows = u.flows.map((f) => `${f.flow.replaceAll('-', ' ')} ${f.completed} of ${f.started}`).join(', ');
  return `${plural(u.exchanges, 'exchange')}, ${plural(c.violations, 'violation')}; ${u.operationsUsed.length} of ${u.operationsTotal} operations used; ${u.requestFields.sent.length} of ${fields} documented request fields sent; flows completed: ${flows}`;
}

export function serviceUsageLine(s: ServiceParty): string {
  return `${s.operationsExercised.length} of ${s.operationsTotal} operations exercised by the suites; ${plural(s.failures, 'failure')} on contract rules`;
}

export function partyLines(c: Certificate): string[] {
  const p = c.parties;
  if (!p) return [];
  const partner = c.subject.partner ?? 'the partner';
  return [
    `the client (${partner}, by its recorded traffic): ${verdictWord(p.client.status)} — ${clientUsageLine(p.client)}${p.client.status === 'not-certified' || p.client.status === 'not-judged' ? `: ${p.client.reasons.join('; ')}` : ''}`,
    `the service (${c.subject.deployment} as ${partner} uses it, by the suites): ${verdictWord(p.service.status)} — ${serviceUsageLine(p.service)}`,
  ];
}

/** The line before the last: which party made the exit code. */
export function whoFailedLine(c: Certificate, exitCode: number): string | undefined {
  const p = c.parties;
  if (!p) return undefined;
  const failed = failedParties(p);
  if (failed.length === 2) return `exit ${exitCode}: both parties failed: the client and the service`;
  if (failed[0] === 'client')
    return `exit ${exitCode}: the client failed (${p.client.reasons.join('; ')}); the service did not`;
  if (failed[0] === 'service') return `exit ${exitCode}: the service failed; the client did not`;
  if (exitCode !== 0) return `exit ${exitCode}: neither party failed a rule; a gate failed (above)`;
  return `exit 0: neither party failed`;
}
