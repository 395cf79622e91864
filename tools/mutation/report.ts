/**
 * The report of `npm run mutation`: every sampled mutant with its diff (file:line, original → replacement) and what
 * became of it, the killing checks of each killed one, and the score. As Stryker counts it: a mutant timed out is
 * detected too, and one whose run errored is no test of the suite either way.
 *
 *   score = (killed + timed out) ÷ (sampled − freedoms − errors)
 *
 * A freedom (a mutant a `// Stryker disable next-line` comment marks, citing the spec line that leaves the choice
 * open) is not run and not counted. A mutant the clean run never reaches (no coverage) counts as not detected.
 */
import { STATUSES, type MutantResult, type Status, whereOf } from './mutant.ts';

export interface RunFacts {
  /** ISO date-time the run started. */
  date: string;
  seed: number;
  /** How many mutants the files hold (route labels left out), and how many were drawn. */
  mutants: number;
  /** Mutants left out as no behaviour: route labels (operationId). */
  labels: number;
  sampled: number;
  files: string[];
  /** `flis run` options every mutant ran with (beyond the seed). */
  flisArgs: string[];
  /** Wall time of the clean run (the instrumented mock, no mutant active). */
  cleanMs: number;
  /** Every clean run: the default mock's, then each variant's that was needed for mutants no run before reached. */
  cleanRuns?: CleanRun[] | undefined;
  /** Wall time of the whole command. */
  wallMs: number;
}

export interface CleanRun {
  /** `default`, or the `--mock-variant` preset. */
  mock: string;
  ms: number;
  certified: boolean;
  /** Mutants its requests reached, and of those how many no clean run before it reached. */
  reached: number;
  added: number;
}

export interface Summary {
  counts: Record<Status, number>;
  /** Mutants that count: sampled − freedoms − errors. */
  valid: number;
  detected: number;
  /** detected ÷ valid, 0..1; undefined when nothing counts. */
  score: number | undefined;
  /** Mean wall time of a mutant's flis run, over those that ran. */
  msPerRun: number | undefined;
}

export function summarize(results: readonly MutantResult[]): Summary {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;
  for (const r of results) counts[r.status]++;
  const valid = results.length - counts.freedom - counts.error;
  const detected = counts.killed + counts['timed out'];
  const ran = results.filter((r) => r.ms !== undefined);
  return {
    counts,
    valid,
    detected,
    score: valid > 0 ? detected / valid : undefined,
    msPerRun: ran.length > 0 ? ran.reduce((t, r) => t + (r.ms ?? 0), 0) / ran.length : undefined,
  };
}

export function percent(score: number | undefined): string {
  return score === undefined ? 'n/a' : `${(score * 100).toFixed(1)} %`;
}

function seconds(ms: number | undefined): string {
  return ms === undefined ? 'n/a' : `${(ms / 1000).toFixed(1)} s`;
}

/** One line a person reads at the end of the run. */
export function summaryLine(s: Summary, reportPath: string): string {
  const c = s.counts;
  return (
    `mutation: score ${percent(s.score)} (killed ${c.killed}, timed out ${c['timed out']}, survived ${c.survived}, ` +
    `no coverage ${c['no coverage']}; freedoms ${c.freedom}, errors ${c.error}); ${reportPath}`
  );
}

export interface JsonReport {
  kind: 'flis-mutation-report';
  format: 1;
  run: RunFacts;
  summary: Summary;
  mutants: MutantResult[];
}

export function jsonReport(run: RunFacts, results: readonly MutantResult[]): JsonReport {
  return { kind: 'flis-mutation-report', format: 1, run, summary: summarize(results), mutants: [...results] };
}

function code(text: string): string {
  return `\`${text.replaceAll('`', "'")}\``;
}

/** `- mock/routes/offers.ts:42:7 ConditionalExpression: `a === b` → `true``, and what else is known. */
function mutantLine(r: MutantResult): string {
  const extra = [
    r.mock !== undefined ? `on --mock-variant ${r.mock}` : undefined,
    r.killedBy ? `killed by ${r.killedBy.join(', ')}` : undefined,
    r.freedom !== undefined ? `freedom: ${r.freedom}` : undefined,
    r.detail,
  ].filter(Boolean);
  const diff = `${code(r.original)} → ${code(r.replacement)}`;
  return `- ${whereOf(r)} ${r.mutator}: ${diff}${extra.length ? ` (${extra.join('; ')})` : ''} [#${r.id}]`;
}

