/**
 * A failing property prints how to replay it by its path, not only its seed: the failure record's rerun line (the
 * run's own command, FLIS_REPRODUCE) carries `--path ID:PATH`, and running that very command fails the same check on
 * the same shrunk case, reached at once (one run, no shrinking) rather than searched for again. The fault is one a
 * property catches: the mock ignores `cancel: true` in a write body (offer-cancel, spec 3 rule 4).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readRunOutcomes } from '../../reporting/outcomes.ts';
import type { FailureRecord } from '../../core/check-failure.ts';
import { parseReplayPath, replayPathOf } from '../../core/replay-path.ts';
import { startFlis } from '../runner/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'flis-replay-path-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// One run id for both runs: the generated bodies carry it, so the counterexamples compare as text.
const ENV = { FLIS_TOKEN: 'replay-path-token-0123456789', FLIS_RUN_ID: 'flis-replay-path' };

/** `flis ARGS`, and the offer-cancel failure record of its cancel-by-flag test. */
async function offerCancelFailure(args: string[], reportDir: string): Promise<FailureRecord> {
  const run = startFlis([...args, '--report-dir', reportDir, '--progress', 'none', '--workers', '1'], ENV);
  const code = await run.exited;
  assert.equal(code, 1, `flis ${args.join(' ')} should fail offer-cancel (exit 1), exited ${code}:\n${run.out()}`);
  const { outcomes } = readRunOutcomes(join(reportDir, 'results.json'));
  const failed = outcomes.filter((o) => o.status === 'failed');
  const record = failed.find((o) => o.check === 'offer-cancel' && /cancel: true/.test(o.title))?.record;
  assert.ok(record, `no offer-cancel failure of the cancel flag; failed: ${failed.map((o) => o.title).join('; ')}`);
  return record;
}

/** A failure's first line without what differs between two runs of one case: the offer id a test minted, and timings. */
function finding(r: FailureRecord): string {
  return (r.message.split('\n')[0] ?? '').replace(/\boffer \S+/g, 'offer <id>').replace(/\d+ ms\b/g, '<n> ms');
}

test("a property failure's printed command, with its --path, replays the same failure at once", async () => {
  const first = await offerCancelFailure(
    [
      'run',
      '--suite',
      'offers',
      '--seed',
      '4242',
      '--runs',
      '3',
      '--visibility-timeout',
      '800',
      '--mock-fault',
      'cancel-flag-ignored',
    ],
    join(dir, 'first'),
  );
  const p = first.property;
  assert.ok(p?.id, `the failure names no property id: ${JSON.stringify(p)}`);
  const rerun = first.rerun ?? '';
  assert.match(rerun, /^npx flis run --seed 4242 .*--mock-fault cancel-flag-ignored --path \S+$/, rerun);
  const given = parseReplayPath(rerun.split(' --path ')[1] ?? '');
  assert.deepEqual(given, { property: p.id, path: p.path }, 'the rerun line replays the failing property at its path');

  // The printed command as a user would paste it (npx flis is bin/flis.js here).
  const args = rerun.replace(/^npx flis /, '').split(' ');
  const again = await offerCancelFailure(args, join(dir, 'again'));
  assert.equal(again.property?.id, p.id, 'the same property failed');
  assert.equal(again.property?.path, p.path, 'at the same path');
  assert.equal(again.property?.counterexample, p.counterexample, 'on the same shrunk case');
  assert.equal(finding(again), finding(first), 'with the same finding');
  assert.equal(again.property?.numRuns, 1, 'reached directly by its path, not searched for from the seed');
  assert.match(again.message, /shrunk 0 time\(s\)/, 'replayed at the shrunk case: nothing left to shrink');
});

test('a path names one property: any other keeps to its seed, and a malformed one names none', () => {
  assert.equal(replayPathOf('abc-123.2', 'abc-123.2:3:1:0'), '3:1:0');
  assert.equal(replayPathOf('abc-123.1', 'abc-123.2:3:1:0'), undefined);
  assert.equal(replayPathOf('abc-123.2', undefined), undefined);
  assert.equal(parseReplayPath('3:1:0'), undefined, 'a bare fast-check path names no property');
  assert.equal(parseReplayPath('abc-123.0:3'), undefined, 'ordinals start at 1');
});
