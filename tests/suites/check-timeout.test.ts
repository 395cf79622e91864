/**
 * The check timeout counts time without an answer (suites/lib/check-timeout.ts): each answer gives the check DUR more
 * from that moment, up to CAP_FACTOR × DUR; a longer budget the check set itself is kept; the reason of a stopped
 * check says which limit stopped it. On a clock of the test's own, so no result depends on the machine's speed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CAP_FACTOR, CheckTimeout, formatDuration, type TimedTest } from '../../suites/lib/check-timeout.ts';

/** A TestInfo's timeout, as Playwright keeps it, and a clock the test moves. */
function timed(timeout: number): { test: TimedTest; clock: { now: number } } {
  const state = { timeout };
  const clock = { now: 1000 };
  return {
    test: {
      get timeout() {
        return state.timeout;
      },
      setTimeout: (ms: number) => {
        state.timeout = ms;
      },
    },
    clock,
  };
}

test('each answer gives the check DUR more from that moment', () => {
  const { test: t, clock } = timed(2000);
  const limit = new CheckTimeout(t, 2000, () => clock.now);
  clock.now += 1500;
  limit.answered();
  assert.equal(t.timeout, 3500, 'an answer 1.5 s in moves the deadline to 1.5 s + DUR');
  clock.now += 1999;
  limit.answered();
  assert.equal(t.timeout, 5499, 'each answer restarts DUR');
});

test('answers extend a check to CAP_FACTOR × DUR and no further', () => {
  const { test: t, clock } = timed(2000);
  const limit = new CheckTimeout(t, 2000, () => clock.now);
  assert.equal(limit.capMs, CAP_FACTOR * 2000);
  for (let i = 0; i < 100; i++) {
    clock.now += 500;
    limit.answered();
  }
  assert.equal(t.timeout, CAP_FACTOR * 2000, 'answered for 50 s, yet the deadline stays at the cap');
  assert.equal(limit.stopReason(), 'the check ran for the 20s cap (10 × --check-timeout) while still getting answers');
});

test('a check that went quiet is stopped DUR after its last answer, and says so', () => {
  const { test: t, clock } = timed(120_000);
  const limit = new CheckTimeout(t, 120_000, () => clock.now);
  clock.now += 30_000.4;
  limit.answered();
  assert.equal(t.timeout, 150_001);
  assert.equal(limit.stopReason(), 'the check got no answer for 2m (--check-timeout)');
});

test('a longer budget the check set itself is kept; past the cap it is named as its own', () => {
  const { test: t, clock } = timed(1000);
  const limit = new CheckTimeout(t, 1000, () => clock.now);
  t.setTimeout(300_000);
  clock.now += 200;
  limit.answered();
  assert.equal(t.timeout, 300_000, 'an answer never shortens the budget');
  assert.equal(limit.stopReason(), 'the check got no answer for 1s (--check-timeout)', 'quiet for 299.8 s');
  for (let i = 0; i < 1000; i++) {
    clock.now += 299;
    limit.answered();
  }
  assert.equal(t.timeout, 300_000);
  assert.equal(limit.stopReason(), 'the check ran for the 5m it set itself while still getting answers');
});

test('after the test is over an answer moves nothing; DUR 0 (no timeout) stays without one', () => {
  const { test: t, clock } = timed(2000);
  const limit = new CheckTimeout(t, 2000, () => clock.now);
  limit.close();
  clock.now += 1000;
  limit.answered();
  assert.equal(t.timeout, 2000, 'a body cut short that still gets answers cannot stretch the hooks after it');
  const none = timed(0);
  new CheckTimeout(none.test, 0, () => none.clock.now).answered();
  assert.equal(none.test.timeout, 0);
});

test('an answer past the deadline rescues nothing, whenever the timer fires', () => {
  const { test: t, clock } = timed(2000);
  const limit = new CheckTimeout(t, 2000, () => clock.now);
  clock.now += 1000;
  limit.answered();
  clock.now += 2000;
  limit.answered();
  assert.equal(t.timeout, 3000, 'an answer at the deadline (3 s) came after DUR without one');
  assert.equal(limit.stopReason(), 'the check got no answer for 2s (--check-timeout)');
});

test('durations read as --check-timeout takes them', () => {
  assert.deepEqual([120_000, 1_200_000, 3000, 1500, 7_200_000, 90_000].map(formatDuration), [
    '2m',
    '20m',
    '3s',
    '1500ms',
    '2h',
    '90s',
  ]);
});
