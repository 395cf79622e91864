/**
 * `flis regress --registry URL --candidate NAME` and `flis contract diff … --registry URL`: the partners' cassettes
 * come from the registry (each active partner's latest, written to a folder of the run's own), and regress's
 * verdicts go back to it, recorded against the candidate: one regress report per partner, so a partner reading its
 * own replay sees nothing of another's.
 */
import { nameProblem } from '../registry/names.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors/flis-error.ts';
import type { RegistryClient } from '../registry/client.ts';
import type { PublicationSummary } from '../registry/store.ts';
import { toolProvenance } from '../reporting/provenance.ts';
import { regressHtml, totalsOf } from '../regress/report.ts';
import type { PartnerCassette } from '../regress/replay-partner.ts';
import type { PartnerReport, RegressReport } from '../regress/types.ts';
import { redactText } from '../suites/lib/worker/redact.ts';
import { registryOption } from './registry-options.ts';

/** --registry URL and --candidate NAME (each also from the environment): both, or neither with --cassettes DIR. */
export function registryRegressOptions(
  v: { registry?: string | undefined; candidate?: string | undefined; cassettes?: string | undefined },
  env: NodeJS.ProcessEnv,
): { registry: string | undefined; candidate: string | undefined } {
  const registry = registryOption(v.registry, env);
  const candidate = v.candidate ?? (env.FLIS_CANDIDATE || undefined);
  if (registry && v.cassettes) throw new UsageError('give either --cassettes DIR or --registry URL, not both');
  if (!registry && !v.cassettes)
    throw new UsageError("--cassettes DIR or --registry URL is required (see 'flis regress --help')");
  if (registry && !candidate)
    throw new UsageError('--registry records each verdict against a release candidate: --candidate NAME is required');
  if (!registry && candidate)
    throw new UsageError('--candidate NAME is recorded in a registry: give --registry URL too');
  return { registry, candidate };
}

export interface RegistryPartners {
  /** Where the cassettes were written: removed by remove(), or when the process exits. */
  dir: string;
  remove(): void;
  partners: PartnerCassette[];
  /** The publication each partner's cassette came from. */
  publications: Map<string, number>;
  /** Where a report says a cassette is: the registry's address of it, not the run's copy, gone when it ends. */
  source(file: string): string;
  /** The report's cassette fields as source() names them. */
  relabel(report: RegressReport): void;
}

/** Each active partner's latest cassette, as a file named for the partner and its publication. */
export async function registryPartners(client: RegistryClient): Promise<RegistryPartners> {
  const { cassettes } = (await client.call('GET', '/api/cassettes/latest')).json<{ cassettes: PublicationSummary[] }>();
  const dir = mkdtempSync(join(tmpdir(), 'flis-registry-cassettes-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  const partners: PartnerCassette[] = [];
  const publications = new Map<string, number>();
  for (const c of cassettes) {
    // The registry checks its names, but a file name here is built from what it answered: a registry that is not
    // ours, or not sound, must not make this client write outside its folder.
    const problem =
      nameProblem('partner', c.partner) ?? (Number.isSafeInteger(c.id) ? undefined : 'not a publication id');
    if (problem)
      throw new UsageError(`the registry at ${client.url} answered a cassette this client refuses: ${problem}`);
    const text = await client.call('GET', `/api/publications/${c.id}/cassette`, { accept: 'application/yaml' });
    const file = join(dir, `${c.partner}.publication-${c.id}.yaml`);
    writeFileSync(file, text.body);
    partners.push({ partner: c.partner, file });
    publications.set(c.partner, c.id);
  }
  const sources = new Map(
    partners.map((p) => [p.file, `${client.url}/api/publications/${publications.get(p.partner)}/cassette`]),
  );
  const source = (file: string) => sources.get(file) ?? file;
  return {
    dir,
    partners,
    publications,
    source,
    relabel: (report) => {
      for (const p of report.partners) {
        p.cassette = source(p.cassette);
        for (const n of p.notes) n.cassette = source(n.cassette);
      }
    },
    remove: () => {
      process.off('exit', remove);
      remove();
    },
  };
}

/** One line for the matrix's cell and the gate: what broke first, or what changed, or that nothing did. */
export function replaySummary(p: PartnerReport): string {
  if (p.verdict === 'unchanged') return `${p.exchanges} exchange(s), ${p.replayed} replayed, none changed`;
  const notes = p.notes.filter((n) => n.outcome === p.verdict);
  const first = notes[0];
  const findings = first?.findings
    .filter((f) => f.verdict === p.verdict)
    .slice(0, 3)
    .map((f) => `${f.kind}${f.pointer ? ` ${f.pointer}` : ''}`)
    .join(', ');
  const where = first
    ? `; first: ${first.operationId ?? first.request} at line ${first.line}${findings ? ` (${findings})` : ''}`
    : '';
  return `${notes.length} ${p.verdict} exchange(s) of ${p.exchanges}${where}`;
}

/** Records the run's verdicts against the candidate (the run id and shard are the idempotency key); one line says so. */
export async function recordVerdicts(
  client: RegistryClient,
  candidate: string,
  report: RegressReport,
  publications: Map<string, number>,
  secrets: readonly string[],
): Promise<string> {
  const replays = report.partners.map((p) => {
    const one: RegressReport = { ...report, partners: [p], totals: totalsOf([p]) };
    return {
      partner: p.partner,
      publication: publications.get(p.partner),
      verdict: p.verdict,
      summary: replaySummary(p),
      reportHtml: redactText(regressHtml(one), secrets),
      reportJson: redactText(JSON.stringify(one), secrets),
    };
  });
  const r = (
    await client.call('POST', `/api/releases/${encodeURIComponent(candidate)}/replays`, {
      idempotencyKey: `regress-${report.runId}-${(report.shard ?? 'all').replace('/', 'of')}`,
      json: {
        runId: report.runId,
        deployment: report.target.deployment,
        toolVersion: toolProvenance().version,
        replays,
      },
    })
  ).json<{ id: number; created: boolean }>();
  return `flis regress: ${r.created ? 'recorded' : 'already recorded'} ${replays.length} verdict(s) against ${candidate} in ${client.url} (regress run ${r.id})`;
}
