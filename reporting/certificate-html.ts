/**
 * reports/certificate.html: the certificate as one self-contained page. Inline
 * CSS and SVG, no script, no font, image or stylesheet from anywhere: it
 * renders the same offline, from a CI artifact or an e-mail attachment, and
 * loads nothing.
 *
 * Laid out for a laptop (1,400 px) without a horizontal scrollbar: the verdict
 * and the coverage first, in colour and in words; then what failed; then the
 * pictures; the matrix is a fixed-layout table whose check columns share the
 * width left by the operation column, under vertical headers. A failed cell is
 * solid red with a white ✗ that links to its failure.
 */
import { describeNetwork } from './network-summary.ts';
import type { Certificate, CertificateFailure, ClauseEntry } from './certificate.ts';
import {
  abbreviate,
  advisoryFailures,
  cellOutcome,
  checksSvg,
  checkTallies,
  groupsSvg,
  groupTallies,
  OUTCOME_COLOUR,
  OUTCOME_LABEL,
  OUTCOMES,
  rowOutcome,
  type Outcome,
} from './certificate-glance.ts';
import { escapeHtml } from './escape-html.ts';
import type { MatrixCell, MatrixRow } from './matrix.ts';
import { groupSkips, notJudgedLine, notJudgedSummary, skipGroupLine, tests } from './skip-groups.ts';
import { clientUsageLine, serviceUsageLine } from './parties.ts';
import { gaveUpLines } from './robustness.ts';
import { scopePhrase, verdictWord, type PartyStatus } from './verdict-words.ts';

export { escapeHtml };

const e = escapeHtml;

/** `certificate`, or `certificate-<partner>` for a partner's certificate (flis certify). */
export function certificateBaseName(partner?: string): string {
  const slug = partner
    ?.toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug ? `certificate-${slug}` : 'certificate';
}