function byFile(results: readonly MutantResult[]): Map<string, MutantResult[]> {
  const out = new Map<string, MutantResult[]>();
  for (const r of results) out.set(r.file, [...(out.get(r.file) ?? []), r]);
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

function section(title: string, why: string, results: readonly MutantResult[]): string[] {
  if (results.length === 0) return [];
  const lines = [`## ${title} (${results.length})`, '', why, ''];
  for (const [file, rs] of byFile(results)) {
    lines.push(`### ${file}`, '');
    for (const r of [...rs].sort((a, b) => a.start.line - b.start.line || a.start.column - b.start.column))
      lines.push(mutantLine(r));
    lines.push('');
  }
  return lines;
}

function killTable(results: readonly MutantResult[]): string[] {
  const byCheck = new Map<string, number>();
  for (const r of results) for (const c of r.killedBy ?? []) byCheck.set(c, (byCheck.get(c) ?? 0) + 1);
  if (byCheck.size === 0) return [];
  const rows = [...byCheck].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  return ['| check | mutants it killed |', '| --- | --- |', ...rows.map(([check, n]) => `| \`${check}\` | ${n} |`), ''];
}

/** The variants' clean runs, when any was needed: a mutant only a variant reaches is run against that variant. */
function cleanRunLines(runs: readonly CleanRun[]): string[] {
  if (runs.length < 2) return [];
  return [
    '| clean run | verdict | time | mutants reached | reached first |',
    '| --- | --- | --- | --- | --- |',
    ...runs.map(
      (r) =>
        `| ${r.mock} | ${r.certified ? 'CERTIFIED' : 'not certified'} | ${seconds(r.ms)} | ${r.reached} | ${r.added} |`,
    ),
    '',
  ];
}

export function markdownReport(run: RunFacts, results: readonly MutantResult[]): string {
  const s = summarize(results);
  const of = (st: Status) => results.filter((r) => r.status === st);
  const lines = [
    '# Mutation testing of the embedded mock',
    '',
    `${run.date}: ${run.sampled} of the ${run.mutants} mutants of ${run.files.length} file(s) (${run.labels} route ` +
      `labels left out: no behaviour), drawn with seed ` +
      `${run.seed}; each one's test is \`flis run --seed ${run.seed}${run.flisArgs.length ? ` ${run.flisArgs.join(' ')}` : ''}\` ` +
      'against the mutated mock, stopped at its first contract failure.',
    '',
    `**Score: ${percent(s.score)}** = (killed ${s.counts.killed} + timed out ${s.counts['timed out']}) ÷ ` +
      `(sampled ${results.length} − freedoms ${s.counts.freedom} − errors ${s.counts.error})`,
    '',
    '| status | mutants |',
    '| --- | --- |',
    ...STATUSES.map((st) => `| ${st} | ${s.counts[st]} |`),
    '',
    `Clean run ${seconds(run.cleanMs)}; ${seconds(s.msPerRun)} a mutant (mean of the runs); ${seconds(run.wallMs)} in all.`,
    '',
    ...cleanRunLines(run.cleanRuns ?? []),
    ...section(
      'Survived',
      'The suite passed the mutated mock. A survivor is a gap, unless it changes no behaviour the spec fixes: then ' +
        'mark it a freedom in place, citing the spec line (docs/mutation.md).',
      of('survived'),
    ),
    ...section(
      'No coverage',
      'No request of the clean runs (the default mock, then each conformant variant) reaches the mutated code, so no ' +
        'run could tell the mutant from the mock.',
      of('no coverage'),
    ),
    ...section('Timed out', 'The run passed its deadline: counted as detected, as Stryker counts it.', of('timed out')),
    ...section('Errors', 'The run ended otherwise (the mock did not start): not counted.', of('error')),
    ...section('Freedoms', 'Marked in place as choices the spec leaves open; not run, not counted.', of('freedom')),
    '## Killed, by check',
    '',
    ...killTable(of('killed')),
    ...section('Killed', 'Each with the checks whose contract failure killed it.', of('killed')),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
