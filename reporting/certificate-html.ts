/**
 * reports/certificate.html: the certificate as one self-contained page. Inline
 * CSS, no script, no font, image or stylesheet from anywhere: it renders the
 * same offline, from a CI artifact or an e-mail attachment, and loads nothing.
 */
import type { Certificate, CertificateFailure, ClauseEntry } from './certificate.ts';
import type { MatrixCell, MatrixRow } from './matrix.ts';

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

const e = escapeHtml;

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1b1f24;background:#fff}
h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
.verdict{display:inline-block;padding:6px 14px;border-radius:6px;font-weight:700;font-size:18px;margin:10px 0}
.v-certified{background:#dafbe1;color:#116329}.v-certified-with-advisories{background:#fff8c5;color:#7d4e00}.v-not-certified{background:#ffebe9;color:#a40e26}.v-partial{background:#eaeef2;color:#24292f;border:2px dashed #57606a}
table{border-collapse:collapse;font-size:12px} td,th{border:1px solid #d0d7de;padding:3px 6px;text-align:left;vertical-align:top}
dl.facts{display:grid;grid-template-columns:max-content auto;gap:2px 16px;font-size:13px} dl.facts dt{color:#57606a} dl.facts dd{margin:0;font-family:ui-monospace,monospace}
.matrix th.check{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;font-weight:500;padding:6px 2px}
.matrix td.c{text-align:center;min-width:16px;padding:2px}
.passed{background:#dafbe1;color:#116329}.failed{background:#ffebe9;color:#a40e26;font-weight:700}.skipped{background:#eaeef2;color:#57606a}.blocked{background:#fff1e5;color:#953800}.inconclusive{background:#f5f0ff;color:#6639ba}.not-covered{color:#afb8c1}
.matrix td.op{font-family:ui-monospace,monospace;white-space:nowrap} tr.group td{background:#f6f8fa;font-weight:700}
.failure{border:1px solid #d0d7de;border-left:4px solid #cf222e;padding:8px 12px;margin:10px 0}
.failure.advisory{border-left-color:#bf8700}
pre{background:#f6f8fa;padding:8px;overflow-x:auto;font-size:12px;white-space:pre-wrap;word-break:break-all}
.legend span{display:inline-block;padding:1px 6px;margin-right:6px;border:1px solid #d0d7de}
.small{font-size:12px;color:#57606a}
`;

const SYMBOL: Record<MatrixCell['status'] | 'not-covered', string> = {
  passed: '✓',
  failed: '✗',
  blocked: '⊘',
  inconclusive: '?',
  skipped: '–',
  'not-covered': '·',
};

function cellHtml(cell: MatrixCell | undefined): string {
  if (!cell) return `<td class="c not-covered" title="not covered">${SYMBOL['not-covered']}</td>`;
  if (cell.status === 'failed') {
    const links = (cell.failures ?? [])
      .map((f) => `<a href="#${e(f.failure)}" title="${e(f.clause)}">${SYMBOL.failed}</a>`)
      .join('');
    return `<td class="c failed" title="failed: ${e((cell.failures ?? []).map((f) => f.clause).join('; '))}">${links || SYMBOL.failed}</td>`;
  }
  if (cell.status !== 'passed')
    return `<td class="c ${cell.status}" title="${cell.status}: ${e((cell.skipReasons ?? []).join('; '))}">${SYMBOL[cell.status]}</td>`;
  return `<td class="c passed" title="passed (${cell.tests} test(s))">${SYMBOL.passed}</td>`;
}

function matrixHtml(c: Certificate): string {
  const checks = c.matrix.checks;
  const head = `<tr><th>operation</th><th>clause</th>${checks.map((k) => `<th class="check">${e(k)}</th>`).join('')}</tr>`;
  const out: string[] = [];
  let group = '';
  for (const row of c.matrix.rows) {
    if (row.resource !== group) {
      group = row.resource;
      out.push(`<tr class="group"><td colspan="${checks.length + 2}">${e(group)}</td></tr>`);
    }
    out.push(rowHtml(row, checks));
  }
  return `<table class="matrix"><thead>${head}</thead><tbody>${out.join('\n')}</tbody></table>`;
}

function rowHtml(row: MatrixRow, checks: string[]): string {
  const dep = row.deprecated ? ' <span class="small">(deprecated)</span>' : '';
  const name = `<td class="op" title="${e(row.operationId)}">${e(row.method)} ${e(row.path)}${dep}${row.covered ? '' : ' <span class="small">not covered</span>'}</td>`;
  return `<tr id="op-${e(row.operationId)}">${name}<td>${e(row.clause)}</td>${checks.map((k) => cellHtml(row.cells[k])).join('')}</tr>`;
}

function skipSummaryHtml(c: Certificate): string {
  if (c.verdict.skipped.length === 0) return '<p class="small">Nothing was skipped.</p>';
  const rows = c.verdict.skipped.map(
    (x) => `<tr><td>${x.tests}</td><td class="${x.kind}">${e(x.kind)}</td><td>${e(x.reason)}</td></tr>`,
  );
  return `<table><tr><th>tests</th><th>kind</th><th>why</th></tr>${rows.join('')}</table>`;
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
    const cls =
      c.status === 'failed' ? 'failed' : c.status === 'passed' ? 'passed' : c.status === 'skipped' ? 'skipped' : '';
    return `<tr><td>${e(c.id)}</td><td>${e(c.title)}${c.note ? `<br><span class="small">${e(c.note)}</span>` : ''}</td><td class="${cls}">${e(CLAUSE_STATUS[c.status])}</td><td>${checks}</td></tr>`;
  });
  return `<table><tr><th>clause</th><th>what it says</th><th>status</th><th>checks that enforce it (passed/failed/skipped tests)</th></tr>${rows.join('')}</table>`;
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
    ? ` · <a href="html/index.html#?testId=${encodeURIComponent(f.testId)}">open in the Playwright report</a>`
    : '';
  return `<div class="failure${f.blocking ? '' : ' advisory'}" id="${e(f.id)}">
<strong>${e(f.id)}</strong> [${e(f.check)}] ${e(f.clause)}${f.operationId ? ` — <a href="#op-${e(f.operationId)}">${e(f.operationId)}</a>` : ''} ${f.blocking ? '<span class="failed">blocks certification</span>' : '<span class="small">advisory (reported; fails the run only with --strict)</span>'}${report}
<div class="small">${e(f.title)} · ${f.source === 'traffic' ? 'client traffic' : 'suite'}</div>
<pre>${e(f.message)}${f.pointer !== undefined ? `\nat JSON pointer: ${e(f.pointer || '(root)')}${f.schemaPath ? ` (schema ${e(f.schemaPath)})` : ''}` : ''}</pre>
${exchanges.length ? `<pre>${e(exchanges.join('\n\n———\n\n'))}</pre>` : ''}
${f.curl.length ? `<pre>${e(f.curl.map((c) => `reproduce: ${c}`).join('\n'))}</pre>` : ''}
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
    [
      'checks',
      `${c.counts.passed} passed, ${c.counts.failed} failed (${c.verdict.advisories} advisory), ${c.counts.skipped} skipped (${c.counts.blocked} blocked, ${c.counts.inconclusive} inconclusive) (${c.counts.total} tests)`,
    ],
    [
      'coverage',
      `${c.coverage.covered} of ${c.coverage.total} operations (${c.coverage.percent}%) had a check run on them`,
    ],
  ];
  return `<dl class="facts">${facts.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl>`;
}

/** The badge states the verdict and, for a partial one, how much of the contract it speaks for. */
function badgeText(c: Certificate): string {
  const status = c.verdict.status.replaceAll('-', ' ').toUpperCase();
  return c.verdict.scope === 'partial' ? `${status} — ${c.coverage.percent}% of the contract exercised` : status;
}

export function renderCertificateHtml(c: Certificate): string {
  const title = `FLIS conformance certificate${c.subject.partner ? ` — ${c.subject.partner}` : ''} — ${c.subject.deployment}`;
  const unplaced = c.matrix.unplaced.length
    ? `<h2>Checks not tied to an operation</h2><table><tr><th>check</th><th>test</th><th>status</th></tr>${c.matrix.unplaced.map((u) => `<tr><td>${e(u.check)}</td><td>${e(u.title)}</td><td class="${e(u.status)}">${u.failure ? `<a href="#${e(u.failure)}">${e(u.status)}</a>` : e(u.status)}${u.reason ? ` — ${e(u.reason)}` : ''}</td></tr>`).join('')}</table>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title><style>${STYLE}</style></head>
<body>
<h1>${e(title)}</h1>
<div class="verdict v-${e(c.verdict.status)}">${e(badgeText(c))}</div>
<ul>${c.verdict.reasons.map((r) => `<li>${e(r)}</li>`).join('')}</ul>
${factsHtml(c)}
<h2>Operations × checks</h2>
<p class="legend"><span class="passed">✓ passed</span><span class="failed">✗ failed (links to the failure)</span><span class="skipped">– skipped (hover for why)</span><span class="blocked">⊘ blocked by another check's failure</span><span class="inconclusive">? inconclusive (another writer)</span><span class="not-covered">· not covered</span></p>
${matrixHtml(c)}
<h2>Why checks were skipped</h2>
${skipSummaryHtml(c)}
${unplaced}
<h2>Spec clauses and the checks that enforce them</h2>
${clausesHtml(c.clauses)}
${c.beyondSpec.length ? `<h2>Beyond the spec</h2>${clausesHtml(c.beyondSpec)}` : ''}
<h2>Failures (${c.failures.length})</h2>
${c.failures.length ? c.failures.map(failureHtml).join('\n') : '<p>None.</p>'}
${c.suiteErrors.length ? `<h2>Errors outside any test</h2><pre>${e(c.suiteErrors.join('\n\n'))}</pre>` : ''}
<p class="small">Generated by ${e(c.tool.name)} ${e(c.tool.version)}. The machine-readable certificate is certificate.json beside this file.</p>
</body></html>
`;
}
