/**
 * The regress reports: regress.json (everything), regress.html (the partners ×
 * operations matrix, then each broken or changed exchange with its cassette
 * line, both answers, pointer and curl) and junit.xml (one test case per
 * partner and operation). Every file is written whole to a temporary file and
 * renamed, and passes through the redaction of every secret of the run first.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors/flis-error.ts';
import { checkNamesIn, claimNamesIn, type OwnedName } from '../errors/owned-paths.ts';
import { readUserFile } from '../errors/user-file.ts';
import { oneLine } from '../reporting/one-line.ts';
import { firstLine, jsonOf } from '../reporting/report-folder.ts';
import { redactText } from '../suites/lib/worker/redact.ts';
import type { Verdict } from './judge.ts';
import type { ExchangeReport, PartnerReport, RegressReport } from './types.ts';

export const REGRESS_JSON = 'regress.json';

function esc(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/**
 * Text for junit.xml: XML 1.0 has no place for most control characters (a partner's name holding one made the file
 * unreadable to CI), so they are written as their escapes; in an attribute, a line break or tab is kept as a
 * character reference, which a parser would otherwise turn into a space.
 */
function xml(s: string): string {
  return esc(s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, (c) => oneLine(c)));
}

function xmlAttr(s: string): string {
  return xml(s).replaceAll('\n', '&#10;').replaceAll('\r', '&#13;').replaceAll('\t', '&#9;');
}

function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export function totalsOf(partners: PartnerReport[]): RegressReport['totals'] {
  const count = (v: Verdict) => partners.filter((p) => p.verdict === v).length;
  return {
    partners: partners.length,
    unchanged: count('unchanged'),
    changed: count('changed'),
    broken: count('broken'),
    exchanges: partners.reduce((n, p) => n + p.exchanges, 0),
    notReplayed: partners.reduce((n, p) => n + p.notReplayed.count, 0),
  };
}

const COLOR: Record<string, string> = {
  broken: '#d32f2f',
  changed: '#f9a825',
  unchanged: '#388e3c',
  blocked: '#7b1fa2',
  'not-replayed': '#9e9e9e',
};

function matrix(r: RegressReport): string {
  const ops = [...new Set(r.partners.flatMap((p) => p.operations.map((c) => c.operation)))].sort();
  const head = `<tr><th>partner</th><th>verdict</th>${ops.map((o) => `<th class="op"><span>${esc(o)}</span></th>`).join('')}</tr>`;
  const rows = r.partners.map((p) => {
    const cells = ops.map((o) => {
      const c = p.operations.find((x) => x.operation === o);
      if (!c) return '<td></td>';
      const title = `${c.exchanges} exchange(s): ${c.unchanged} unchanged, ${c.changed} changed, ${c.broken} broken, ${c.blocked} blocked, ${c.notReplayed} not replayed`;
      return `<td title="${esc(title)}" style="background:${COLOR[c.verdict]}">${esc(c.verdict)}</td>`;
    });
    return `<tr><th><a href="#${esc(p.partner)}">${esc(p.partner)}</a></th><td style="background:${COLOR[p.verdict]}">${p.verdict}</td>${cells.join('')}</tr>`;
  });
  return `<table class="matrix">${head}${rows.join('')}</table>`;
}

function exchangeHtml(x: ExchangeReport): string {
  const findings = x.findings
    .map(
      (f) =>
        `<li><b>${f.verdict}</b> ${esc(f.kind)}${f.pointer !== undefined ? ` at <code>${esc(f.pointer || '(root)')}</code>` : ''}: recorded ${esc(f.recorded)}, now ${esc(f.now)}${f.rule ? ` (${esc(f.rule)})` : ''}</li>`,
    )
    .join('');
  const body = (a?: { status: number; body?: unknown }) =>
    a ? `<pre>${a.status}\n${esc(JSON.stringify(a.body ?? null, null, 2) ?? '')}</pre>` : '<pre>(none)</pre>';
  return `<div class="x ${x.outcome}"><h4>${esc(x.outcome)}: ${esc(x.request)} <small>${esc(x.cassette)}:${x.line}</small></h4>
${x.reason ? `<p>${esc(x.reason)}</p>` : ''}<ul>${findings}</ul>
${x.recorded || x.now ? `<table class="answers"><tr><th>recorded</th><th>now</th></tr><tr><td>${body(x.recorded)}</td><td>${body(x.now)}</td></tr></table>` : ''}
${x.curl ? `<pre class="curl">${esc(x.curl)}</pre>` : ''}</div>`;
}

