import assert from 'node:assert/strict';
import { test } from 'node:test';
import { concurrency, mapBounded, mapBoundedInOrder } from '../../suites/lib/parallel.ts';
import { DEFAULT_CONCURRENCY } from '../../core/suite-env.ts';

test('mapBounded keeps the order of its items and never runs more than the bound at once', async () => {
  let running = 0;
  let peak = 0;
  const out = await mapBounded(
    [5, 1, 4, 2, 3, 0, 6],
    async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setImmediate(r));
      running--;
      return n * 10;
    },
    3,
  );
  assert.deepEqual(out, [50, 10, 40, 20, 30, 0, 60]);
  assert.equal(peak, 3);
});

test('mapBounded starts nothing new after a failure, lets started calls settle, then throws the first error', async () => {
  const started: number[] = [];
  let settled = 0;
  await assert.rejects(
    mapBounded(
      [0, 1, 2, 3, 4, 5],
      async (n) => {
        started.push(n);
        await new Promise((r) => setImmediate(r));
        settled++;
        if (n === 1) throw new Error('first');
        if (n === 0) throw new Error('second');
        return n;
      },
      2,
    ),
    /second|first/,
  );
  assert.deepEqual(started, [0, 1]);
  assert.equal(settled, 2);
});

test('the bound comes from FLIS_CONCURRENCY, else the default', () => {
  assert.equal(concurrency({ FLIS_CONCURRENCY: '3' }), 3);
  assert.equal(concurrency({ FLIS_CONCURRENCY: '0' }), DEFAULT_CONCURRENCY);
  assert.equal(concurrency({}), DEFAULT_CONCURRENCY);
});

test('mapBoundedInOrder throws the error of the earliest failing item, whichever failed first in time', async () => {
  const started: number[] = [];
  const ticks = (n: number) => new Promise<void>((r) => setTimeout(r, n));
  await assert.rejects(
    mapBoundedInOrder(
      [0, 1, 2, 3, 4, 5, 6, 7],
      async (n) => {
        started.push(n);
        // Item 1 fails late, item 2 fails at once: the error is item 1's.
        if (n === 1) {
          await ticks(30);
          throw new Error('item 1');
        }
        if (n === 2) throw new Error('item 2');
        await ticks(5);
        return n;
      },
      3,
    ),
    /item 1/,
  );
  assert.ok(!started.includes(7), `items after the failure still started: ${started.join(', ')}`);
});