const STYLE = `
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;padding:20px 24px;max-width:1600px;color:#1b1f24;background:#fff;font-size:14px}
h1{font-size:20px;margin:0} h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
a{color:#0550ae}
.banner{display:grid;grid-template-columns:auto 1fr;gap:4px 20px;align-items:center;padding:14px 18px;border-radius:8px;color:#fff;background:#57606a}
.banner .badge{grid-row:span 2;font-size:28px;font-weight:800;letter-spacing:.02em;white-space:nowrap}
.banner ul{margin:0;padding-left:18px} .banner li{margin:2px 0}
.v-certified{background:#1a7f37}.v-certified-with-advisories{background:#1a7f37;box-shadow:inset 0 -6px 0 #d4a72c}
.v-partial{background:#9a6700}.v-not-certified{background:#cf222e}
.parties{grid-column:1/-1;display:grid;grid-template-columns:1fr 1fr;gap:10px;margin-top:8px}
.party{border-radius:6px;padding:8px 12px;border:2px solid rgba(255,255,255,.7)}
.party b{display:block;font-size:19px} .party span{display:block;font-size:12.5px}
.p-certified,.p-certified-with-advisories{background:#1a7f37}.p-partial{background:#9a6700}.p-not-certified{background:#a40e26}.p-not-judged{background:#57606a}
.usage{display:grid;grid-template-columns:1fr 1fr;gap:24px;align-items:start} .usage h3{font-size:14px;margin:0 0 4px}
.usage ul{margin:4px 0;padding-left:18px} details{margin:4px 0} summary{cursor:pointer}
.tiles{display:flex;flex-wrap:wrap;gap:10px;margin:14px 0}
.tile{border:1px solid #d0d7de;border-radius:8px;padding:8px 14px;min-width:120px}
.tile b{display:block;font-size:26px;line-height:1.2} .tile span{font-size:12px;color:#57606a}
.tile.coverage{flex:1 1 360px}
.meter{height:10px;background:#eaeef2;border-radius:5px;overflow:hidden;margin-top:6px}
.meter i{display:block;height:100%;background:#2da44e} .meter.short i{background:#d4a72c}
.tile.t-failed.hot{background:#d1242f;border-color:#d1242f;color:#fff} .tile.t-failed.hot span{color:#fff}
.tile.t-failed.warm{background:#fff1c2;border-color:#d4a72c} .tile.t-blocked.hot{background:#fff1c2;border-color:#d4a72c} .tile.t-inconclusive.hot{background:#efe8fc;border-color:#8250df} .tile.t-not-judged.hot{background:#ddf4ff;border-color:#54aeff}
.glance-grid{display:grid;grid-template-columns:1fr 1fr;gap:24px;align-items:start}
.glance-grid h3{font-size:14px;margin:0 0 4px}
svg.glance{display:block;max-width:100%;height:auto} svg.glance text{font:11px system-ui,sans-serif;fill:#1b1f24}
svg.glance text.alarm{fill:#cf222e;font-weight:700} svg.glance text.advisory{fill:#9a6700;font-weight:700}
.legend{display:flex;flex-wrap:wrap;gap:6px 16px;font-size:12px;margin:8px 0}
.legend span{display:inline-flex;align-items:center;gap:5px}
.legend i{display:inline-block;width:16px;height:14px;border:1px solid #8c959f;text-align:center;font-style:normal;font-size:11px;line-height:12px}
table{border-collapse:collapse;font-size:12px;width:100%}
td,th{border:1px solid #d0d7de;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
dl.facts{display:grid;grid-template-columns:max-content 1fr max-content 1fr;gap:3px 16px;font-size:13px;margin:0}
dl.facts dt{color:#57606a} dl.facts dd{margin:0;font-family:ui-monospace,monospace;overflow-wrap:anywhere;min-width:0}
table.failures td:first-child{border-left:5px solid #d1242f;font-weight:700;white-space:nowrap}
table.failures tr.advisory td:first-child{border-left-color:#d4a72c}
table.failures .what{font-family:ui-monospace,monospace}
.matrix{table-layout:fixed}
.matrix col.op{width:27%} .matrix col.cl{width:7%}
.matrix thead th{position:sticky;top:0;background:#fff;z-index:1;vertical-align:bottom}
.matrix th.check{padding:4px 0;text-align:center;font-weight:500;font-size:11px}
.matrix th.check span{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;display:inline-block}
.matrix th.check.has-failed{background:#ffebe9;color:#a40e26;font-weight:700}
.matrix th.check.has-advisory{background:#fff1c2;color:#7a4a00;font-weight:700}
.matrix td.c{text-align:center;padding:1px 0;font-size:12px;line-height:18px;overflow:hidden}
.matrix td.op{font-family:ui-monospace,monospace;font-size:11.5px}
.matrix tr.has-failed td.op{box-shadow:inset 5px 0 0 #d1242f;padding-left:10px;font-weight:700;color:#a40e26}
.matrix tr.has-advisory td.op{box-shadow:inset 5px 0 0 #e8912d;padding-left:10px;font-weight:700;color:#7a4a00}
.matrix tr.group th{background:#f6f8fa;font-size:13px;padding:6px} .matrix tr.group th span{font-weight:400;color:#57606a;margin-left:8px}
.matrix tr.group th span.alarm{color:#cf222e;font-weight:700} .matrix tr.group th span.advisory{color:#9a6700;font-weight:700}
.c.failed{background:#d1242f;color:#fff;font-weight:800}
.c.failed a{display:block;color:#fff;text-decoration:none}
.c.advisory{background:#e8912d;color:#fff;font-weight:800}
.c.advisory a{display:block;color:#fff;text-decoration:none}
.c.blocked{background:#fff1c2;color:#7a4a00;font-weight:700}
.c.inconclusive{background:#efe8fc;color:#512a97;font-weight:700}
.c.not-judged{background:#ddf4ff;color:#0550ae;font-weight:700}
.c.passed{background:#e6f6ea;color:#1a7f37}
.c.skipped{background:#eaeef2;color:#57606a}
.c.not-covered{color:#c6ccd2}
.st-failed{background:#d1242f;color:#fff;font-weight:700}.st-passed{background:#e6f6ea;color:#116329}.st-skipped{background:#eaeef2;color:#57606a}
.failure{border:1px solid #d0d7de;border-left:8px solid #d1242f;padding:8px 12px;margin:12px 0;border-radius:4px}
.failure.advisory{border-left-color:#d4a72c}
.failure h3{font-size:15px;margin:0 0 4px} .failure h3 .mark{color:#d1242f}
.failure.advisory h3 .mark{color:#9a6700}
.pill{display:inline-block;white-space:nowrap;border-radius:10px;padding:0 8px;font-size:12px;font-weight:700}
.pill.blocks{background:#d1242f;color:#fff}.pill.advisory{background:#fff1c2;color:#7a4a00}
pre{background:#f6f8fa;padding:8px;font-size:12px;white-space:pre-wrap;overflow-wrap:anywhere;margin:6px 0}
.small{font-size:12px;color:#57606a}
footer{margin-top:32px;border-top:1px solid #d0d7de;padding-top:8px}
`;

