/**
 * `flis merge`: the report folders of the shards of one run (`flis run --shard
 * I/N`, each uploaded by its CI job) become one report folder: one Playwright
 * report (html, junit, json) merged by Playwright from the shards' blobs, one
 * Allure result set (result files are uuid-named, so the union is the merge),
 * the workers' traffic summaries side by side, and the facts of the run
 * (deployment, seed, run id) for the certificate, checked to agree.
 */
import { spawn } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { ConfigError, FlisError } from '../errors/flis-error.ts';
import { openRegular, readUserFile, unreadableWhy } from '../errors/user-file.ts';
import { redactText } from '../suites/lib/worker/redact.ts';
import type { Certificate, CertificateSubject, RunFacts } from './certificate.ts';
import { clearReportFolder } from './report-folder.ts';
import { CERTIFICATE_JSON } from './write-certificate.ts';

/** A shard's certificate.json: a few MB at most for the whole contract. */
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

const PLAYWRIGHT_CLI = createRequire(import.meta.url).resolve('@playwright/test/cli');

export interface MergedShards {
  subject: CertificateSubject;
  facts: Omit<RunFacts, 'cassettes'>;
  /** Disagreements between shards (a different seed or deployment), for the log. */
  warnings: string[];
}

function filesIn(dir: string, suffix: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(suffix))
        .sort()
    : [];
}

function copyAll(from: string, to: string, suffix = ''): number {
  const files = filesIn(from, suffix);
  if (files.length) mkdirSync(to, { recursive: true });
  for (const f of files) copyFileSync(join(from, f), join(to, f));
  return files.length;
}

function runMergeReports(blobDir: string, outDir: string, secrets: readonly string[]): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'flis-merge-'));
  const config = join(work, 'merge.config.mjs');
  const reporters = [
    ['html', { outputFolder: join(outDir, 'html'), open: 'never' }],
    ['junit', { outputFile: join(outDir, 'junit.xml') }],
    ['json', { outputFile: join(outDir, 'results.json') }],
  ];
  writeFileSync(config, `export default ${JSON.stringify({ reporter: reporters })};\n`);
  return new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, [PLAYWRIGHT_CLI, 'merge-reports', '--config', config, blobDir], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (output += b.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) => {
      rmSync(work, { recursive: true, force: true });
      if (code === 0 && existsSync(join(outDir, 'results.json'))) done();
      else {
        // One line: the error Playwright names, not its stack.
        const said = redactText(output, secrets)
          .split('\n')
          .map((l) => l.trim())
          .find((l) => /error/i.test(l) && !/^at /.test(l));
        fail(
          new FlisError('FLIS_ERR_INTERNAL', `playwright merge-reports exited ${code}: ${said ?? 'no error named'}`),
        );
      }
    });
  });
}

function shardCertificate(dir: string): Certificate {
  const file = join(dir, CERTIFICATE_JSON);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new ConfigError(`not a folder; pass the report folders that 'flis run --shard I/N' wrote`, { file: dir });
  if (!existsSync(file))
    throw new FlisError(
      'FLIS_ERR_USAGE',
      `${dir} holds no ${CERTIFICATE_JSON}: pass the report folders that 'flis run --shard I/N' wrote`,
    );
  const text = readUserFile(
    file,
    CERTIFICATE_JSON,
    MAX_REPORT_BYTES,
    (why) => new ConfigError(`cannot be read (${why}); run that shard again, or leave its folder out`, { file }),
  ).toString('utf8');
  let cert: unknown;
  try {
    cert = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(
      `is not a certificate flis wrote (${(e as Error).message}); run that shard again, or leave its folder out`,
      { file },
    );
  }
  const c = cert as Partial<Certificate> | null;
  if (!c || typeof c !== 'object' || !c.run || !c.subject || !c.verdict)
    throw new ConfigError('is not a certificate flis wrote (no run, subject or verdict); run that shard again', {
      file,
    });
  return c as Certificate;
}

/** Zip record signatures (PKWARE APPNOTE 4.3): end of central directory, central and local file headers. */
const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_ZIP_COMMENT = 0xffff;

function readAt(fd: number, position: number, length: number): Buffer {
  const b = Buffer.alloc(length);
  return b.subarray(0, readSync(fd, b, 0, length, position));
}

/** The entry at `local` (a local header) inflates to bytes whose CRC-32 is the one its central header states. */
function entryIntact(fd: number, local: number, method: number, crc: number, compressed: number): boolean {
  const head = readAt(fd, local, 30);
  if (head.length < 30 || head.readUInt32LE(0) !== LOCAL_SIGNATURE) return false;
  const data = readAt(fd, local + 30 + head.readUInt16LE(26) + head.readUInt16LE(28), compressed);
  if (data.length !== compressed) return false;
  try {
    const bytes = method === 0 ? data : method === 8 ? inflateRawSync(data) : undefined;
    return bytes !== undefined && crc32(bytes) === crc;
  } catch {
    return false;
  }
}

/**
 * True when the zip is whole: its end record, every central header, and every entry's data (inflated and checked
 * against its CRC-32, as unzipping would).
 */
