/**
 * A 3-shard run merged gives the certificate an unsharded run gives: same
 * verdict, same matrix (cells, failures, skips), same coverage. The invoices
 * and billing suites (9 tests, a small selection keeps the file quick) run
 * against the embedded mock with one fault on, so the matrix holds a failure
 * as well as passes; every run uses the same seed and run id.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { mergeCommand } from '../../cli/commands/merge.ts';
import { runCommand as flisRun } from '../../cli/commands/run.ts';
import type { Certificate } from '../../reporting/certificate-types.ts';
import { runCommand, type CommandResult } from './helpers.ts';

const root = mkdtempSync(join(tmpdir(), 'flis-shards-'));
const common = [
  '--suite',
  'invoices,billing',
  '--seed',
  '11',
  '--runs',
  '3',
  '--progress',
  'none',
  '--mock-fault',
  'page-repeats',
];
const env = { ...process.env, FLIS_RUN_ID: 'flis-shard-test' };
const readCert = (d: string) => JSON.parse(readFileSync(join(root, d, 'certificate.json'), 'utf8')) as Certificate;
let merged: CommandResult;
const shardRuns: CommandResult[] = [];

before(async () => {
  // Two at a time: the machines have two cores, and each run starts its own Playwright.
  const [whole, s1] = await Promise.all([
    runCommand(flisRun, [...common, '--report-dir', join(root, 'whole'), '--workers', '1'], env),
    runCommand(flisRun, [...common, '--report-dir', join(root, 's1'), '--shard', '1/3', '--workers', '1'], env),
  ]);
  const [s2, s3] = await Promise.all(
    [2, 3].map((i) =>
      runCommand(flisRun, [...common, '--report-dir', join(root, `s${i}`), '--shard', `${i}/3`, '--workers', '1'], env),
    ),
  );
  shardRuns.push(whole, s1, s2!, s3!);
  merged = await runCommand(
    mergeCommand,
    [join(root, 's1'), join(root, 's2'), join(root, 's3'), '--report-dir', join(root, 'merged')],
    env,
  );
});
after(() => rmSync(root, { recursive: true, force: true }));

describe('sharded runs merged', () => {
  it('each shard leaves a blob report; the merge writes one Playwright report and one Allure result set', () => {
    for (const i of [1, 2, 3])
      assert.ok(existsSync(join(root, `s${i}`, 'blob', `report-${i}-of-3.zip`)), `shard ${i} blob`);
    for (const f of ['html/index.html', 'junit.xml', 'results.json', 'allure-results', 'certificate.html'])
      assert.ok(existsSync(join(root, 'merged', f)), f);
  });

  it('exits 1, like the unsharded run, since the fault fails a check', () => {
    assert.equal(shardRuns[0]?.code, 1, shardRuns[0]?.out);
    assert.equal(merged.code, 1, `${merged.out}\n${merged.err}`);
    assert.doesNotMatch(merged.err, /warning/, 'the shards share seed, run id and deployment');
  });

  it('gives the same verdict, matrix and coverage as the unsharded run', () => {
    const whole = readCert('whole');
    const m = readCert('merged');
    assert.equal(whole.verdict.status, 'not-certified');
    assert.deepEqual(m.verdict, whole.verdict);
    assert.deepEqual(m.matrix, whole.matrix);
    assert.deepEqual(m.coverage, whole.coverage);
    assert.deepEqual(m.counts, whole.counts);
    assert.deepEqual(m.run.mergedShards, ['1/3', '2/3', '3/3']);
  });

  it('a single shard is partial: it says so and covers less', () => {
    const s2 = readCert('s2');
    assert.equal(s2.run.shard, '2/3');
    assert.ok(s2.counts.total < readCert('whole').counts.total);
  });
});