/** regress.html: the matrix, then every exchange of note (also one partner's page in the registry). */
export function regressHtml(r: RegressReport): string {
  const t = r.totals;
  const partners = r.partners
    .map(
      (p) => `<section id="${esc(p.partner)}"><h3>${esc(p.partner)}: ${p.verdict}</h3>
<p>${esc(p.cassette)}: ${p.exchanges} exchange(s), ${p.replayed} replayed, ${p.blocked} blocked, ${p.notReplayed.count} not replayed${p.notReplayed.reason ? ` (${esc(p.notReplayed.reason)})` : ''}${p.interrupted ? '; interrupted' : ''}</p>
${p.leftBehind.length ? `<p>left behind: ${p.leftBehind.map(esc).join('; ')}</p>` : ''}
${p.notes.map(exchangeHtml).join('\n')}${p.omitted ? `<p>${p.omitted} more exchange(s) of note are in regress.json's counts only.</p>` : ''}</section>`,
    )
    .join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>flis regress</title><style>
body{font:14px system-ui,sans-serif;margin:24px;max-width:1400px}
table.matrix{border-collapse:collapse}table.matrix td,table.matrix th{border:1px solid #ccc;padding:4px 6px;font-size:12px}
table.matrix td{color:#fff;text-align:center}th.op{height:160px;vertical-align:bottom}th.op span{writing-mode:vertical-rl;transform:rotate(180deg)}
pre{background:#f5f5f5;padding:8px;overflow:auto;max-height:300px;font-size:12px}table.answers{width:100%;table-layout:fixed}table.answers td{vertical-align:top}
.x{border-left:4px solid #ccc;padding-left:8px;margin:12px 0}.x.broken{border-color:#d32f2f}.x.changed{border-color:#f9a825}.x.blocked{border-color:#7b1fa2}
</style></head><body>
<h1>flis regress: which partners would break?</h1>
<p>Target ${esc(r.target.deployment)} (${esc(r.target.baseUrl)}), run ${esc(r.runId)}${r.shard ? `, shard ${esc(r.shard)}` : ''}${r.interrupted ? `, interrupted by ${esc(r.interrupted)}` : ''}.
${t.partners} partner(s): <b>${t.broken} broken</b>, ${t.changed} changed within the contract, ${t.unchanged} unchanged; ${t.exchanges} exchange(s), ${t.notReplayed} not replayed${r.target.writes ? '' : ` (${esc(r.target.writesSkippedReason ?? 'read-only target')})`}.</p>
${matrix(r)}
<h2>Partners</h2>
${partners}
</body></html>
`;
}

function junit(r: RegressReport, failOnChanged: boolean): string {
  const suites = r.partners.map((p) => {
    const cases = p.operations.map((c) => {
      const notes = p.notes.filter((x) => (x.operationId ?? '') === c.operation || x.request.startsWith(c.operation));
      const text = notes
        .map(
          (x) =>
            `${x.outcome} ${x.cassette}:${x.line} ${x.request}\n${x.findings.map((f) => `  ${f.verdict} ${f.kind} ${f.pointer ?? ''}: recorded ${f.recorded}, now ${f.now}`).join('\n')}${x.reason ? `\n  ${x.reason}` : ''}${x.curl ? `\n  ${x.curl}` : ''}`,
        )
        .join('\n');
      const fails = c.broken > 0 || (failOnChanged && c.changed > 0);
      const inner = fails
        ? `<failure message="${xmlAttr(`${c.verdict}: ${c.broken} broken, ${c.changed} changed of ${c.exchanges} exchange(s)`)}">${xml(text)}</failure>`
        : c.verdict === 'not-replayed'
          ? `<skipped message="${xmlAttr(p.notReplayed.reason ?? 'not replayed')}"/>`
          : text
            ? `<system-out>${xml(text)}</system-out>`
            : '';
      return `    <testcase classname="${xmlAttr(p.partner)}" name="${xmlAttr(c.operation)}">${inner}</testcase>`;
    });
    const failures = p.operations.filter((c) => c.broken > 0 || (failOnChanged && c.changed > 0)).length;
    const skipped = p.operations.filter((c) => c.verdict === 'not-replayed').length;
    return `  <testsuite name="${xmlAttr(p.partner)}" tests="${p.operations.length}" failures="${failures}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="flis regress">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** What 'flis regress' writes into its report folder, and how each proves flis wrote it (errors/owned-paths.ts). */
export const REGRESS_FILES: OwnedName[] = [
  { name: REGRESS_JSON, kind: 'a regress report', isOurs: (f) => jsonOf(f)?.tool === 'flis regress' },
  {
    name: 'regress.html',
    kind: 'a regress report',
    isOurs: (f) => firstLine(f).includes('<title>flis regress</title>'),
  },
  { name: 'junit.xml', kind: 'a JUnit report', isOurs: (f) => /^<\?xml /.test(firstLine(f)) },
];

/** Checks, with no side effect, that the reports may be written into `dir` (before anything starts). */
export function checkRegressFolder(dir: string, flag: string): void {
  checkNamesIn(dir, flag, REGRESS_FILES);
}

/** Writes the reports into `dir`: a folder the user may share with them, where flis replaces only what it wrote. */
export function writeRegressReports(
  dir: string,
  r: RegressReport,
  secrets: readonly string[],
  failOnChanged: boolean,
  flag = '--report-dir',
): void {
  claimNamesIn(dir, flag, REGRESS_FILES);
  writeAtomic(join(dir, REGRESS_JSON), redactText(`${JSON.stringify(r, null, 2)}\n`, secrets));
  writeAtomic(join(dir, 'regress.html'), redactText(regressHtml(r), secrets));
  writeAtomic(join(dir, 'junit.xml'), redactText(junit(r, failOnChanged), secrets));
}

/** The shards' regress.json as one report: partners in name order, totals recounted. */
export function mergeRegressReports(dirs: string[]): RegressReport {
  const parts = dirs.map((d) => {
    const file = join(d, REGRESS_JSON);
    const notOne = (why: string) => new UsageError(`${file}: not a regress report (${why})`);
    const text = readUserFile(file, REGRESS_JSON, 256 * 1024 * 1024, notOne).toString('utf8');
    try {
      return JSON.parse(text) as RegressReport;
    } catch (e) {
      throw new UsageError(
        `${file}: not a regress report (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
    }
  });
  const first = parts[0]!;
  const seen = new Map<string, string>();
  for (const [i, p] of parts.entries())
    for (const x of p.partners) {
      const other = seen.get(x.partner);
      if (other) throw new UsageError(`partner '${x.partner}' is in two shards: ${other} and ${dirs[i]}`);
      seen.set(x.partner, dirs[i]!);
    }
  const partners = parts.flatMap((p) => p.partners).sort((a, b) => a.partner.localeCompare(b.partner));
  const interrupted = parts.find((p) => p.interrupted)?.interrupted;
  return {
    tool: 'flis regress',
    runId: first.runId,
    target: first.target,
    startedAt: parts.map((p) => p.startedAt).sort()[0] ?? first.startedAt,
    durationMs: Math.max(...parts.map((p) => p.durationMs)),
    partners,
    totals: totalsOf(partners),
    interrupted,
  };
}