function wholeZip(fd: number): boolean {
  const size = fstatSync(fd).size;
  const tailStart = Math.max(0, size - EOCD_SIZE - MAX_ZIP_COMMENT);
  const tail = readAt(fd, tailStart, size - tailStart);
  for (let i = tail.length - EOCD_SIZE; i >= 0; i -= 1) {
    if (tail.readUInt32LE(i) !== EOCD_SIGNATURE) continue;
    const entries = tail.readUInt16LE(i + 10);
    const cdSize = tail.readUInt32LE(i + 12);
    const cdOffset = tail.readUInt32LE(i + 16);
    // Zip64 keeps its sizes elsewhere: a blob report is far too small for it, so its end record is not checked.
    if (cdOffset === 0xffffffff || entries === 0xffff) return true;
    if (entries === 0 || cdOffset + cdSize !== tailStart + i) continue;
    const cd = readAt(fd, cdOffset, cdSize);
    let at = 0;
    for (let n = 0; n < entries; n += 1) {
      if (at + 46 > cd.length || cd.readUInt32LE(at) !== CENTRAL_SIGNATURE) return false;
      const [method, crc, compressed] = [cd.readUInt16LE(at + 10), cd.readUInt32LE(at + 16), cd.readUInt32LE(at + 20)];
      if (!entryIntact(fd, cd.readUInt32LE(at + 42), method, crc, compressed)) return false;
      at += 46 + cd.readUInt16LE(at + 28) + cd.readUInt16LE(at + 30) + cd.readUInt16LE(at + 32);
    }
    return true;
  }
  return false;
}

/**
 * A blob report that is not a whole zip (truncated by an upload, or not a zip at all) would fail deep inside
 * Playwright's merge with a stack trace; it is named here instead, before anything is written.
 */
export function checkBlobZip(file: string): void {
  const o = openRegular(file);
  if (!('fd' in o))
    throw new ConfigError(`cannot be read (${unreadableWhy(o)}); download that shard's blob report again`, { file });
  const fd = o.fd;
  try {
    if (wholeZip(fd)) return;
  } finally {
    closeSync(fd);
  }
  throw new ConfigError(
    "is not a whole zip (truncated or corrupt); download that shard's blob report again, or run the shard again",
    { file },
  );
}

function agreedFacts(certs: Certificate[], dirs: string[]): MergedShards {
  const first = certs[0];
  if (!first) throw new FlisError('FLIS_ERR_USAGE', 'flis merge needs at least one shard report folder');
  const warnings: string[] = [];
  const differs = (what: string, get: (c: Certificate) => unknown) => {
    const values = new Set(certs.map((c) => JSON.stringify(get(c))));
    if (values.size > 1) warnings.push(`the shards disagree on ${what}: ${[...values].join(' vs ')}`);
  };
  differs('the deployment', (c) => c.subject.deployment);
  differs('the seed', (c) => c.run.seed);
  differs('the run id', (c) => c.run.runId);
  const shards = certs.map((c, i) => c.run.shard ?? `(unsharded: ${basename(dirs[i] ?? '')})`);
  const total = Number(certs.find((c) => c.run.shard)?.run.shard?.split('/')[1] ?? certs.length);
  if (new Set(shards).size !== total)
    warnings.push(
      `${new Set(shards).size} distinct shard(s) of ${total} were given (${shards.join(', ')}): the merged certificate covers only those`,
    );
  return {
    subject: {
      deployment: first.subject.deployment,
      baseUrl: first.subject.baseUrl,
      partner: first.subject.partner || undefined,
    },
    facts: {
      seed: first.run.seed,
      runId: first.run.runId,
      suites: first.run.suites,
      allowWrites: first.run.allowWrites,
      mergedShards: [...shards].sort(),
    },
    warnings,
  };
}

/** Merges the shards' report folders into `outDir` and answers the facts the certificate needs. */
export async function mergeShards(
  shardDirs: string[],
  outDir: string,
  secrets: readonly string[],
  outFlag = '--report-dir',
): Promise<MergedShards> {
  const dirs = shardDirs.map((d) => resolve(d));
  const out = resolve(outDir);
  const certs = dirs.map(shardCertificate);
  const merged = agreedFacts(certs, dirs);
  for (const d of dirs) for (const zip of filesIn(join(d, 'blob'), '.zip')) checkBlobZip(join(d, 'blob', zip));
  clearReportFolder(out, outFlag);
  const blobs = join(mkdtempSync(join(tmpdir(), 'flis-blobs-')), 'blob');
  try {
    const n = dirs.reduce((sum, d) => sum + copyAll(join(d, 'blob'), blobs, '.zip'), 0);
    if (n === 0)
      throw new FlisError(
        'FLIS_ERR_USAGE',
        `no blob reports in ${dirs.map((d) => join(d, 'blob')).join(', ')}: run the shards with 'flis run --shard I/N'`,
      );
    mkdirSync(out, { recursive: true });
    await runMergeReports(blobs, out, secrets);
  } finally {
    rmSync(join(blobs, '..'), { recursive: true, force: true });
  }
  for (const d of dirs) copyAll(join(d, 'allure-results'), join(out, 'allure-results'));
  for (const d of dirs) copyAll(join(d, 'observations'), join(out, 'observations'), '.json');
  return merged;
}