const SYMBOL: Record<Outcome, string> = {
  failed: '✗',
  advisory: '✗',
  blocked: '⊘',
  inconclusive: '?',
  'not-judged': '○',
  passed: '✓',
  skipped: '–',
  'not-covered': '·',
};

const VERDICT_MARK: Record<string, string> = {
  certified: '✓',
  'certified-with-advisories': '✓',
  partial: '◐',
  'not-certified': '✗',
};

/** Why a cell that did not judge did not: whichever reasons the data carries. */
function cellReasons(cell: MatrixCell): string[] {
  const c = cell as MatrixCell & { reasons?: string[]; blockedBy?: string[]; inconclusive?: string[] };
  return [...(c.skipReasons ?? []), ...(c.blockedBy ?? []), ...(c.inconclusive ?? []), ...(c.reasons ?? [])];
}

function cellHtml(cell: MatrixCell | undefined, check: string, advisory: ReadonlySet<string>): string {
  const outcome = cellOutcome(cell, advisory);
  if (!cell || outcome === 'not-covered') return `<td class="c not-covered" title="${e(check)}: not covered">·</td>`;
  if (outcome === 'failed' || outcome === 'advisory') {
    const failures = cell.failures ?? [];
    const first = failures[0];
    const more = failures.length > 1 ? String(failures.length) : '';
    const mark = first
      ? `<a href="#${e(first.failure)}" title="${e(first.clause)}">${SYMBOL[outcome]}${more}</a>`
      : SYMBOL[outcome];
    const what = outcome === 'failed' ? 'FAILED' : 'failed (advisory, beyond the spec)';
    return `<td class="c ${outcome}" title="${e(check)} ${what}: ${e(failures.map((f) => `${f.failure} (${f.clause})`).join('; '))}">${mark}</td>`;
  }
  if (outcome === 'passed')
    return `<td class="c passed" title="${e(check)}: passed (${cell.tests} test(s))">${SYMBOL.passed}</td>`;
  const why = cellReasons(cell).join('; ');
  return `<td class="c ${outcome}" title="${e(check)}: ${e(OUTCOME_LABEL[outcome])}${why ? `: ${e(why)}` : ''}">${SYMBOL[outcome]}</td>`;
}

function matrixHtml(c: Certificate): string {
  const checks = c.matrix.checks;
  const advisory = advisoryFailures(c);
  // A check is red when it failed on a contract rule, amber when it failed on advisory rules only.
  const heat = new Map(
    checkTallies(c).map((t) => [t.check, t.by.failed ? ' has-failed' : t.by.advisory ? ' has-advisory' : '']),
  );
  const cols = `<colgroup><col class="op"><col class="cl">${checks.map(() => '<col>').join('')}</colgroup>`;
  const head = `<tr><th>operation</th><th>clause</th>${checks
    .map(
      (k) =>
        `<th class="check${heat.get(k) ?? ''}" title="${e(k)}"><span>${heat.get(k) ? '✗ ' : ''}${e(abbreviate(k, 26))}</span></th>`,
    )
    .join('')}</tr>`;
  const groups = new Map(groupTallies(c).map((g) => [g.group, g]));
  const out: string[] = [];
  let group: string | undefined;
  for (const row of c.matrix.rows) {
    if (row.resource !== group) {
      group = row.resource;
      const g = groups.get(group);
      const covered = g ? g.operations - g.by['not-covered'] - g.by.skipped : 0;
      const failed = `${g?.by.failed ? ` <span class="alarm">${g.by.failed} with a failure</span>` : ''}${g?.by.advisory ? ` <span class="advisory">${g.by.advisory} with an advisory failure</span>` : ''}`;
      out.push(
        `<tr class="group"><th colspan="${checks.length + 2}">${e(group)}<span>${g?.operations ?? 0} operation${g?.operations === 1 ? '' : 's'}, ${covered} covered</span>${failed}</th></tr>`,
      );
    }
    out.push(rowHtml(row, checks, advisory));
  }
  return `<table class="matrix">${cols}<thead>${head}</thead><tbody>${out.join('\n')}</tbody></table>`;
}

