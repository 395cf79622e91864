/**
 * `flis run` and `flis certify` parse into one plan (cli/run-plan.ts), so the environment variables one reads the
 * other reads too (certify used to ignore FLIS_ALLOW_WRITES, FLIS_SEED and FLIS_SUITES), and the limits of
 * docs/throttling.md are checked the same way for both: a bad value is a usage error in one line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDuration, parseLimits } from '../../cli/limit-options.ts';
import { parseRunPlan } from '../../cli/run-plan.ts';
import { UsageError } from '../../errors/flis-error.ts';

const live = {
  FLIS_DEPLOYMENT: 'production-1',
  FLIS_PRODUCTION_1_BASE_URL: 'https://prod-1.example.test/apis/v0',
  FLIS_TOKEN: 'run-plan-test-token',
};

for (const command of ['run', 'certify'] as const) {
  test(`${command} reads FLIS_DEPLOYMENT, FLIS_ALLOW_WRITES, FLIS_SEED, FLIS_SUITES and the limits' variables`, async () => {
    const values = command === 'certify' ? { partner: 'Acme' } : {};
    const plan = await parseRunPlan(command, values, {
      ...live,
      FLIS_ALLOW_WRITES: '1',
      FLIS_SEED: '77',
      FLIS_SUITES: 'contract,offers',
      FLIS_MAX_RPS: '40',
      FLIS_REQUEST_TIMEOUT: '1500ms',
      FLIS_CHECK_TIMEOUT: '2m',
      FLIS_MAX_THROTTLE_WAIT: '0s',
    });
    assert.equal(plan.target.name, 'production-1');
    assert.equal(plan.target.allowWrites, true);
    assert.equal(plan.seed, 77);
    assert.deepEqual(plan.suites, ['contract', 'offers']);
    assert.deepEqual(plan.limits, {
      maxRps: 40,
      requestTimeoutMs: 1500,
      checkTimeoutMs: 120_000,
      maxThrottleWaitMs: 0,
    });
    const readOnly = await parseRunPlan(command, values, live);
    assert.equal(readOnly.target.allowWrites, false, 'live data stays read-only without FLIS_ALLOW_WRITES');
  });
}

test('certify names its partner first; its default deployment is the sandbox', async () => {
  await assert.rejects(parseRunPlan('certify', {}, {}), /--partner NAME is required/);
  await assert.rejects(parseRunPlan('certify', { partner: 'Acme' }, {}), /FLIS_SANDBOX_BASE_URL/);
});

test('durations take a unit; bad limits are one-line usage errors naming the form', () => {
  assert.equal(parseDuration('request-timeout', '30s'), 30_000);
  assert.equal(parseDuration('request-timeout', '2.5m'), 150_000);
  assert.equal(parseDuration('request-timeout', '1h'), 3_600_000);
  const bad: [Record<string, string>, RegExp][] = [
    [{ 'max-rps': '0' }, /--max-rps must be a whole number from 1/],
    [{ 'max-rps': '2.5' }, /--max-rps must be a whole number/],
    [{ 'max-in-flight': '0' }, /--max-in-flight must be a whole number from 1/],
    [{ 'request-timeout': '-5s' }, /--request-timeout must be a duration .* got '-5s'/],
    [{ 'request-timeout': '0s' }, /--request-timeout must be a duration from 1ms to 24h/],
    [{ 'request-timeout': '597h' }, /--request-timeout must be a duration from 1ms to 24h.* got '597h'/],
    [{ 'check-timeout': '10' }, /--check-timeout must be a duration .*1500ms, 30s, 2m/],
    [{ 'max-throttle-wait': 'soon' }, /--max-throttle-wait must be a duration/],
  ];
  for (const [values, message] of bad) {
    assert.throws(
      () => parseLimits(values, {}),
      (e: unknown) => e instanceof UsageError && message.test(e.message),
    );
    assert.throws(
      () => parseLimits(values, {}),
      (e: unknown) => !(e as Error).message.includes('\n'),
    );
  }
  // A value from the environment names the variable, the setting the user made.
  assert.throws(() => parseLimits({}, { FLIS_MAX_RPS: '0' }), /FLIS_MAX_RPS must be a whole number/);
  assert.throws(() => parseLimits({ 'max-rps': '0' }, { FLIS_MAX_RPS: '5' }), /: --max-rps must be/);
});

test('--distant and --workers reach the plan; without them the plan leaves the choice to the round trip', async () => {
  const plan = await parseRunPlan('run', { distant: true, workers: '3' }, live);
  assert.equal(plan.distant, true);
  assert.equal(plan.workers, 3);
  const plain = await parseRunPlan('run', {}, live);
  assert.equal(plain.distant, undefined);
  assert.equal(plain.workers, undefined);
});
