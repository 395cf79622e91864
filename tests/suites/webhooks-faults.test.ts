/**
 * The webhooks suite (spec 6) passes the clean mock and a conformant mock that
 * chooses differently, and catches each webhook fault switch with the check
 * that owns it, and with no other check failing.
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

async function runWebhooks(label: string, setup: { webhookFaults?: WebhookFaultName[]; variant?: MockVariant }): Promise<SuiteRunResult> {
  const mock = await startMock({ token: TOKEN, ...setup });
  try {
    return await runSuites({
      baseUrl: mock.baseUrl, token: TOKEN, deployment: 'embedded', allowWrites: true, suites: ['webhooks'],
      reportDir: join(root, label), runId: `flis-webhooks-${label}`, progress: 'none', workers: 2,
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
  it('passes the clean mock and the "different" conformant variant', async () => {
    const [clean, different] = await Promise.all([runWebhooks('clean', {}), runWebhooks('different', { variant: variantPresets.different })]);
    for (const r of [clean, different]) {
      assert.deepEqual(failedChecks(r), []);
      assert.equal(r.passed, 5, `passed ${r.passed}, skipped ${r.skipped}`);
    }
  });

  it('names an owner for every webhook fault', () => {
    assert.deepEqual(Object.keys(owner).sort(), [...webhookFaultNames].sort());
  });

  for (const pair of [webhookFaultNames.slice(0, 2), webhookFaultNames.slice(2, 4)]) {
    it(`catches ${pair.join(' and ')}, each with its own check only`, async () => {
      const runs = await Promise.all(pair.map((f) => runWebhooks(f, { webhookFaults: [f] })));
      pair.forEach((fault, i) => {
        const r = runs[i]!;
        assert.equal(r.exitCode, 1, `the suite passed with ${fault} on`);
        assert.deepEqual(failedChecks(r), [owner[fault]], `${fault}`);
        const record = r.failures[0]?.record;
        assert.ok(record && /spec 6/.test(record.clause), `${fault}: the failure cites spec 6`);
      });
    });
  }
});
