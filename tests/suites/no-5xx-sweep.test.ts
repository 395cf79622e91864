/**
 * The no-5xx sweep every checkTest runs after the body (suites/lib/no-5xx.ts): a 5xx anywhere fails as no-5xx, and
 * replaces the body's own failure unless that failure already judges the 5xx under HTTP semantics.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

process.env.FLIS_GATEWAY_URL = 'http://127.0.0.1:9/apis/v0';
process.env.FLIS_TOKEN = 'sweep-test-token';

const { CheckBlocked } = await import('../../suites/lib/check-blocked.ts');
const { CheckFailure } = await import('../../core/check-failure.ts');
const { Check } = await import('../../suites/lib/check.ts');
const { NO_5XX, expectNo5xxOnEvery, reportsA5xx } = await import('../../suites/lib/no-5xx.ts');
type Exchange = import('../../core/exchange.ts').Exchange;

function exchange(method: string, path: string, status: number): Exchange {
  return {
    request: { method, url: `http://127.0.0.1:9/apis/v0${path}`, headers: {} },
    response: { status, headers: {}, body: undefined, text: '', durationMs: 1 },
  };
}

function failureOf(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

test('a 5xx among the exchanges fails as no-5xx, naming the operation that answered it', () => {
  const error = failureOf(() =>
    expectNo5xxOnEvery([exchange('GET', '/offers/x', 200), exchange('PUT', '/offers/x', 500)]),
  );
  assert.ok(error instanceof CheckFailure);
  assert.equal(error.record.check, 'no-5xx');
  assert.equal(error.record.clause, 'HTTP semantics');
  assert.equal(error.record.severity, 'contract');
  assert.equal(error.record.operationId, 'upsertOffer');
});

test("no 5xx, no failure: a 4xx or a 2xx is not the sweep's to judge", () => {
  assert.equal(
    failureOf(() => expectNo5xxOnEvery([exchange('GET', '/offers/x', 404), exchange('PUT', '/offers/x', 201)])),
    undefined,
  );
});

test("the body's failure is kept only when it already judges the 5xx", () => {
  const x = exchange('POST', '/offers', 500);
  const own = failureOf(() => new Check({ check: 'unknown-price-strategy' }, []).expectNo5xx(x));
  assert.equal(reportsA5xx(own), true, 'a check that calls expectNo5xx keeps its own record');
  const noFive = failureOf(() => new Check(NO_5XX, []).fail('answered 500', { exchanges: [x] }));
  assert.equal(reportsA5xx(noFive), true, "no-5xx's own failure is kept");
  const other = failureOf(() => new Check({ check: 'offer-upsert' }, []).expectSuccess(x));
  assert.equal(reportsA5xx(other), false, 'a failure about something else gives way to no-5xx');
  assert.equal(reportsA5xx(new CheckBlocked('response-schema', 'getOffer', 'shape', [])), false);
  assert.equal(reportsA5xx(new Error('a bug')), false);
  assert.equal(reportsA5xx(undefined), false);
});
