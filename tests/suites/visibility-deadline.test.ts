/**
 * The visibility deadline policy (suites/lib/visibility-deadline.ts): the target's deadline outside a property's
 * runs; inside them a cut one, sized from the visibility times seen, once enough writes were seen (or always while
 * shrinking); times seen while shrinking are not the server's usual ones; a poll that runs out of a cut deadline makes
 * its run's failure provisional, one that runs out of the full deadline does not. The tests run in order: the times
 * seen are the worker's, kept across checks.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  noteVisibleAfter,
  pollVisible,
  underDeadlines,
  visibilityDeadlineMs,
} from '../../suites/lib/visibility-deadline.ts';

const FULL_MS = 1000;
process.env.FLIS_GATEWAY_URL = 'http://127.0.0.1:9/apis/v0';
process.env.FLIS_VISIBILITY_TIMEOUT_MS = String(FULL_MS);

const deadlineUnder = (mode: 'full' | 'cut' | 'speculate') => underDeadlines(mode, async () => visibilityDeadlineMs());

test('before any write was seen to show: the full deadline, but while shrinking (100 ms, nothing seen)', async () => {
  assert.equal(visibilityDeadlineMs(), FULL_MS, 'outside a property');
  assert.equal(await deadlineUnder('full'), FULL_MS);
  assert.equal(await deadlineUnder('speculate'), FULL_MS, 'a speculating run cut the deadline on no evidence');
  assert.equal(await deadlineUnder('cut'), 100);
});

test('a speculating run cuts the deadline to four times the usual visibility time, plus 100 ms, once three were seen', async () => {
  noteVisibleAfter(20);
  noteVisibleAfter(20);
  assert.equal(await deadlineUnder('speculate'), FULL_MS, 'two writes seen were taken for the usual time');
  noteVisibleAfter(20);
  assert.equal(await deadlineUnder('speculate'), 4 * 20 + 100);
  assert.equal(visibilityDeadlineMs(), FULL_MS, 'outside a property the deadline was cut');
});

test('a visibility time seen while shrinking is not taken for the usual one', async () => {
  await underDeadlines('cut', async () => noteVisibleAfter(5_000));
  assert.equal(await deadlineUnder('speculate'), 4 * 20 + 100, 'the time seen while shrinking was counted');
});

test('a poll that runs out of a cut deadline makes its run provisional; one of the full deadline, or stopped, does not', async () => {
  const missUnder = (mode: 'full' | 'cut', judge: () => false | 'impossible', share = 1) =>
    underDeadlines(mode, async (cutMisses) => {
      const r = await pollVisible(async () => 'old', judge, share);
      assert.equal(r.ok, false);
      return cutMisses();
    });
  assert.equal(await missUnder('cut', () => false), 1, 'a miss under the cut deadline was not counted');
  assert.equal(await missUnder('cut', () => 'impossible'), 0, 'a poll the judge stopped was counted as a cut miss');
  assert.equal(await missUnder('full', () => false, 0.1), 0, 'a miss under the full deadline was counted as a cut one');
});
