/**
 * Throttling is the deployment's right, never a failure (issue 19): against the embedded mock's throttled variant
 * (a quota of 100 requests a second answering 429 with Retry-After), a full run is CERTIFIED with no
 * failure and nothing inconclusive, on three seeds, and run.json and the certificate say what the run waited.
 * Which requests are throttled depends on the requests alone; tests/mock/throttle.test.ts proves that, and that
 * a throttled burst is waited out whatever the speed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startFlis } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'flis-throttled-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// Side by side: each run has its own mock and bucket, and mostly waits out Retry-After.
describe('the throttled variant on three seeds', { concurrency: 3 }, () => {
  for (const seed of [11, 22, 33]) {
    test(`seed ${seed}: the throttled variant is CERTIFIED, nothing failed or inconclusive`, async () => {
      const reportDir = join(dir, String(seed));
      const run = startFlis(
        ['run', '--mock-variant', 'throttled', '--seed', String(seed), '--progress', 'none', '--report-dir', reportDir],
        {},
      );
      const code = await run.exited;
      assert.equal(code, 0, run.out());
      assert.match(run.out(), /flis run: CERTIFIED/);
      const summary = JSON.parse(readFileSync(join(reportDir, 'run.json'), 'utf8'));
      assert.equal(summary.failed, 0);
      assert.equal(summary.inconclusive, 0);
      assert.ok(summary.network.requests > 1000, 'every request went through the gateway');
      assert.equal(summary.network.timeouts, 0);
      const certificate = JSON.parse(readFileSync(join(reportDir, 'certificate.json'), 'utf8'));
      assert.deepEqual(certificate.run.network, summary.network);
    });
  }
});
