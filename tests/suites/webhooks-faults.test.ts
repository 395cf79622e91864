/**
 * The webhooks suite (spec 6) passes a conformant mock that chooses
 * differently, and catches each webhook fault switch with the check that owns
 * it, with no other check failing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startMock } from '../../mock/server.ts';
import { variantPresets, type MockVariant } from '../../mock/variant.ts';
import { webhookFaultNames, type WebhookFaultName } from '../../mock/webhook-faults.ts';
import { runSuites, type SuiteRunResult } from '../../runner/run-suites.ts';

const TOKEN = 'webhook-faults-token-8f2d';
const root = mkdtempSync(join(tmpdir(), 'flis-webhook-faults-'));
after(() => rmSync(root, { recursive: true, force: true }));

async function runWebhooks(
  label: string,
  setup: { webhookFaults?: WebhookFaultName[]; variant?: MockVariant },
): Promise<SuiteRunResult> {
  const mock = await startMock({ token: TOKEN, ...setup });
  try {
    return await runSuites({
      baseUrl: mock.baseUrl,
      token: TOKEN,
      deployment: 'embedded',
      allowWrites: true,
      suites: ['webhooks'],
      reportDir: join(root, label),
      runId: `flis-webhooks-${label}`,
      progress: 'none',
      workers: 2,
      // A missing trigger waits out this deadline; short keeps the file quick, long enough for a loaded machine.
      visibilityTimeoutMs: 3_000,
    });
  } finally {
    await mock.close();
  }
}

const owner: Record<WebhookFaultName, string> = {
  'webhook-envelope-invalid': 'webhook-envelope',
  'webhook-booking-partial': 'webhook-booking-payload',
  'webhook-booking-update-missing': 'webhook-booking-updated',
  'webhook-fact-missing': 'webhook-fact',
};

function failedChecks(r: SuiteRunResult): string[] {
  return r.failures.map((f) => f.check ?? '?').sort();
}

describe('webhooks suite against the mock', () => {
  // The clean mock passes the webhooks suite in tests/reporting/run-reports.test.ts.
  it('passes the "different" conformant variant (201s, uuids, extra fields)', async () => {
    const r = await runWebhooks('different', { variant: variantPresets.different });
    assert.deepEqual(failedChecks(r), []);
    assert.equal(r.passed, 5, `passed ${r.passed}, skipped ${r.skipped}`);
  });

  it('passes the "offer-versions" conformant variant (ids that need percent-encoding)', async () => {
    const r = await runWebhooks('offer-versions', { variant: variantPresets['offer-versions'] });
    assert.deepEqual(failedChecks(r), []);
    assert.equal(r.passed, 5, `passed ${r.passed}, skipped ${r.skipped}`);
  });

  it('names an owner for every webhook fault', () => {
    assert.deepEqual(Object.keys(owner).sort(), [...webhookFaultNames].sort());
  });

  // Two faults per run, chosen so neither hides the other: each run fails exactly the two owners, every other check passes.
  const pairs: WebhookFaultName[][] = [
    ['webhook-envelope-invalid', 'webhook-fact-missing'],
    ['webhook-booking-partial', 'webhook-booking-update-missing'],
  ];
  it(`catches each webhook fault with its own check only (${pairs.map((p) => p.join(' + ')).join('; ')})`, async () => {
    const runs = await Promise.all(pairs.map((p) => runWebhooks(p.join('+'), { webhookFaults: p })));
    pairs.forEach((pair, i) => {
      const r = runs[i]!;
      assert.equal(r.exitCode, 1, `the suite passed with ${pair.join(', ')} on`);
      assert.deepEqual(failedChecks(r), pair.map((f) => owner[f]).sort(), pair.join(', '));
      for (const f of r.failures)
        assert.ok(f.record && /spec 6/.test(f.record.clause), `${f.check}: the failure cites spec 6`);
    });
  });
});
