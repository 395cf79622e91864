/** When a token is renewed, on a clock the test moves (no waiting): early, on refusal, and when renewal fails. */
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { type IssuedToken, RenewingToken } from '../../net/renewing-token.ts';
import { SecretBook } from '../../net/secret-book.ts';

/** Issues tok-1, tok-2... living `lifetime` seconds; `failing` makes the next issues throw. */
class Issuer extends RenewingToken {
  calls = 0;
  failing = false;
  constructor(private readonly lifetime: number) {
    super(new SecretBook());
  }
  protected async issue(): Promise<IssuedToken> {
    if (this.failing) throw new Error('token endpoint down');
    this.calls++;
    return { token: `tok-${this.calls}`, expiresIn: this.lifetime };
  }
}

test('renewed at 80% of its lifetime; a failed early renewal keeps the live token until it expires', async (t) => {
  mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
  t.after(() => mock.timers.reset());
  const tokens = new Issuer(100);
  assert.equal(await tokens.current(), 'tok-1');
  mock.timers.tick(79_000);
  assert.equal(await tokens.current(), 'tok-1', 'not yet');
  mock.timers.tick(2_000);
  assert.equal(await tokens.current(), 'tok-2', 'renewed after 80 s of 100');
  tokens.failing = true;
  mock.timers.tick(85_000);
  assert.equal(await tokens.current(), 'tok-2', 'renewal failed, the token still lives');
  mock.timers.tick(20_000);
  await assert.rejects(tokens.current(), /token endpoint down/, 'expired and not renewed: the error');
  tokens.failing = false;
  assert.equal(await tokens.current(), 'tok-3', 'the next call tries again');
  assert.deepEqual(
    tokens.refreshes().map((r) => r.reason),
    ['expires soon (expires_in)', 'expires soon (expires_in)'],
  );
});

test('a one-hour token is renewed a minute early, not twelve', async (t) => {
  mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
  t.after(() => mock.timers.reset());
  const tokens = new Issuer(3600);
  await tokens.current();
  mock.timers.tick(3_530_000);
  assert.equal(await tokens.current(), 'tok-1');
  mock.timers.tick(20_000);
  assert.equal(await tokens.current(), 'tok-2');
});
