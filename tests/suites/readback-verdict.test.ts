/**
 * Failing fast (issue 17 section 5): pollUntil stops on an 'impossible'
 * verdict without waiting for its deadline, and a read-back is impossible
 * once a field shows neither its value before the write nor the written one.
 * readBackOwner names the one check that owns a field's read-back.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readBackOwner, unmetVerdict, type Expectation } from '../../suites/lib/readback.ts';
import { pollUntil } from '../../core/poll.ts';

describe('pollUntil', () => {
  it('stops at the first impossible answer, long before its deadline', async () => {
    let calls = 0;
    const r = await pollUntil(
      async () => ++calls,
      (n) => (n < 3 ? 'wait' : 'impossible'),
      { timeoutMs: 60_000, intervalMs: 1 },
    );
    assert.deepEqual([r.ok, r.impossible, r.attempts, r.value], [false, true, 3, 3]);
  });

  it('still takes booleans: true accepts, false waits until the deadline', async () => {
    const r = await pollUntil(
      async () => 1,
      () => false,
      { timeoutMs: 20, intervalMs: 5 },
    );
    assert.deepEqual([r.ok, r.impossible], [false, false]);
    assert.equal(
      (
        await pollUntil(
          async () => 1,
          () => true,
          { timeoutMs: 20, intervalMs: 5 },
        )
      ).ok,
      true,
    );
  });
});

describe('unmetVerdict', () => {
  const qty: Expectation[] = [{ pointer: '/quantity', value: 5, compare: 'number' }];
  it('waits while a field still shows its value before the write', () => {
    assert.equal(unmetVerdict({ quantity: 3 }, qty, { quantity: 3 }), 'wait');
  });
  it('is impossible once a field shows a third value', () => {
    assert.equal(unmetVerdict({ quantity: 4 }, qty, { quantity: 3 }), 'impossible');
  });
  it('for a new offer, waits on a field not shown yet and gives up on any other value', () => {
    assert.equal(unmetVerdict({ quantity: null }, qty), 'wait');
    assert.equal(unmetVerdict({}, qty), 'wait');
    assert.equal(unmetVerdict({ quantity: 1 }, qty), 'impossible');
  });
});

describe('readBackOwner', () => {
  it('gives each field one owner', () => {
    assert.equal(readBackOwner(['/quantity']), 'offer-upsert');
    assert.equal(readBackOwner(['/canceled']), 'offer-cancel');
    assert.equal(readBackOwner(['/settled']), 'offer-settled');
    assert.equal(readBackOwner(['/settled', '/offerVersion']), 'offer-upsert');
  });
});
