/** `flis contract diff`'s verdict and its two files: contract-diff.json and contract-diff.md. */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkNamesIn, claimNamesIn, type OwnedName } from '../errors/owned-paths.ts';
import { markdownText } from '../reporting/escape-markdown.ts';
import { firstLine, jsonOf } from '../reporting/report-folder.ts';
import type { ContractChange } from './contract-diff.ts';
import { type PartnerUsage, type SharedSchemaLocator, type Touch, touches } from './contract-usage.ts';

export interface ClassifiedChange extends ContractChange {
  /** For a breaking change, with --cassettes: each partner whose traffic uses it, with the exchange that shows it. */
  partners?: Touch[];
}

export interface ContractDiffReport {
  tool: 'flis contract diff';
  old: { file: string; version: string };
  new: { file: string; version: string };
  cassettes?: { dir: string; partners: { partner: string; file: string; exchanges: number }[] };
  totals: { breaking: number; compatible: number; informational: number; partnersTouched: number };
  changes: ClassifiedChange[];
}

export function contractDiffReport(
  old: { file: string; version: string },
  now: { file: string; version: string },
  changes: ContractChange[],
  usage?: { dir: string; partners: PartnerUsage[]; locator?: SharedSchemaLocator },
): ContractDiffReport {
  const classified: ClassifiedChange[] = changes.map((c) =>
    c.class === 'breaking' && usage
      ? { ...c, partners: usage.partners.flatMap((u) => touches(c, u, usage.locator) ?? []) }
      : { ...c },
  );
  const touched = new Set(classified.flatMap((c) => (c.partners ?? []).map((t) => t.partner)));
  const count = (k: ContractChange['class']) => changes.filter((c) => c.class === k).length;
  return {
    tool: 'flis contract diff',
    old,
    new: now,
    ...(usage
      ? {
          cassettes: {
            dir: usage.dir,
            partners: usage.partners.map((u) => ({ partner: u.partner, file: u.file, exchanges: u.exchanges })),
          },
        }
      : {}),
    totals: {
      breaking: count('breaking'),
      compatible: count('compatible'),
      informational: count('informational'),
      partnersTouched: touched.size,
    },
    changes: classified,
  };
}

const cell = markdownText;

/** How many operations are named before the rest are counted. */
const NAMED_OPERATIONS = 5;

/** Where a change is: its operation, its shared schema and the operations that reach it, or the document. */
export function changeWhere(c: ContractChange): string {
  if (c.component !== undefined) {
    const ops = c.operations ?? [];
    const named = ops.slice(0, NAMED_OPERATIONS).join(', ');
    const more = ops.length > NAMED_OPERATIONS ? ` and ${ops.length - NAMED_OPERATIONS} more` : '';
    return `schema ${c.component}, reaching ${ops.length} operation(s)${ops.length ? `: ${named}${more}` : ''}`;
  }
  return c.operationId ? `${c.operationId} (${c.method} ${c.path})` : '(document)';
}

export function contractDiffMarkdown(r: ContractDiffReport): string {
  const t = r.totals;
  const breaking = r.changes.filter((c) => c.class === 'breaking');
  const others = r.changes.filter((c) => c.class !== 'breaking');
  return [
    '# flis contract diff',
    '',
    `Old: ${cell(r.old.file)} (${cell(r.old.version)}); new: ${cell(r.new.file)} (${cell(r.new.version)}).`,
    '',
    `${t.breaking} breaking for clients, ${t.compatible} compatible, ${t.informational} informational.${r.cassettes ? ` ${t.partnersTouched} of ${r.cassettes.partners.length} partner(s) touched by a breaking change.` : ''}`,
    '',
    '## Breaking for clients',
    '',
    ...(breaking.length
      ? [
          `| id | operation | where | change |${r.cassettes ? ' partners (exchange that shows the use) |' : ''}`,
          `|---|---|---|---|${r.cassettes ? '---|' : ''}`,
          ...breaking.map(
            (c) =>
              `| ${c.id} | ${cell(changeWhere(c))} | ${c.where}${c.pointer ? ` ${cell(c.pointer)}` : ''} | ${cell(c.message)} |${
                r.cassettes
                  ? ` ${c.partners?.length ? c.partners.map((p) => `${cell(p.partner)}: ${cell(`${p.file}:${p.line}`)} ${cell(p.shows)}`).join('<br>') : 'none'} |`
                  : ''
              }`,
          ),
        ]
      : ['None.']),
    '',
    '## Compatible and informational',
    '',
    ...(others.length
      ? [
          '| class | id | operation | change |',
          '|---|---|---|---|',
          ...others.map((c) => `| ${c.class} | ${c.id} | ${cell(changeWhere(c))} | ${cell(c.message)} |`),
        ]
      : ['None.']),
    '',
  ].join('\n');
}

/** What 'flis contract diff' writes, and how each proves flis wrote it (errors/owned-paths.ts). */
export const CONTRACT_DIFF_FILES: OwnedName[] = [
  { name: 'contract-diff.json', kind: 'a contract diff', isOurs: (f) => jsonOf(f)?.tool === 'flis contract diff' },
  { name: 'contract-diff.md', kind: 'a contract diff', isOurs: (f) => firstLine(f) === '# flis contract diff' },
];

/** Checks, with no side effect, that the diff may be written into `dir` (before the documents are read). */
export function checkContractDiffFolder(dir: string, flag: string): void {
  checkNamesIn(dir, flag, CONTRACT_DIFF_FILES);
}

/** Writes the diff into `dir`: a folder the user may share with it, where flis replaces only what it wrote. */
export function writeContractDiff(dir: string, r: ContractDiffReport, flag = '--report-dir'): void {
  claimNamesIn(dir, flag, CONTRACT_DIFF_FILES);
  for (const [name, text] of [
    ['contract-diff.json', `${JSON.stringify(r, null, 2)}\n`],
    ['contract-diff.md', contractDiffMarkdown(r)],
  ] as const) {
    const file = join(dir, name);
    writeFileSync(`${file}.${process.pid}.tmp`, text);
    renameSync(`${file}.${process.pid}.tmp`, file);
  }
}
