/**
 * What every run leaves besides Playwright's own reports: the certificate
 * (JSON and HTML) and the drift report, both built from the report folder
 * (results.json and the workers' traffic summaries) so that `flis run`,
 * `flis certify` and `flis merge` produce them the same way.
 */
import { join } from 'node:path';
import type { Certificate, CertificateSubject, RunFacts } from './certificate-types.ts';
import { buildDriftReport, type DriftReport } from './drift.ts';
import { writeDriftReport } from './drift-write.ts';
import { readRunOutcomes, type CheckOutcome } from './outcomes.ts';
import { mergeObservations, type Observations } from '../core/observations.ts';
import { observationsFromCassette, readObservationsDir } from './traffic-sources.ts';
import { trafficOutcomes } from './traffic-outcomes.ts';
import { clientUsage } from './client-usage.ts';
import type { ClientClaim } from './certificate-types.ts';
import type { RobustnessRow } from './robustness.ts';
import { writeCertificate } from './write-certificate.ts';
import { fixJunitFile } from './junit-failures.ts';

export const OBSERVATIONS_SUBDIR = 'observations';

export interface RunReportsInput {
  reportDir: string;
  subject: CertificateSubject;
  facts: Omit<RunFacts, 'cassettes'>;
  /** Cassettes of client traffic to check and count as drift sources (flis certify). */
  cassettes?: string[] | undefined;
  /** The operations the partner says its client integrates (flis certify --require-operations, --partner-profile). */
  clientClaim?: ClientClaim | undefined;
  /** The client command against each conformant variant of the embedded mock (flis certify --client-command). */
  robustness?: RobustnessRow[] | undefined;
  /** Extra traffic summaries (the shards' observations, for flis merge). */
  observations?: Observations[];
  secrets: readonly string[];
}

export interface RunReports {
  certificate: Certificate;
  drift: DriftReport;
}

export function writeRunReports(input: RunReportsInput): RunReports {
  fixJunitFile(join(input.reportDir, 'junit.xml'));
  const run = readRunOutcomes(join(input.reportDir, 'results.json'));
  const traffic = (input.cassettes ?? []).map((file) => ({ file, ...trafficOutcomes(file) }));
  const outcomes: CheckOutcome[] = [...run.outcomes, ...traffic.flatMap((t) => t.outcomes)];
  const facts: RunFacts = {
    ...input.facts,
    cassettes: traffic.length ? traffic.map((t) => ({ file: t.file, exchanges: t.exchanges })) : undefined,
  };
  // A partner's certificate judges the partner's client apart from the service.
  const client = input.subject.partner
    ? {
        usage: input.cassettes?.length ? clientUsage(input.cassettes) : undefined,
        claim: input.clientClaim,
        robustness: input.robustness,
      }
    : undefined;
  const certificate = writeCertificate(
    input.reportDir,
    { run: { outcomes, errors: run.errors }, subject: input.subject, facts, client },
    input.secrets,
  );
  const clientTraffic = (input.cassettes ?? []).map(observationsFromCassette);
  const observations = mergeObservations([
    readObservationsDir(join(input.reportDir, OBSERVATIONS_SUBDIR)),
    ...(input.observations ?? []),
    ...clientTraffic,
  ]);
  // The suites' own requests are never drift (some are invalid on purpose); a client's recorded requests are.
  const drift = buildDriftReport(observations, new Date(), mergeObservations(clientTraffic));
  writeDriftReport(input.reportDir, drift, input.secrets);
  return { certificate, drift };
}
