/**
 * The throttled variant (mock/throttle.ts): a token bucket that answers 429 with Retry-After once it is empty,
 * and, behind the flis gateway, a burst larger than the bucket still gets every answer (the 429s are waited out
 * and counted, never passed on).
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

test('the bucket lets a burst through, then asks to wait whole seconds, and refills with time', () => {
  const bucket = new TokenBucket({ perSecond: 2, burst: 3 }, 0);
  assert.deepEqual([bucket.take(0), bucket.take(0), bucket.take(0)], [0, 0, 0]);
  assert.equal(bucket.take(0), 1, 'empty: the next token is half a second away, said as 1 s');
  assert.equal(bucket.take(500), 0, 'one token came back');
  assert.equal(bucket.throttled, 1);
  const slow = new TokenBucket({ perSecond: 0.25, burst: 1 }, 0);
  assert.deepEqual([slow.take(0), slow.take(0)], [0, 4], 'a token every 4 s');
});

test('the throttled mock answers 429 with Retry-After; through the gateway every request gets its answer', async () => {
  const mock = await startMock({
    token: TOKEN,
    port: 0,
    variant: { ...variantPresets.throttled, throttle: { perSecond: 20, burst: 4 } },
  });
  const dispatcher = new Agent();
  const gateway = await startGateway({
    upstreamBaseUrl: mock.baseUrl,
    connection: { dispatcher, tokens: new StaticToken(TOKEN) },
  });
  try {
    const direct = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${mock.baseUrl}/offers`, { headers: { authorization: `Bearer ${TOKEN}` } }),
      ),
    );
    const refused = direct.filter((r) => r.status === 429);
    assert.ok(
      refused.length >= 1,
      `8 at once against a bucket of 4: some are throttled (${direct.map((r) => r.status)})`,
    );
    assert.match(refused[0]?.headers.get('retry-after') ?? '', /^\d+$/);
    const through = await Promise.all(
      Array.from({ length: 12 }, () =>
        fetch(`${gateway.baseUrl}/offers`, { headers: { authorization: `Bearer ${TOKEN}` } }),
      ),
    );
    assert.deepEqual(
      through.map((r) => r.status),
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
