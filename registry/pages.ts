/**
 * The registry's pages: the matrix (partners × release candidates, partners × contract versions, each cell a
 * verdict linking to its regress report or certificate) and the login form. Each page is one self-contained file:
 * inline CSS, no script, nothing loaded from anywhere (the server's Content-Security-Policy says so too). A
 * partner's page holds its own row only: the rows are chosen before anything is written.
 */
import { escapeHtml as esc } from '../reporting/escape-html.ts';
import { VERDICT_WORDS } from '../reporting/verdict-words.ts';
import type { Partner, PublicationSummary, ReplaySummary } from './store.ts';

export interface MatrixView {
  /** Whose page it is: the admin sees every partner, a partner its own row. */
  viewer: { admin: true } | { admin: false; partner: string };
  partners: Partner[];
  releases: { name: string; runsOn: string[] }[];
  replays: ReplaySummary[];
  publications: PublicationSummary[];
}

const STYLE = `body{font:14px system-ui,sans-serif;margin:24px;max-width:1400px;color:#222}
h1{font-size:22px}h2{font-size:17px;margin-top:28px}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;font-size:13px;text-align:left}
th.col{vertical-align:bottom}td.cell a{color:#fff;text-decoration:none;display:block}
td.unchanged,td.certified{background:#2e7d32}td.changed,td.certified-with-advisories,td.partial{background:#f9a825}
td.changed a,td.certified-with-advisories a,td.partial a{color:#222}
td.broken,td.not-certified{background:#c62828}td.none{color:#777}
.muted{color:#666;font-size:12px}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head><body>
${body}
</body></html>
`;
}

const REPLAY_WORDS: Record<string, string> = { unchanged: 'UNCHANGED', changed: 'CHANGED', broken: 'BROKEN' };

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

function releaseTable(v: MatrixView): string {
  if (!v.releases.length)
    return '<p class="muted">No release candidate yet: <code>flis regress --registry URL --candidate NAME</code> records one.</p>';
  const head = v.releases
    .map(
      (r) =>
        `<th class="col">${esc(r.name)}${r.runsOn.length ? `<br><span class="muted">on ${esc(r.runsOn.join(', '))}</span>` : ''}</th>`,
    )
    .join('');
  const rows = v.partners.map((p) => {
    const cells = v.releases.map((r) => {
      const x = v.replays.find((y) => y.partner === p.name && y.release === r.name);
      if (!x) return '<td class="none">never replayed</td>';
      const title = `${x.summary} (run ${x.runId}, ${day(x.createdAt)}, publication ${x.publication})`;
      return `<td class="cell ${esc(x.verdict)}" title="${esc(title)}"><a href="/reports/replays/${x.id}" id="replay-${esc(p.name)}-${esc(r.name)}">${REPLAY_WORDS[x.verdict] ?? esc(x.verdict)}</a></td>`;
    });
    return `<tr data-partner="${esc(p.name)}"><th>${esc(p.name)}${p.active ? '' : ' <span class="muted">(inactive)</span>'}</th>${cells.join('')}</tr>`;
  });
  return `<table id="releases"><tr><th>partner</th>${head}</tr>${rows.join('')}</table>`;
}

function contractTable(v: MatrixView): string {
  const contracts: { sha256: string; specVersion: string }[] = [];
  for (const p of [...v.publications].reverse())
    if (!contracts.some((c) => c.sha256 === p.contractSha256))
      contracts.push({ sha256: p.contractSha256, specVersion: p.specVersion });
  if (!contracts.length)
    return '<p class="muted">No certificate yet: <code>flis certify --partner NAME --publish URL</code> publishes one.</p>';
  const head = contracts
    .map(
      (c) => `<th class="col">${esc(c.specVersion)}<br><span class="muted">${esc(c.sha256.slice(0, 12))}</span></th>`,
    )
    .join('');
  const rows = v.partners.map((p) => {
    const cells = contracts.map((c) => {
      const latest = v.publications.filter((x) => x.partner === p.name && x.contractSha256 === c.sha256).at(-1);
      if (!latest) return '<td class="none">not certified</td>';
      const title = `publication ${latest.id} of ${day(latest.createdAt)} on ${latest.deployment}, run ${latest.runId}, flis ${latest.toolVersion}`;
      return `<td class="cell ${esc(latest.verdict)}" title="${esc(title)}"><a href="/reports/certificates/${latest.id}" id="certificate-${esc(p.name)}-${esc(c.sha256.slice(0, 12))}">${VERDICT_WORDS[latest.verdict as keyof typeof VERDICT_WORDS] ?? esc(latest.verdict)}</a></td>`;
    });
    return `<tr data-partner="${esc(p.name)}"><th>${esc(p.name)}</th>${cells.join('')}</tr>`;
  });
  return `<table id="contracts"><tr><th>partner</th>${head}</tr>${rows.join('')}</table>`;
}

export function matrixPage(v: MatrixView): string {
  const who = v.viewer.admin ? 'the admin: every partner' : `partner ${v.viewer.partner}: its own records`;
  return page(
    'flis registry: partners × releases',
    `<h1>flis registry</h1>
<form method="post" action="/logout"><p class="muted">Signed in as ${esc(who)}. <button type="submit">Sign out</button></p></form>
<h2>Partners × release candidates</h2>
<p class="muted">Each cell: the partner's latest replay against the candidate (flis regress), linking to its report.</p>
${releaseTable(v)}
<h2>Partners × contract versions</h2>
<p class="muted">Each cell: the partner's latest certificate against that OpenAPI document (sha256), linking to it.</p>
${contractTable(v)}`,
  );
}

export function loginPage(problem?: string): string {
  return page(
    'flis registry: sign in',
    `<h1>flis registry</h1>
${problem ? `<p><b>${esc(problem)}</b></p>` : ''}
<form method="post" action="/login">
<label>Registry token <input type="password" name="token" autocomplete="off" size="60" required></label>
<button type="submit">Sign in</button>
</form>
<p class="muted">A partner's token shows its own records; the admin's, every partner's.</p>`,
  );
}