function rowHtml(row: MatrixRow, checks: string[], advisory: ReadonlySet<string>): string {
  const dep = row.deprecated ? ' <span class="small">(deprecated)</span>' : '';
  const outcome = rowOutcome(row, advisory);
  const failed = outcome === 'failed' || outcome === 'advisory';
  const name = `<td class="op" title="${e(row.operationId)}">${failed ? '✗ ' : ''}${e(row.method)} ${e(row.path)}${dep}${row.covered ? '' : ' <span class="small">not covered</span>'}</td>`;
  return `<tr id="op-${e(row.operationId)}"${failed ? ` class="has-${outcome}"` : ''}>${name}<td>${e(row.clause)}</td>${checks.map((k) => cellHtml(row.cells[k], k, advisory)).join('')}</tr>`;
}

function legendHtml(): string {
  return `<p class="legend">${OUTCOMES.map((o) => `<span><i class="c ${o}">${SYMBOL[o]}</i>${e(OUTCOME_LABEL[o])}${o === 'failed' || o === 'advisory' ? ' (links to the failure)' : o === 'passed' || o === 'not-covered' ? '' : ' (hover for why)'}</span>`).join('')}</p>`;
}

function swatchLegendHtml(): string {
  return `<p class="legend">${OUTCOMES.map((o) => `<span><i style="background:${OUTCOME_COLOUR[o]}"></i>${e(OUTCOME_LABEL[o])}</span>`).join('')}</p>`;
}

function skipSummaryHtml(c: Certificate): string {
  const reasons = new Map<string, number>();
  for (const row of c.matrix.rows)
    for (const cell of Object.values(row.cells))
      if (!['passed', 'failed', 'advisory', 'not-covered'].includes(cellOutcome(cell)))
        for (const r of cellReasons(cell)) reasons.set(r, (reasons.get(r) ?? 0) + 1);
  for (const u of c.matrix.unplaced)
    if (u.status !== 'passed' && u.status !== 'failed' && u.status !== 'flaky')
      reasons.set(u.reason ?? u.status, (reasons.get(u.reason ?? u.status) ?? 0) + 1);
  if (reasons.size === 0) return '<p class="small">Nothing was skipped, blocked or inconclusive.</p>';
  return `<table><tr><th style="width:8em">cells</th><th>why</th></tr>${[...reasons].map(([r, n]) => `<tr><td>${n}</td><td>${e(r)}</td></tr>`).join('')}</table>`;
}

/** What the checks could not judge: the count, then one row per check and reason with the operations it covers. */
function notJudgedHtml(c: Certificate): string {
  const groups = c.notJudged ?? [];
  if (groups.length === 0) return '';
  const rows = groups
    .map(
      (g) =>
        `<tr><td>${g.operations.length}</td><td>${e(g.check)}</td><td>${e(g.reason)}<br><span class="small">${e(g.operations.join(', '))}</span></td></tr>`,
    )
    .join('');
  return `<h2 id="not-judged">Not judged</h2><p>${e(notJudgedSummary(groups))}.</p><table><tr><th style="width:8em">operations</th><th>check</th><th>why</th></tr>${rows}</table>`;
}

const CLAUSE_STATUS: Record<ClauseEntry['status'], string> = {
  passed: 'enforced, passed',
  failed: 'enforced, FAILED',
  skipped: 'enforcing checks skipped',
  'not-tested': 'not tested by this run',
  'not-shown': 'not shown by the spec: nothing to enforce',
  document: 'a property of the contract document',
};

