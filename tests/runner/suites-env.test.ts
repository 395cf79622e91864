/**
 * The runner gives Playwright the variables of core/suite-env.ts, each from the run's options, and of its own
 * environment only what a child process needs (docs/architecture.md): a FLIS_SHARD or another run's FLIS_REPRODUCE
 * left over in the user's shell never reaches the suites. Checked on the env builder, then on a real run of one suite
 * against the embedded mock with such a shell.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startMock } from '../../mock/server.ts';
import { PLATFORM_ENV_NAMES, runSuites, type SuiteRunOptions, suitesEnv } from '../../runner/run-suites.ts';
import { DEFAULT_VISIBILITY_TIMEOUT_MS, SUITE_ENV_NAMES } from '../../core/suite-env.ts';

const reportRoot = mkdtempSync(join(tmpdir(), 'flis-suites-env-'));
after(() => rmSync(reportRoot, { recursive: true, force: true }));

const STALE_REPRODUCE = 'npx flis run --seed 1 --mock-fault invalid-body-accepted (another run)';

/** A user's shell after an earlier sharded run and an earlier reproduction, with a secret of its own. */
const staleShell: NodeJS.ProcessEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/partner',
  NODE_OPTIONS: '--max-old-space-size=2048',
  FLIS_SHARD: '1/3',
  FLIS_REPRODUCE: STALE_REPRODUCE,
  FLIS_VISIBILITY_TIMEOUT_MS: '5',
  FLIS_WORLD_MODEL: 'off',
  AWS_SECRET_ACCESS_KEY: 'not-for-the-suites',
};

const options: SuiteRunOptions = {
  baseUrl: 'http://127.0.0.1:9/apis/v0',
  token: 'tok',
  deployment: 'embedded',
  allowWrites: true,
  reportDir: '/tmp/flis-reports',
};

test('a stale FLIS_SHARD or FLIS_REPRODUCE in the shell does not reach the suites, nor anything else of it', () => {
  const env = suitesEnv(options, 7, 'flis-run-1', staleShell);
  assert.equal(env.FLIS_SHARD, undefined, 'FLIS_SHARD came from the shell');
  assert.equal(env.FLIS_REPRODUCE, undefined, 'FLIS_REPRODUCE came from the shell');
  assert.equal(env.FLIS_VISIBILITY_TIMEOUT_MS, String(DEFAULT_VISIBILITY_TIMEOUT_MS), "the shell's deadline won");
  assert.equal(env.AWS_SECRET_ACCESS_KEY, undefined, 'a variable of no concern to the suites was passed on');
  assert.equal(env.PATH, '/usr/bin:/bin');
  assert.equal(env.HOME, '/home/partner');
  assert.equal(env.NODE_OPTIONS, '--max-old-space-size=2048');
  assert.equal(env.FLIS_WORLD_MODEL, 'off', "the bench's world-model switch is passed on");
});

test("the run's own shard and reproduction are passed, whatever the shell holds", () => {
  const env = suitesEnv({ ...options, shard: '2/3', reproduce: 'npx flis run --seed 7' }, 7, 'flis-run-1', staleShell);
  assert.equal(env.FLIS_SHARD, '2/3');
  assert.equal(env.FLIS_REPRODUCE, 'npx flis run --seed 7');
  assert.equal(env.FLIS_SEED, '7');
  assert.equal(env.FLIS_RUN_ID, 'flis-run-1');
});

test('every variable passed is a suite variable, a platform one or FORCE_COLOR', () => {
  const allowed = new Set<string>([...SUITE_ENV_NAMES, ...PLATFORM_ENV_NAMES, 'FORCE_COLOR']);
  const env = suitesEnv(options, 7, 'flis-run-1', { ...staleShell, ...process.env });
  assert.deepEqual(
    Object.keys(env).filter((k) => !allowed.has(k)),
    [],
  );
});

test('a real run with a stale FLIS_SHARD and FLIS_REPRODUCE in its environment: neither reaches the suites', async () => {
  const token = `suites-env-${randomBytes(12).toString('hex')}`;
  const mock = await startMock({ token, faults: ['invalid-body-accepted'] });
  const reportDir = join(reportRoot, 'stale-shell');
  process.env.FLIS_SHARD = '1/3';
  process.env.FLIS_REPRODUCE = STALE_REPRODUCE;
  try {
    const run = await runSuites({
      baseUrl: mock.baseUrl,
      token,
      deployment: 'embedded',
      allowWrites: true,
      suites: ['bad-input'],
      reportDir,
      runs: 3,
      progress: 'none',
      workers: 1,
      reports: 'results',
    });
    const report = JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as {
      config: { metadata: Record<string, unknown> };
    };
    assert.equal(report.config.metadata.shard, undefined, 'playwright.config.ts read a FLIS_SHARD');
    const failure = run.failures.find((f) => f.check === 'bad-input-rejected');
    assert.ok(failure?.record, `the fault failed bad-input-rejected; failures: ${run.failures.map((f) => f.title)}`);
    assert.equal(failure.record.rerun, undefined, 'the failure record printed the shell’s FLIS_REPRODUCE');
  } finally {
    delete process.env.FLIS_SHARD;
    delete process.env.FLIS_REPRODUCE;
    await mock.close();
  }
});
