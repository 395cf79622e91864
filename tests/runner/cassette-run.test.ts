/**
 * `flis run --record FILE` then `flis run --cassette FILE`: a suite run recorded
 * against the embedded mock passes again offline from its cassette, reusing the
 * recorded run id, seed and clock (issue: the suite run from a cassette).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'flis-cassette-run-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function flis(args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/flis.js'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, FLIS_TOKEN: '' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function runSummary(reportDir: string): { seed: number; runId: string; passed: number; failed: number } {
  return JSON.parse(readFileSync(join(reportDir, 'run.json'), 'utf8')) as {
    seed: number;
    runId: string;
    passed: number;
    failed: number;
  };
}

test('a suite run recorded into a cassette passes again offline from it, with the same run id and seed', () => {
  const cassette = join(dir, 'run.yaml');
  const recorded = flis([
    'run',
    '--record',
    cassette,
    '--suite',
    'contract,offers',
    '--runs',
    '2',
    '--progress',
    'none',
    '--report-dir',
    join(dir, 'recorded'),
  ]);
  assert.equal(recorded.code, 0, recorded.out + recorded.err);
  const header = readFileSync(cassette, 'utf8').split('\n...\n')[0]!;
  assert.match(header, /labels:[\s\S]*runId: flis-[\s\S]*seed: "\d+"[\s\S]*startedAt: "\d+"/);

  const replayed = flis(['run', '--cassette', cassette, '--progress', 'none', '--report-dir', join(dir, 'replayed')]);
  assert.equal(replayed.code, 0, replayed.out + replayed.err);
  const [a, b] = [runSummary(join(dir, 'recorded')), runSummary(join(dir, 'replayed'))];
  assert.equal(b.runId, a.runId);
  assert.equal(b.seed, a.seed);
  assert.equal(b.failed, 0);
  assert.equal(b.passed, a.passed);
});

test('--cassette with a cassette that did not come from a suite run says how to make one (exit 2)', () => {
  const file = join(dir, 'bare.yaml');
  const header =
    '---\nformat: 1\nkind: flis-cassette\nrecordedAt: "2026-01-01T00:00:00Z"\ndeployment: null\nupstream: null\nspecVersion: "1.0.0"\ntool:\n  name: flis-conformance\n  version: "0.1.0"\n...\n';
  writeFileSync(file, header);
  const r = flis(['run', '--cassette', file]);
  assert.equal(r.code, 2);
  assert.match(r.err, /flis run --record FILE/);
  assert.match(r.err, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1`));
});

test('--record and --cassette together, or --cassette with a target, are usage errors', () => {
  assert.equal(flis(['run', '--record', join(dir, 'a.yaml'), '--cassette', join(dir, 'b.yaml')]).code, 2);
});