function clausesHtml(list: ClauseEntry[]): string {
  const rows = list.map((c) => {
    const checks =
      c.checks
        .map((k) => `${e(k.check)} <span class="small">(${k.passed}✓ ${k.failed}✗ ${k.skipped}–)</span>`)
        .join('<br>') || '<span class="small">none</span>';
    const cls = ['failed', 'passed', 'skipped'].includes(c.status) ? `st-${c.status}` : '';
    return `<tr><td>${e(c.id)}</td><td>${e(c.title)}${c.note ? `<br><span class="small">${e(c.note)}</span>` : ''}</td><td class="${cls}">${e(CLAUSE_STATUS[c.status] ?? c.status)}</td><td>${checks}</td></tr>`;
  });
  return `<table><colgroup><col style="width:9em"><col><col style="width:16em"><col style="width:30%"></colgroup><tr><th>clause</th><th>what it says</th><th>status</th><th>checks that enforce it (passed/failed/skipped tests)</th></tr>${rows.join('')}</table>`;
}

/** Lines in the summary under the verdict; a run with more failures lists them all further down. */
const SUMMARY_LIMIT = 40;

/**
 * A failure in one line: its first violation with the pointer ("/0/quantity: must be number"), not a heading cut at
 * its colon ("response does not match offer-list.schema.json (1 violation(s)):").
 */
export function whatFailed(f: Pick<CertificateFailure, 'message' | 'pointer'>): string {
  const [head = '', ...rest] = f.message.split('\n');
  const first = rest.map((l) => l.trim()).find(Boolean);
  const line = head.trimEnd().endsWith(':') && first ? first : head;
  const pointer = f.pointer ? f.pointer : undefined;
  return pointer && !line.includes(pointer) ? `${pointer}: ${line}` : line;
}

/** One line per failure, right under the verdict: what failed, where, and a link to the whole record. */
function failureSummaryHtml(c: Certificate): string {
  if (!c.failures.length) return '';
  // Failures that block certification first; advisories after them.
  const ordered = [...c.failures.filter((f) => f.blocking), ...c.failures.filter((f) => !f.blocking)];
  const rows = ordered.slice(0, SUMMARY_LIMIT).map((f) => {
    const what = whatFailed(f);
    return `<tr${f.blocking ? '' : ' class="advisory"'}><td><a href="#${e(f.id)}">✗ ${e(f.id)}</a></td><td>${e(f.check)}</td><td>${f.operationId ? `<a href="#op-${e(f.operationId)}">${e(f.operationId)}</a>` : '—'}</td><td>${e(f.clause)}</td><td class="what">${e(what.length > 200 ? `${what.slice(0, 200)}…` : what)}</td><td>${f.blocking ? '<span class="pill blocks">blocks certification</span>' : '<span class="pill advisory">advisory</span>'}</td></tr>`;
  });
  return `<h2>What failed (${c.failures.length})</h2><table class="failures"><colgroup><col style="width:8em"><col style="width:13em"><col style="width:14em"><col style="width:10em"><col><col style="width:12.5em"></colgroup><tr><th>failure</th><th>check</th><th>operation</th><th>clause</th><th>what</th><th></th></tr>${rows.join('')}${ordered.length > SUMMARY_LIMIT ? `<tr><td colspan="6">… and ${ordered.length - SUMMARY_LIMIT} more: every failure is listed under <a href="#failures">Failures</a></td></tr>` : ''}</table>`;
}

function failureHtml(f: CertificateFailure): string {
  const exchanges = f.exchanges.map(
    (x) =>
      `${x.request.method} ${x.request.url}\n${Object.entries(x.request.headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join(
          '\n',
        )}${x.request.body !== undefined ? `\n\n${x.request.body}` : ''}\n\n→ ${x.response.status} ${x.response.headers['content-type'] ?? ''}\n${x.response.text}`,
  );
  const report = f.testId
    ? ` · <a href="html/index.html#?testId=${encodeURIComponent(f.testId)}">open in the Playwright report</a> <span class="small">(served by npx flis show-report)</span>`
    : '';
  return `<div class="failure${f.blocking ? '' : ' advisory'}" id="${e(f.id)}">
<h3><span class="mark">✗</span> ${e(f.id)} · ${e(f.check)} · ${e(f.clause)}${f.operationId ? ` — <a href="#op-${e(f.operationId)}">${e(f.operationId)}</a>` : ''} ${f.blocking ? '<span class="pill blocks">blocks certification</span>' : '<span class="pill advisory">advisory (not a spec rule)</span>'}</h3>
<div class="small">${e(f.title)} · ${f.source === 'traffic' ? 'client traffic' : 'suite'}${report}</div>
<pre>${e(f.message)}${f.pointer !== undefined ? `\nat JSON pointer: ${e(f.pointer || '(root)')}${f.schemaPath ? ` (schema ${e(f.schemaPath)})` : ''}` : ''}</pre>
${exchanges.length ? `<pre>${e(exchanges.join('\n\n———\n\n'))}</pre>` : ''}
${f.rerun ? `<pre>${e(`rerun the run: ${f.rerun}`)}</pre>` : f.curl.length ? `<pre>${e(f.curl.map((c) => `reproduce: ${c}`).join('\n'))}</pre>` : ''}
</div>`;
}

