/**
 * checkProperty with independent runs: the runs go side by side, but on exactly
 * the inputs, and with exactly the verdict, of fast-check's own sequential run
 * (the earliest failing run by index, replayed and shrunk; a blocked earliest
 * run blocks the check).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { CheckBlocked } from '../../suites/lib/check-blocked.ts';
import { CheckFailure } from '../../core/check-failure.ts';
import type { CheckContext } from '../../suites/lib/check-context.ts';
import { checkProperty } from '../../suites/lib/property.ts';

const SEED = 9_041;
const RUNS = 24;
process.env.FLIS_GATEWAY_URL = 'http://127.0.0.1:9/apis/v0';
process.env.FLIS_SEED = String(SEED);
process.env.FLIS_RUNS = String(RUNS);
process.env.FLIS_VISIBILITY_TIMEOUT_MS = '1000';
process.env.FLIS_CONCURRENCY = '12';

function fakeContext(): CheckContext {
  const testInfo = { timeout: 30_000, expectedStatus: 'passed', setTimeout: () => undefined, annotations: [] };
  return {
    api: { exchanges: [] },
    check: { meta: { check: 'demo-check', clause: 'spec 0' } },
    testInfo,
  } as unknown as CheckContext;
}

const tick = () => new Promise<void>((done) => setImmediate(done));

/** What fast-check's own sequential run tries, in its order. */
async function sequentialInputs(arb = fc.integer({ min: 0, max: 1_000 })): Promise<number[]> {
  const seen: number[] = [];
  const property = fc.asyncProperty(arb, async (n) => {
    seen.push(n);
  });
  await fc.check(property, { seed: SEED, numRuns: RUNS });
  return seen;
}

test('independent runs try exactly fast-check’s inputs, several at once', async () => {
  const seen: number[] = [];
  let running = 0;
  let peak = 0;
  await checkProperty(
    fakeContext(),
    [fc.integer({ min: 0, max: 1_000 })],
    async (n) => {
      seen.push(n);
      running++;
      peak = Math.max(peak, running);
      await tick();
      running--;
    },
    { independentRuns: true },
  );
  assert.deepEqual(
    [...seen].sort((a, b) => a - b),
    [...(await sequentialInputs())].sort((a, b) => a - b),
  );
  assert.equal(peak, 4, 'a third of the 12 requests a check may have in flight');
});

test('the earliest failing run is the one reported, shrunk, with its seed and a path from its index', async () => {
  const inputs = await sequentialInputs();
  const failing = (n: number) => n >= 500;
  const earliest = inputs.findIndex(failing);
  assert.ok(earliest >= 0 && inputs.slice(earliest + 1).some(failing), 'the seed gives more than one failing run');
  const error = await checkProperty(
    fakeContext(),
    [fc.integer({ min: 0, max: 1_000 })],
    async (n) => {
      await tick();
      if (failing(n)) throw new Error(`too big: ${n}`);
    },
    { independentRuns: true },
  ).then(
    () => assert.fail('the property passed'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof CheckFailure, String(error));
  const p = error.record.property;
  assert.equal(p?.seed, SEED);
  assert.equal(p?.path.split(':')[0], String(earliest));
  assert.equal(p?.counterexample, '[500]', 'shrunk to the smallest failing input');
  assert.equal(p?.numRuns, earliest + 1);
});

test('a blocked earliest run blocks the check, even when a later run fails', async () => {
  // Wide integers, so each input names its run.
  const inputs = await sequentialInputs(fc.integer());
  const blockedAt = 2;
  assert.equal(new Set(inputs).size, inputs.length);
  await assert.rejects(
    checkProperty(
      fakeContext(),
      [fc.integer()],
      async (n) => {
        const i = inputs.indexOf(n);
        // Later runs fail at once; the earliest failing run is the blocked one, which answers last.
        if (i > blockedAt) throw new Error('a later failure');
        if (i === blockedAt) {
          for (let k = 0; k < 20; k++) await tick();
          throw new CheckBlocked('offer-upsert', 'getOffer', 'the owner failed');
        }
      },
      { independentRuns: true },
    ),
    (e: unknown) => e instanceof CheckBlocked,
  );
});

test('a run that fails only beside the others is replayed alone, with the runs after it: it passes, with a note', async () => {
  const ctx = fakeContext();
  let running = 0;
  let sequentialRuns = 0;
  await checkProperty(
    ctx,
    [fc.integer({ min: 0, max: 1_000 })],
    async () => {
      running++;
      await tick();
      const clash = running > 1;
      running--;
      if (!clash) sequentialRuns++;
      // Two runs' writes meeting (another check's fault, say two creates answering one id) shows only side by side.
      if (clash) throw new Error('met another run');
    },
    { independentRuns: true },
  );
  assert.ok(sequentialRuns > 0, 'the failing run was made again alone');
  const notes = ctx.testInfo.annotations.filter((a) => a.type === 'note').map((a) => a.description ?? '');
  assert.equal(notes.length, 1);
  assert.match(notes[0] ?? '', /failed while the runs went side by side and passed alone, as did the runs after it/);
});

test('a generator that throws is reported, as a sequential run reports it, not passed over', async () => {
  const broken = fc.integer({ min: 0, max: 1_000 }).map((n) => {
    if (n > 500) throw new Error('the generator broke');
    return n;
  });
  await assert.rejects(
    checkProperty(fakeContext(), [broken], async () => undefined, { independentRuns: true }),
    (e: unknown) => e instanceof Error && /the generator broke/.test(e.message),
  );
});

/** Arrays of records: a failing value with many shrinks. Counts the values fast-check builds, shrinks included. */
function countedRecords(): { arb: fc.Arbitrary<{ id: string; n: number }[]>; built: () => number } {
  let built = 0;
  const arb = fc
    .array(fc.record({ id: fc.string({ minLength: 3 }), n: fc.integer() }), { minLength: 8, maxLength: 20 })
    .map((items) => {
      built++;
      return items;
    });
  return { arb, built: () => built };
}

test('a blocked property ends its search at once: fast-check builds no shrinks of the blocked value', async () => {
  for (const independentRuns of [false, true]) {
    const { arb, built } = countedRecords();
    let calls = 0;
    await assert.rejects(
      checkProperty(
        fakeContext(),
        [arb],
        async () => {
          calls++;
          throw new CheckBlocked('offer-upsert', 'getOffer', 'the owner failed');
        },
        { independentRuns },
      ),
      (e: unknown) => e instanceof CheckBlocked,
    );
    // Passing each further candidate instead made fast-check build every shrink of the value: hundreds.
    assert.ok(built() <= RUNS + 4, `independentRuns ${independentRuns}: ${built()} values built`);
    // Side by side, the runs already under way (4 at once) are blocked too; then the earliest is replayed alone.
    assert.ok(calls <= (independentRuns ? 6 : 2), `independentRuns ${independentRuns}: the body ran ${calls} times`);
  }
});

test('past its shrink budget a property stops at once and reports the last failure it shrank to', async () => {
  const { arb, built } = countedRecords();
  let calls = 0;
  const error = await checkProperty(
    fakeContext(),
    [arb],
    async () => {
      calls++;
      throw new Error('always fails');
    },
    { shrinkBudgetMs: -1 },
  ).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error instanceof CheckFailure, `a check failure, not ${String(error)}`);
  assert.match(error.record.message, /shrinking stopped after its -1 ms budget/);
  // The first failure, the one candidate that met the spent budget, and the confirmation at the full deadline.
  assert.ok(calls <= 3, `the body ran ${calls} times`);
  assert.ok(built() <= 3, `${built()} values built`);
});
