/**
 * A run's report folder (`--report-dir`, FLIS_REPORT_DIR, default reports/): a run owns it, so it clears what
 * it writes there before writing it again (an old certificate.html never sits beside a new run.json), and
 * nothing else. Whose folder it is follows the ownership rule of errors/owned-paths.ts: flis's marker, or an
 * empty folder, or one an older flis left (before the marker) that proves itself flis's.
 */
import { closeSync, readdirSync, readSync } from 'node:fs';
import { openRegular, readUserFile } from '../errors/user-file.ts';
import { join } from 'node:path';
import {
  checkFolder,
  checkNamesIn,
  claimFolder,
  claimNamesIn,
  clearOwned,
  MARKER,
  type OwnedName,
} from '../errors/owned-paths.ts';

/** What `flis run`, `flis certify` and `flis merge` write into the folder: cleared before each of them writes. */
const RUN_OUTPUTS = [
  'html',
  'junit.xml',
  'results.json',
  'run.json',
  'allure-results',
  'allure-report',
  'observations',
  'blob',
  'test-results',
  'drift.json',
  'drift.md',
  'proposed-schemas',
  // certify --client-command: each variant's cassette and log (cli/robustness.ts ROBUSTNESS_DIR)
  'robustness',
] as const;

/** certificate.json, certificate.html, and certify's certificate-<partner>.json/html (certificateBaseName). */
const CERTIFICATE = /^certificate(?:-[a-z0-9-]+)?\.(?:json|html)$/;

/** Kept across runs: the Allure trend history ('flis report'), and what 'flis diff' and 'cassette diff' write. */
const KEPT = ['allure-history.jsonl', 'diff.json', 'diff.md', MARKER];

function isRunOutput(name: string): boolean {
  return (RUN_OUTPUTS as readonly string[]).includes(name) || CERTIFICATE.test(name);
}

/** A JSON file's object, or nothing when it does not read or parse as one. */
export function jsonOf(file: string): Record<string, unknown> | undefined {
  try {
    // A user's file at a name flis writes may be anything (a pipe, a huge file): read only a regular file, bounded.
    const v: unknown = JSON.parse(readUserFile(file, 'a report', 64 * 1024 * 1024).toString('utf8'));
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A report folder an older flis left (no marker): every entry is a name flis writes there, and its run.json or
 * certificate.json is one flis wrote (a run id and a seed; a verdict). A user's file among them disproves it.
 */
export function provesReportFolder(dir: string, entries: string[]): boolean {
  if (!entries.every((e) => isRunOutput(e) || KEPT.includes(e))) return false;
  const run = jsonOf(join(dir, 'run.json'));
  if (run && typeof run.runId === 'string' && typeof run.seed === 'number' && 'deployment' in run) return true;
  const cert = jsonOf(join(dir, 'certificate.json'));
  const runFacts = cert?.run as Record<string, unknown> | undefined;
  if (cert && typeof cert.verdict === 'object' && typeof runFacts?.runId === 'string') return true;
  // A folder only 'flis diff' or 'flis cassette diff' wrote to.
  return Array.isArray(jsonOf(join(dir, 'diff.json'))?.differences);
}

/** Checks the report folder before anything starts, leaving no trace; PathError (exit 2) when it is not flis's. */
export function checkReportFolder(dir: string, flag = '--report-dir'): void {
  checkFolder(dir, { flag, provesOurs: provesReportFolder });
}

/** Creates or adopts the report folder (with the marker); PathError (exit 2) when it is not flis's. */
export function claimReportFolder(dir: string, flag = '--report-dir'): void {
  claimFolder(dir, { flag, provesOurs: provesReportFolder });
}

/** Claims the folder and removes what an earlier run, certify or merge wrote there; the rest stays. */
export function clearReportFolder(dir: string, flag = '--report-dir'): void {
  claimReportFolder(dir, flag);
  clearOwned(dir, readdirSync(dir).filter(isRunOutput));
}

/** A file's first line (of its first 200 bytes). */
export function firstLine(file: string): string {
  const o = openRegular(file);
  if (!('fd' in o)) return '';
  const fd = o.fd;
  try {
    const b = Buffer.alloc(200);
    return (
      b
        .subarray(0, readSync(fd, b, 0, b.length, 0))
        .toString('utf8')
        .split('\n')[0] ?? ''
    );
  } finally {
    closeSync(fd);
  }
}

/** What 'flis diff' and 'flis cassette diff' write, and how each proves it is theirs. */
const DIFF_FILES: OwnedName[] = [
  { name: 'diff.json', kind: 'a diff report', isOurs: (f) => Array.isArray(jsonOf(f)?.differences) },
  { name: 'diff.md', kind: 'a diff report', isOurs: (f) => /^# flis (?:cassette )?diff\b/.test(firstLine(f)) },
];

/**
 * The folder of a diff report (--out, --report-dir): a folder the user may share with it, so only diff.json and
 * diff.md are looked at. Checked with no side effect before anything starts.
 */
export function checkDiffFolder(dir: string, flag: string): void {
  checkNamesIn(dir, flag, DIFF_FILES);
}

/** checkDiffFolder, and the folder created when it does not exist yet; just before the diff is written. */
export function claimDiffFolder(dir: string, flag: string): void {
  claimNamesIn(dir, flag, DIFF_FILES);
}
