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
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { FlisError } from '../errors/flis-error.ts';
import { redactText } from '../suites/lib/redact.ts';
import type { Certificate, CertificateSubject, RunFacts } from './certificate.ts';
import { CERTIFICATE_JSON } from './write-certificate.ts';

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
      else
        fail(
          new FlisError(
            'FLIS_ERR_INTERNAL',
            `playwright merge-reports exited ${code}:\n${redactText(output, secrets).slice(-2000)}`,
          ),
        );
    });
  });
}

function shardCertificate(dir: string): Certificate {
  const file = join(dir, CERTIFICATE_JSON);
  if (!existsSync(file))
    throw new FlisError(
      'FLIS_ERR_USAGE',
      `${dir} holds no ${CERTIFICATE_JSON}: pass the report folders that 'flis run --shard I/N' wrote`,
    );
  return JSON.parse(readFileSync(file, 'utf8')) as Certificate;
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
      ...(first.subject.partner ? { partner: first.subject.partner } : {}),
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
): Promise<MergedShards> {
  const dirs = shardDirs.map((d) => resolve(d));
  const out = resolve(outDir);
  const certs = dirs.map(shardCertificate);
  const merged = agreedFacts(certs, dirs);
  for (const stale of ['allure-results', 'observations', 'html', 'results.json', 'junit.xml'])
    rmSync(join(out, stale), { recursive: true, force: true });
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
