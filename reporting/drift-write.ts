/**
 * Writes the drift report: reports/drift.json (everything), reports/drift.md
 * (what a person reads first) and reports/proposed-schemas/<operation>.<direction>.schema.json
 * (one file per proposal, ready to drop into a pull request against schemas/).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactText } from '../suites/lib/worker/redact.ts';
import { driftCount, OBSERVATION_KINDS, observationCount, type DriftFinding, type DriftReport } from './drift.ts';
import { markdownText } from './escape-markdown.ts';

export const DRIFT_JSON = 'drift.json';
export const DRIFT_MD = 'drift.md';
export const PROPOSED_DIR = 'proposed-schemas';

const TITLES: Record<DriftFinding['kind'], string> = {
  'undocumented-field': 'Fields the contract does not document',
  'undocumented-value': 'Values beyond those the spec shows (observations: the spec leaves the list open; never gated)',
  'value-outside-enum': 'Values outside a documented enum',
  'undocumented-status': 'Status codes outside the documented ranges',
  'documented-field-never-seen': 'Documented fields never seen',
};

/** A value the server sent, in a table cell: never markup, never a second line (escape-markdown.ts). */
function cell(v: unknown): string {
  return markdownText(v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
}

function section(kind: DriftFinding['kind'], list: DriftFinding[]): string {
  if (list.length === 0) return '';
  const rows = list.map(
    (f) =>
      `| ${f.operationId} | ${f.direction} | ${cell(f.path ?? f.status)} | ${f.count} | ${cell(f.value ?? f.example)} | ${cell(f.contract)} |`,
  );
  return [
    `## ${TITLES[kind]} (${list.length})`,
    '',
    '| operation | direction | path / status | seen | value / example | contract |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

export function renderDriftMarkdown(r: DriftReport): string {
  const kinds = Object.keys(TITLES) as DriftFinding['kind'][];
  const body = kinds
    .map((k) =>
      section(
        k,
        r.findings.filter((f) => f.kind === k),
      ),
    )
    .filter(Boolean);
  const proposals = r.proposedSchemas.map(
    (p) => `- \`${PROPOSED_DIR}/${p.operationId}.${p.direction}.schema.json\` (${p.reason})`,
  );
  return [
    '# Drift report',
    '',
    `Generated ${r.generatedAt} from: ${r.sources.join(', ') || '(no traffic)'}. ${r.operationsSeen} operation(s) seen.`,
    'Drift is reported, not failed (`--fail-on drift` makes it a gate, for every kind but the observations).',
    "Request bodies count only from a client's recorded traffic (cassettes): the suites' own requests and writes (forced statuses `flis-forced/…`) are never drift, and neither is a documented request field a client leaves out.",
    '',
    ...(body.length
      ? body
      : ['No drift: every field, value and status code seen is documented, and every documented field was seen.', '']),
    `## Proposed schemas (${r.proposedSchemas.length})`,
    '',
    ...(proposals.length ? proposals : ['None: no traffic of the operations whose fields are not shown.']),
    '',
  ].join('\n');
}

export function writeDriftReport(dir: string, r: DriftReport, secrets: readonly string[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, DRIFT_JSON), redactText(`${JSON.stringify(r, null, 2)}\n`, secrets));
  writeFileSync(join(dir, DRIFT_MD), redactText(renderDriftMarkdown(r), secrets));
  const proposed = join(dir, PROPOSED_DIR);
  rmSync(proposed, { recursive: true, force: true });
  if (r.proposedSchemas.length === 0) return;
  mkdirSync(proposed, { recursive: true });
  for (const p of r.proposedSchemas)
    writeFileSync(
      join(proposed, `${p.operationId}.${p.direction}.schema.json`),
      redactText(`${JSON.stringify(p.schema, null, 2)}\n`, secrets),
    );
}

export function driftSummary(r: DriftReport, dir: string): string {
  const parts = Object.entries(r.counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`);
  const observed = observationCount(r);
  const kinds = parts.length ? parts.join(', ') : 'none';
  const gated = `${driftCount(r)} gated by --fail-on drift${observed ? `, ${observed} observation(s) (${OBSERVATION_KINDS.join(', ')}) never gated` : ''}`;
  return `drift: ${kinds} (${gated}); ${r.proposedSchemas.length} proposed schema(s); ${join(dir, DRIFT_MD)}`;
}
