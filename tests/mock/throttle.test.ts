/**
 * The throttled variant (mock/throttle.ts): a quota that answers 429 with Retry-After once it is spent,
 * and, behind the flis gateway, a burst larger than the bucket still gets every answer (the 429s are waited out
 * and counted, never passed on). The bucket runs on the test's clock, so what is throttled does not depend on load.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent } from 'undici';
import { startMock } from '../../mock/server.ts';
import { TokenBucket } from '../../mock/throttle.ts';
import { variantPresets } from '../../mock/variant.ts';
import { StaticToken } from '../../net/static-token.ts';
import { startGateway } from '../../runner/gateway.ts';

const TOKEN = 'throttle-test-token-7c1';

test('the bucket lets a burst through, then asks to wait whole seconds until the quota comes back whole', () => {
  const bucket = new TokenBucket({ perSecond: 2, burst: 3 });
  assert.deepEqual([bucket.take(0), bucket.take(0), bucket.take(0)], [0, 0, 0]);
  assert.equal(bucket.take(0), 2, 'spent: 3 tokens at 2 a second come back 1.5 s later, said as 2 s');
  assert.equal(bucket.take(500), 1, 'still spent half a second later: nothing trickles back');
  assert.deepEqual([bucket.take(1500), bucket.take(1500), bucket.take(1500)], [0, 0, 0], 'the quota came back whole');
  assert.equal(bucket.throttled, 2);
  const slow = new TokenBucket({ perSecond: 0.25, burst: 1 });
  assert.deepEqual([slow.take(0), slow.take(0)], [0, 4], 'a token every 4 s');
});

test('a slow sender is refused the same request a fast one is: what is throttled depends on the requests alone', () => {
  const statuses = (gapMs: number) => {
    const bucket = new TokenBucket({ perSecond: 20, burst: 4 });
    return Array.from({ length: 6 }, (_, i) => (bucket.take(i * gapMs) === 0 ? 200 : 429));
  };
  const fast = statuses(0);
  assert.deepEqual(fast, [200, 200, 200, 200, 429, 429], 'six at once against a quota of 4');
  assert.deepEqual(statuses(40), fast, 'one every 40 ms (a busy machine sending the same burst)');
});

/**
 * The bucket's own clock, moved by the test: what is throttled depends on the requests alone, not on how quickly a
 * busy machine sends them (with a wall clock, a slow enough sender never empties the bucket). Stopped at 0 until the
 * test lets it run; from then on it follows real time, so the gateway's waits refill the bucket as a deployment's would.
 */
function testClock(): { now: () => number; run(): void } {
  let startedAt: number | undefined;
  return {
    now: () => (startedAt === undefined ? 0 : performance.now() - startedAt),
    run: () => {
      startedAt = performance.now();
    },
  };
}

async function until(what: string, ok: () => boolean, deadlineMs = 30_000): Promise<void> {
  const deadline = performance.now() + deadlineMs;
  while (!ok()) {
    if (performance.now() > deadline) assert.fail(`not within ${deadlineMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('the throttled mock answers 429 with Retry-After; through the gateway every request gets its answer', async () => {
  const clock = testClock();
  const mock = await startMock({
    token: TOKEN,
    port: 0,
    variant: { ...variantPresets.throttled, throttle: { perSecond: 20, burst: 4, clock: clock.now } },
  });
  const dispatcher = new Agent();
  const gateway = await startGateway({
    upstreamBaseUrl: mock.baseUrl,
    connection: { dispatcher, tokens: new StaticToken(TOKEN) },
  });
  try {
    // The clock stands still: a bucket of 4 lets exactly 4 of 8 through and refuses the rest.
    const direct = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${mock.baseUrl}/offers`, { headers: { authorization: `Bearer ${TOKEN}` } }),
      ),
    );
    const refused = direct.filter((r) => r.status === 429);
    assert.equal(
      refused.length,
      4,
      `8 at once against a bucket of 4: 4 are throttled (${direct.map((r) => r.status)})`,
    );
    assert.match(refused[0]?.headers.get('retry-after') ?? '', /^\d+$/);
    // Still standing: the empty bucket refuses whatever the gateway sends first, so it must wait; then time runs.
    const through = Promise.all(
      Array.from({ length: 12 }, () =>
        fetch(`${gateway.baseUrl}/offers`, { headers: { authorization: `Bearer ${TOKEN}` } }),
      ),
    );
    await until('the gateway meets a 429', () => gateway.stats().throttled >= 1);
    clock.run();
    assert.deepEqual(
      (await through).map((r) => r.status),
      Array(12).fill(200),
    );
    assert.ok(gateway.stats().throttled >= 1, 'the gateway met the 429s and waited them out');
    assert.ok(gateway.stats().waitedMs >= 1000, 'Retry-After is whole seconds');
  } finally {
    await gateway.close();
    await dispatcher.close();
    await mock.close();
  }
});
