/**
 * The certificate at a glance: every matrix cell and every operation reduced
 * to one outcome, and the inline SVG pictures drawn from them (operations by
 * resource group, cells by check). Inline SVG keeps certificate.html one
 * self-contained file: nothing is loaded, nothing is scripted.
 *
 * Read defensively: the outcome of a cell may be one this file does not know
 * yet (the data model grows: blocked and inconclusive checks), and then it is
 * drawn as skipped rather than dropped.
 */
import type { Certificate } from './certificate-types.ts';
import { escapeHtml } from './escape-html.ts';
import type { MatrixCell, MatrixRow } from './matrix.ts';

/**
 * What a cell or an operation shows, worst first. `advisory`: failed only on rules beyond the spec (convention),
 * which never blocks certification, so it is amber wherever a contract failure is red.
 */
export const OUTCOMES = [
  'failed',
  'advisory',
  'blocked',
  'inconclusive',
  'not-judged',
  'passed',
  'skipped',
  'not-covered',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const OUTCOME_LABEL: Record<Outcome, string> = {
  failed: 'failed',
  advisory: 'advisory failure (beyond the spec)',
  blocked: 'blocked (another check failed first)',
  inconclusive: 'inconclusive (disturbed by another writer)',
  'not-judged': 'not judged (no request the check could judge it on)',
  passed: 'passed',
  skipped: 'skipped',
  'not-covered': 'not covered',
};

/** Solid colours for the pictures; the matrix uses paler ones for the quiet outcomes (certificate-html.ts). */
export const OUTCOME_COLOUR: Record<Outcome, string> = {
  failed: '#d1242f',
  advisory: '#e8912d',
  blocked: '#d4a72c',
  inconclusive: '#8250df',
  'not-judged': '#54aeff',
  passed: '#2da44e',
  skipped: '#8c959f',
  'not-covered': '#ffffff',
};

/** The anchors of the failures that do not block certification (advisory), to tell an amber cell from a red one. */
export function advisoryFailures(c: Certificate): ReadonlySet<string> {
  return new Set(c.failures.filter((f) => !f.blocking).map((f) => f.id));
}

/** A cell's outcome; a failed cell whose failures are all in `advisory` is `advisory`. */
export function cellOutcome(cell: MatrixCell | undefined, advisory: ReadonlySet<string> = new Set()): Outcome {
  const s = cell?.status as string | undefined;
  if (!s) return 'not-covered';
  if (s === 'flaky') return 'passed';
  if (s === 'failed') {
    const ids = cell?.failures?.map((f) => f.failure) ?? [];
    return ids.length && ids.every((id) => advisory.has(id)) ? 'advisory' : 'failed';
  }
  return (OUTCOMES as readonly string[]).includes(s) && s !== 'not-covered' && s !== 'advisory'
    ? (s as Outcome)
    : 'skipped';
}

/** An operation's outcome: the worst of its cells. */
export function rowOutcome(row: MatrixRow, advisory: ReadonlySet<string> = new Set()): Outcome {
  let worst: Outcome = 'not-covered';
  for (const cell of Object.values(row.cells)) {
    const o = cellOutcome(cell, advisory);
    if (OUTCOMES.indexOf(o) < OUTCOMES.indexOf(worst)) worst = o;
  }
  return worst;
}

export type Tally = Record<Outcome, number>;

export function emptyTally(): Tally {
  return Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Tally;
}

export interface GroupTally {
  group: string;
  operations: number;
  /** Operations by their worst outcome. */
  by: Tally;
}

export function groupTallies(c: Certificate): GroupTally[] {
  const advisory = advisoryFailures(c);
  const groups = new Map<string, GroupTally>();
  for (const row of c.matrix.rows) {
    const g = groups.get(row.resource) ?? { group: row.resource, operations: 0, by: emptyTally() };
    g.operations += 1;
    g.by[rowOutcome(row, advisory)] += 1;
    groups.set(row.resource, g);
  }
  return [...groups.values()];
}

/** Cells by outcome for each check (the operations a check was placed on). */
export function checkTallies(c: Certificate): { check: string; by: Tally }[] {
  const advisory = advisoryFailures(c);
  return c.matrix.checks.map((check) => {
    const by = emptyTally();
    for (const row of c.matrix.rows) {
      const cell = row.cells[check];
      if (cell) by[cellOutcome(cell, advisory)] += 1;
    }
    for (const u of c.matrix.unplaced)
      if (u.check === check) {
        const failures = u.failure ? [{ failure: u.failure, clause: '' }] : [];
        by[cellOutcome({ status: u.status, failures } as MatrixCell, advisory)] += 1;
      }
    return { check, by };
  });
}

const esc = escapeHtml;

/** A label cut to `max` characters with an ellipsis; the full text goes in a tooltip. */
export function abbreviate(label: string, max: number): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

const WIDTH = 640;
const LABEL = 190;
const NOTE = 160;
const BAR = WIDTH - LABEL - NOTE - 12;

interface BarRow {
  label: string;
  by: Tally;
  note: string;
}

/** Horizontal stacked bars on one scale (the largest row fills the bar), worst outcome first. */
function stackedBars(title: string, rows: BarRow[], rowHeight: number): string {
  const max = Math.max(1, ...rows.map((r) => OUTCOMES.reduce((n, o) => n + r.by[o], 0)));
  const unit = BAR / max;
  const height = rows.length * rowHeight + 4;
  const body = rows.map((r, i) => {
    const y = i * rowHeight + 2;
    let x = LABEL;
    const segments = OUTCOMES.filter((o) => r.by[o] > 0).map((o) => {
      const w = r.by[o] * unit;
      const rect = `<rect x="${x.toFixed(1)}" y="${y + 2}" width="${w.toFixed(1)}" height="${rowHeight - 6}" fill="${OUTCOME_COLOUR[o]}" stroke="${o === 'not-covered' ? '#8c959f' : '#ffffff'}" stroke-width="${o === 'not-covered' ? 1 : 0.5}"><title>${esc(`${r.label}: ${r.by[o]} ${OUTCOME_LABEL[o]}`)}</title></rect>`;
      x += w;
      return rect;
    });
    const alarm = r.by.failed > 0 ? ' class="alarm"' : r.by.advisory > 0 ? ' class="advisory"' : '';
    return `<text x="${LABEL - 8}" y="${y + rowHeight / 2 + 3}" text-anchor="end"${alarm}><title>${esc(r.label)}</title>${esc(abbreviate(r.label, 26))}</text>${segments.join('')}<text x="${WIDTH - NOTE}" y="${y + rowHeight / 2 + 3}"${alarm}>${esc(r.note)}</text>`;
  });
  return `<svg class="glance" role="img" viewBox="0 0 ${WIDTH} ${height}" width="100%" preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg"><title>${esc(title)}</title>${body.join('')}</svg>`;
}

/** "· 2 ✗" for contract failures, "· 1 advisory" for advisory ones. */
function failedNote(by: Tally): string {
  return `${by.failed ? ` · ${by.failed} ✗` : ''}${by.advisory ? ` · ${by.advisory} advisory` : ''}`;
}

export function groupsSvg(c: Certificate): string {
  const rows = groupTallies(c).map((g) => {
    const covered = g.operations - g.by['not-covered'] - g.by.skipped;
    return {
      label: g.group,
      by: g.by,
      note: `${covered}/${g.operations} covered${failedNote(g.by)}`,
    };
  });
  return stackedBars('Operations by resource group, each by its worst outcome', rows, 22);
}

export function checksSvg(c: Certificate): string {
  const rows = checkTallies(c).map(({ check, by }) => {
    const cells = OUTCOMES.reduce((n, o) => n + by[o], 0);
    return { label: check, by, note: `${cells} op${cells === 1 ? '' : 's'}${failedNote(by)}` };
  });
  return stackedBars('Checks: the operations each one judged, by outcome', rows, 16);
}