function factsHtml(c: Certificate): string {
  const facts: [string, string][] = [
    ...(c.subject.partner ? [['partner', c.subject.partner] as [string, string]] : []),
    ['deployment', c.subject.deployment],
    ['base URL', c.subject.baseUrl],
    ['date', c.date],
    ['spec version', c.spec.version],
    [`sha256 of ${c.spec.file}`, c.spec.sha256],
    ['tool', `${c.tool.name} ${c.tool.version}`],
    ['seed', c.run.seed === null ? '(not recorded)' : String(c.run.seed)],
    ['run id', c.run.runId ?? '(not recorded)'],
    ['suites', c.run.suites === 'all' ? 'all' : c.run.suites.join(', ')],
    ['writes allowed', String(c.run.allowWrites)],
    ...(c.run.shard
      ? [['shard', `${c.run.shard} (partial: merge the shards for the verdict)`] as [string, string]]
      : []),
    ...(c.run.mergedShards ? [['merged shards', c.run.mergedShards.join(', ')] as [string, string]] : []),
    ...(c.run.cassettes ?? []).map(
      (k) => ['client traffic', `${k.file} (${k.exchanges} exchanges)`] as [string, string],
    ),
    ...(c.run.network ? [['network', describeNetwork(c.run.network)] as [string, string]] : []),
  ];
  return `<dl class="facts">${facts.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl>`;
}

/**
 * The verdict's reasons, one line each, then, for a verdict whose reasons do not say it already (not-certified),
 * what the run did not exercise: one line per owning check and cause, never one per test.
 */
export function verdictLines(c: Certificate): string[] {
  const notJudged = (c.notJudged ?? []).map(notJudgedLine);
  if (c.verdict.status !== 'not-certified') return [...c.verdict.reasons, ...notJudged];
  return [...c.verdict.reasons, ...groupSkips(c.verdict.skipped).map(skipGroupLine), ...notJudged];
}

const PARTY_MARK: Record<PartyStatus, string> = { ...VERDICT_MARK, 'not-judged': '○' } as Record<PartyStatus, string>;

/** The two parties' verdicts, side by side in the banner: which one failed is seen before anything is read. */
function partiesHtml(c: Certificate): string {
  const p = c.parties;
  if (!p) return '';
  const partner = c.subject.partner ?? 'the partner';
  const box = (party: 'client' | 'service', status: PartyStatus, who: string, line: string, reasons: string[]) =>
    `<div class="party p-${e(status)}" data-party="${party}" data-status="${e(status)}"><b>${PARTY_MARK[status] ?? '•'} ${party === 'client' ? 'CLIENT' : 'SERVICE'}: ${e(verdictWord(status))}</b><span>${e(who)}</span><span>${e(line)}</span>${status === 'certified' ? '' : `<span>${e(reasons.join('; '))}</span>`}</div>`;
  return `<div class="parties">${box('client', p.client.status, `${partner}'s client, judged on its recorded traffic`, clientUsageLine(p.client), p.client.reasons)}${box('service', p.service.status, `${c.subject.deployment} as ${partner} uses it, judged by the suites`, serviceUsageLine(p.service), p.service.reasons)}</div>`;
}

function namesHtml(summary: string, names: readonly string[]): string {
  if (!names.length) return `<p class="small">${e(summary)}: none</p>`;
  return `<details><summary>${e(summary)} (${names.length})</summary><p class="small">${e(names.join(', '))}</p></details>`;
}

