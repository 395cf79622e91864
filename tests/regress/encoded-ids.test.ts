/**
 * `flis regress` chains ids that a URL must percent-encode (spec 2: ids are strings, nothing more; the mock's
 * `reserved` id format). A recorded id inside a path is recorded encoded: it is decoded, mapped to the target's id and
 * encoded again; one inside a query value is mapped as it is. Both directions: a target whose ids need encoding, and
 * a recording made against one.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type Client, recordPartner, recordPartners } from '../../bench/partner-clients.ts';
import { startMock } from '../../mock/server.ts';
import type { RegressReport } from '../../regress/types.ts';
import { regress, tempDir, verdicts } from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());
const TOKEN = 'encoded-ids-Qm7vR2xT9pL4sW8n';
const DAYS = 'start=1900-01-01&end=2200-12-31';

/** A billing group read by its id in a path, its customer's groups by the customer's id in a query, and a created offer. */
async function byCustomer(c: Client): Promise<void> {
  const groups = await c.call('GET', `/billingGroups?${DAYS}`);
  const group = groups.body[0];
  await c.call('GET', `/billingGroups/${encodeURIComponent(group.id)}`);
  await c.call('GET', `/billingGroups/${encodeURIComponent(group.id)}/details`);
  await c.call('GET', `/billingGroups?${DAYS}&customerId=${encodeURIComponent(group.customerId)}`);
  await c.call('GET', `/customers/${encodeURIComponent(group.customerId)}`);
  const created = await c.call('POST', '/offers', {});
  await c.call('GET', `/bookings/requestsStatus/batch/${encodeURIComponent(created.body.batchId)}`);
  await c.call('GET', `/offers/${encodeURIComponent(created.body.id)}`);
}

function explain(r: RegressReport): string {
  return JSON.stringify(
    r.partners.flatMap((p) => p.notes),
    null,
    1,
  );
}

function assertAllChained(r: RegressReport, partners: Record<string, string>): void {
  assert.deepEqual(verdicts(r), partners, explain(r));
  for (const p of r.partners) {
    assert.equal(p.blocked, 0, `${p.partner}: every recorded id was chained\n${explain(r)}`);
    assert.equal(p.notReplayed.count, 0, `${p.partner}: ${p.notReplayed.reason ?? ''}`);
  }
}

describe('regress chains ids that need percent-encoding', () => {
  it('onto a target that mints them: in paths re-encoded, in a query value as they are', async () => {
    const cassettes = join(tmp.dir, 'plain');
    await recordPartner(cassettes, 'by-customer', byCustomer);
    await recordPartners(cassettes, 3, ['billing-reader', 'offer-writer']);
    const target = await startMock({ token: TOKEN, variant: { idFormat: 'reserved' } });
    try {
      const r = await regress(
        ['--cassettes', cassettes, '--base-url', target.baseUrl, '--allow-writes'],
        join(tmp.dir, 'plain-report'),
        { env: { FLIS_TOKEN: TOKEN } },
      );
      assertAllChained(r.report, {
        'billing-reader': 'unchanged',
        'by-customer': 'unchanged',
        'offer-writer': 'unchanged',
      });
      assert.equal(r.code, 0, r.err.join('\n'));
    } finally {
      await target.close();
    }
  });

  it('from a recording whose ids need them onto a target that does not', async () => {
    const cassettes = join(tmp.dir, 'reserved');
    const mock = { variant: { idFormat: 'reserved' as const } };
    await recordPartner(cassettes, 'by-customer', byCustomer, mock);
    await recordPartners(cassettes, 3, ['billing-reader', 'offer-writer'], mock);
    const r = await regress(['--cassettes', cassettes], join(tmp.dir, 'reserved-report'));
    assertAllChained(r.report, {
      'billing-reader': 'unchanged',
      'by-customer': 'unchanged',
      'offer-writer': 'unchanged',
    });
    assert.equal(r.code, 0, r.err.join('\n'));
  });
});

it('a recorded path whose id was sent with a bare % (never encoded) is sent again as it was, not a crash', async () => {
  const cassettes = join(tmp.dir, 'bare');
  await recordPartner(cassettes, 'unencoded', async (c) => {
    await c.call('GET', '/offers/50%off');
    await c.call('GET', '/customers');
  });
  const r = await regress(['--cassettes', cassettes], join(tmp.dir, 'bare-report'));
  assert.deepEqual(verdicts(r.report), { unencoded: 'unchanged' }, explain(r.report));
  assert.equal(r.report.totals.exchanges, 2);
  assert.equal(r.code, 0, r.err.join('\n'));
});
