/**
 * `flis webhooks listen` receives the mock's deliveries, judges and prints
 * each, records them to a cassette the drift report reads, and exits 1 once a
 * delivery broke the contract. The mock-only subscription endpoint is guarded
 * by the token and refuses receivers off the machine.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { webhooksCommand } from '../../cli/commands/webhooks.ts';
import type { CommandIo } from '../../cli/command.ts';
import { startMock } from '../../mock/server.ts';
import type { WebhookFaultName } from '../../mock/webhook-faults.ts';
import { buildDriftReport } from '../../reporting/drift.ts';
import { observationsFromCassette } from '../../reporting/traffic-sources.ts';
import { readCassetteFile } from '../../reporting/cassettes.ts';

const TOKEN = 'listen-token-Rr41';
const dir = mkdtempSync(join(tmpdir(), 'flis-listen-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the listener, lets `drive` cause deliveries against a mock delivering to it, stops it; answers exit code and output. */
async function listenWhile(
  cassette: string,
  webhookFaults: WebhookFaultName[],
  wanted: number,
): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  let stop!: () => void;
  let urlSeen!: (url: string) => void;
  let delivered = 0;
  let allDelivered!: () => void;
  const url = new Promise<string>((r) => (urlSeen = r));
  const done = new Promise<void>((r) => (allDelivered = r));
  const io: CommandIo = {
    out: (l) => {
      lines.push(l);
      const m = l.match(/listening for webhooks at (\S+?),?\s/);
      if (m?.[1]) urlSeen(m[1]);
      if (/^#\d+ /.test(l) && ++delivered === wanted) allDelivered();
    },
    err: (l) => lines.push(l),
    env: {},
    stopped: new Promise<void>((r) => (stop = r)),
  };
  const running = webhooksCommand.run(['listen', '--cassette', cassette], io);
  const mock = await startMock({ token: TOKEN, webhooks: [await url], webhookFaults });
  try {
    const h = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    await fetch(`${mock.baseUrl}/bookings/bk-listen`, {
      method: 'PUT',
      headers: h,
      body: JSON.stringify({ carrierId: 'c-9', reference: 'R-1', pickupAt: '2026-02-01T08:00:00Z' }),
    });
    await fetch(`${mock.baseUrl}/bookings/bk-listen/events/ev-1`, {
      method: 'PUT',
      headers: h,
      body: JSON.stringify({ event: 'LOADED' }),
    });
    await done;
  } finally {
    await mock.close();
    stop();
  }
  return { code: await running, lines };
}

describe('flis webhooks listen', () => {
  it('prints valid deliveries, records them, and the drift report proposes a schema for the BOOKING payload', async () => {
    const file = join(dir, 'hooks.yaml');
    const { code, lines } = await listenWhile(file, [], 2);
    assert.equal(code, 0, lines.join('\n'));
    assert.ok(
      lines.some((l) => /BOOKING: valid/.test(l)) && lines.some((l) => /FACT: valid/.test(l)),
      lines.join('\n'),
    );
    const cassette = readCassetteFile(file);
    assert.deepEqual(cassette.exchanges.map((x) => x.operationId).sort(), ['webhookBooking', 'webhookFact']);
    const proposal = buildDriftReport(observationsFromCassette(file)).proposedSchemas.find(
      (p) => p.operationId === 'webhookBooking',
    );
    const props =
      (proposal?.schema.properties as Record<string, { properties?: Record<string, unknown> }> | undefined)?.payload
        ?.properties ?? {};
    assert.ok('carrierId' in props && 'pickupAt' in props, JSON.stringify(proposal));
  });

  it('exits 1 and names the violation when deliveries break the envelope', async () => {
    const { code, lines } = await listenWhile(join(dir, 'bad.yaml'), ['webhook-envelope-invalid'], 2);
    assert.equal(code, 1);
    assert.ok(
      lines.some((l) => /\[webhook-envelope\] spec 6: .*type/.test(l)),
      lines.join('\n'),
    );
  });
});

describe('the mock-only subscription endpoint', () => {
  it('requires the token and accepts only loopback receivers', async () => {
    const mock = await startMock({ token: TOKEN });
    try {
      const admin = new URL('/__flis/webhooks', mock.baseUrl);
      const put = (url: string, auth = true) =>
        fetch(admin, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${TOKEN}` } : {}) },
          body: JSON.stringify({ url }),
        });
      assert.equal((await put('http://127.0.0.1:9/', false)).status, 401);
      assert.equal((await put('http://10.0.0.8:9/')).status, 400);
      const ok = await put('http://127.0.0.1:9/hooks');
      assert.deepEqual(await ok.json(), { subscribers: ['http://127.0.0.1:9/hooks'] });
    } finally {
      await mock.close();
    }
  });
});