/** The client command against each conformant variant: one row per variant, with the sentence that allows it. */
function robustnessHtml(c: Certificate): string {
  const rows = c.parties?.client.robustness;
  if (!rows?.length) return '';
  const body = rows
    .map(
      (r) =>
        `<tr class="${r.passed ? 'survived' : 'broke'}" data-variant="${e(r.variant)}"><td><b>${e(r.variant)}</b></td><td>${e(r.exercises)}</td><td class="small">${e(r.allowedBy)}</td><td>${r.exitCode === null ? 'stopped' : r.exitCode}</td><td>${r.exchanges} exchange${r.exchanges === 1 ? '' : 's'}, ${r.requestViolations ? `<b>${r.requestViolations} request violation(s)</b>` : 'valid'}</td><td>${e(r.differences.join('; ') || '—')}</td><td class="${r.passed ? 'st-passed' : 'st-failed'}">${
          r.passed
            ? '✓ survived'
            : `✗ ${e(r.verdict)}${
                r.gaveUp
                  ? `<ul class="small gave-up">${gaveUpLines(r.gaveUp)
                      .map((l) => `<li>${e(l)}</li>`)
                      .join('')}</ul>`
                  : ''
              }`
        }</td></tr>`,
    )
    .join('');
  return `<h2 id="robustness">Robustness: the client against what the contract allows</h2><p class="small">The client command, run once against each conformant variant of the embedded mock through the recorder.</p><table class="robustness"><colgroup><col style="width:8em"><col style="width:22%"><col style="width:22%"><col style="width:4em"><col style="width:10em"><col><col style="width:12em"></colgroup><tr><th>variant</th><th>what it exercises</th><th>allowed by</th><th>exit</th><th>traffic</th><th>what differed from the plain mock</th><th></th></tr>${body}</table>`;
}

/** What each party used of the contract, and what it did not. */
function usageHtml(c: Certificate): string {
  const p = c.parties;
  if (!p) return '';
  const u = p.client.usage;
  const flows = u
    ? `<table><tr><th>flow</th><th>begun</th><th>completed</th><th>not completed</th></tr>${u.flows
        .map(
          (f) =>
            `<tr><td>${e(f.flow.replaceAll('-', ' '))}</td><td>${f.started}</td><td>${f.completed}</td><td>${e(f.missing.join('; ') || (f.started ? '—' : 'not used'))}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const required = p.client.required
    ? `<p>Operations the partner integrates (${e(p.client.required.source)}): ${p.client.required.operations.length}; ${p.client.required.missing.length ? `<b>not in the traffic: ${e(p.client.required.missing.join(', '))}</b>` : 'all in the traffic'}.</p>`
    : '';
  const client = u
    ? `<p>${e(clientUsageLine(p.client))}.</p>${required}${namesHtml('operations used', u.operationsUsed)}${namesHtml('operations not used', u.operationsNotUsed)}${namesHtml('documented request fields sent', u.requestFields.sent)}${namesHtml('documented request fields not sent (a client sends what it needs: never drift)', u.requestFields.notSent)}${u.unknownRequests.length ? namesHtml('requests to no operation of the contract', u.unknownRequests) : ''}${flows}`
    : `<p>${e(p.client.reasons.join('; '))}.</p>${required}`;
  const service = `<p>${e(serviceUsageLine(p.service))}.</p>${namesHtml('operations exercised', p.service.operationsExercised)}${namesHtml('operations not exercised', p.service.operationsNotExercised)}`;
  return `<h2 id="usage">Usage of the contract</h2><div class="usage"><div><h3>The client</h3>${client}</div><div><h3>The service, by the suites</h3>${service}</div></div>`;
}

function bannerHtml(c: Certificate, title: string): string {
  const status = c.verdict.status;
  const label = verdictWord(status);
  const scope = ` <span class="small" style="color:inherit">(scope: ${e(scopePhrase(c))})</span>`;
  return `<header class="banner v-${e(status)}">
<div class="badge">${VERDICT_MARK[status] ?? '•'} ${e(label)}</div>
<h1>${e(title)}${scope}</h1>
<ul>${verdictLines(c)
    // A partner's certificate says each party's reasons in its own box below.
    .slice(c.parties ? 2 : 0)
    .map((r) => `<li>${e(r)}</li>`)
    .join('')}</ul>
${partiesHtml(c)}
</header>`;
}

function tilesHtml(c: Certificate): string {
  const counts = c.counts;
  const advisories = c.verdict.advisories;
  const tile = (kind: string, n: number, what: string, heat = n > 0 ? ' hot' : '') =>
    `<div class="tile t-${kind}${heat}"><b>${n}</b><span>${e(what)}</span></div>`;
  // "1 test failed", "3 tests passed": the number is the tile's, the words agree with it.
  const noun = (n: number) => tests(n).replace(/^\d+ /, '');
  // Red only for failures that block certification; failures on rules beyond the spec alone are amber.
  const failedHeat = c.failures.some((f) => f.blocking) ? ' hot' : c.counts.failed > 0 ? ' warm' : '';
  const pct = Math.max(0, Math.min(100, c.coverage.percent));
  return `<div class="tiles">
<div class="tile coverage"><b>${pct}% coverage</b><span>${c.coverage.covered} of ${c.coverage.total} operations had a check run on them${c.parties ? ' (the suites and the client traffic together)' : ''}</span><div class="meter${pct < 100 ? ' short' : ''}"><i style="width:${pct}%"></i></div></div>
${tile('passed', c.counts.passed, `${noun(c.counts.passed)} passed`)}
${tile('failed', c.counts.failed, `${noun(c.counts.failed)} failed${advisories ? ` (${advisories === c.counts.failed ? 'advisory' : `${advisories} advisory`})` : ''}`, failedHeat)}
${tile('blocked', counts.blocked, 'blocked')}
${tile('inconclusive', counts.inconclusive, 'inconclusive')}
${tile('not-judged', counts.notJudged ?? 0, `operation${counts.notJudged === 1 ? '' : 's'} not judged`)}
${tile('skipped', c.counts.skipped, `${noun(c.counts.skipped)} skipped`)}
</div>`;
}

export function renderCertificateHtml(c: Certificate): string {
  const title = `FLIS conformance certificate${c.subject.partner ? ` — ${c.subject.partner}` : ''} — ${c.subject.deployment}`;
  const unplaced = c.matrix.unplaced.length
    ? `<h2>Checks not tied to an operation</h2><table><tr><th>check</th><th>test</th><th>status</th></tr>${c.matrix.unplaced.map((u) => `<tr><td>${e(u.check)}</td><td>${e(u.title)}</td><td class="st-${e(u.status)}">${u.failure ? `<a href="#${e(u.failure)}">${e(u.status)}</a>` : e(u.status)}${u.reason ? ` — ${e(u.reason)}` : ''}</td></tr>`).join('')}</table>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title><style>${STYLE}</style></head>
<body>
${bannerHtml(c, title)}
${tilesHtml(c)}
${failureSummaryHtml(c)}
${usageHtml(c)}
${robustnessHtml(c)}
<h2>At a glance</h2>
<div class="glance-grid">
<div><h3>Operations by resource group (each by its worst outcome)</h3>${groupsSvg(c)}</div>
<div><h3>Checks: the operations each one judged</h3>${checksSvg(c)}</div>
</div>
${swatchLegendHtml()}
<h2>Run</h2>
${factsHtml(c)}
<h2>Operations × checks</h2>
${legendHtml()}
${matrixHtml(c)}
<h2>Why checks were skipped, blocked or inconclusive</h2>
${skipSummaryHtml(c)}
${notJudgedHtml(c)}
${unplaced}
<h2>Spec clauses and the checks that enforce them</h2>
${clausesHtml(c.clauses)}
${c.beyondSpec.length ? `<h2>Beyond the spec (advisory)</h2>${clausesHtml(c.beyondSpec)}` : ''}
<h2 id="failures">Failures (${c.failures.length})</h2>
${c.failures.length ? c.failures.map(failureHtml).join('\n') : '<p>None.</p>'}
${c.suiteErrors.length ? `<h2>Errors outside any test</h2><pre>${e(c.suiteErrors.join('\n\n'))}</pre>` : ''}
<footer class="small">Generated by ${e(c.tool.name)} ${e(c.tool.version)}. The machine-readable certificate is ${e(certificateBaseName(c.subject.partner))}.json beside this file.</footer>
</body></html>
`;
}
