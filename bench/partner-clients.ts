/**
 * Three partner clients with different usage, recorded through the real
 * recorder in front of the embedded mock, for the regress bench and tests:
 * - billing-reader reads billing groups and invoices (lists, one of each, details);
 * - offer-writer upserts an offer under its own id and creates one, polling each batch status, then reads both;
 * - bulk-catalogue reads customers and products, writes two offers in one bulk, polls the batch, reads an item.
 * A seed varies what each writes (ids, quantities, references), never which operations it uses.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { startMock, type MockOptions } from '../mock/server.ts';
import { startRecorder } from '../recorder/proxy.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies the clients read fields from, as a partner's client would.
type Json = any;

/** A full offer write body (spec 2.3), varied by `tag`. */
function offerBody(tag: string, overrides: Record<string, unknown> = {}): Json {
  const location = (name: string, lat: number) => ({
    addressText: `${name} depot`,
    latitude: lat,
    longitude: -2.3,
    locationName: name,
    locationId: `${tag}-loc-${name}`,
    externalId: name,
    timezone: 'Europe/London',
    properties: null,
  });
  return {
    offer: {
      references: [`${tag}-ref-1`],
      offerVersion: '3',
      bookingId: `${tag}-booking`,
      carrierId: `${tag}-carrier`,
      quantity: 12.5,
      properties: { lane: 'north' },
      noPayment: true,
      productMassKg: 18000,
      priceTransport: 640.5,
      priceFaf: null,
      fromLocation: location('A', 53.4),
      toLocation: location('B', 51.4),
      transportTimestamp: '2030-05-06T07:08:09+02:00',
      ...overrides,
    },
  };
}

export const PARTNER_TOKEN = 'partner-token-7Hq2mX9vL4pR8sT1';

export interface Client {
  call(method: string, path: string, json?: unknown): Promise<{ status: number; body: Json }>;
}

function client(baseUrl: string): Client {
  return {
    async call(method, path, json) {
      const res = await request(baseUrl + path, {
        method: method as 'GET',
        headers: {
          authorization: `Bearer ${PARTNER_TOKEN}`,
          ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? (JSON.parse(text) as Json) : undefined };
    },
  };
}

/** Polls a batch status until it says it is processed, as a careful client does (no sleeps: the mock writes at once). */
async function pollBatch(c: Client, batchId: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const s = await c.call('GET', `/bookings/requestsStatus/batch/${encodeURIComponent(batchId)}`);
    if (s.status === 200 && (s.body?.progress === 1 || s.body?.status === 'PROCESSED')) return;
  }
  throw new Error(`batch ${batchId} never processed`);
}

export const partnerClients: Record<string, (c: Client, seed: number) => Promise<void>> = {
  'billing-reader': async (c, seed) => {
    const groups = await c.call('GET', '/billingGroups?inactive=false');
    const id = groups.body[seed % groups.body.length].id;
    await c.call('GET', `/billingGroups/${encodeURIComponent(id)}`);
    await c.call('GET', `/billingGroups/${encodeURIComponent(id)}/details`);
    const invoices = await c.call('GET', `/invoices?limit=5&page=1`);
    await c.call('GET', `/invoices/${encodeURIComponent(invoices.body[seed % invoices.body.length].id)}`);
  },
  'offer-writer': async (c, seed) => {
    const own = `ow-${seed}-1`;
    const put = await c.call('PUT', `/offers/${own}`, offerBody(`ow${seed}`, { cancel: false }));
    await pollBatch(c, put.body.batchId);
    await c.call('GET', `/offers/${own}`);
    const body = offerBody(`ow${seed}b`);
    body.offer.quantity = 3 + seed;
    const created = await c.call('POST', '/offers', body);
    await pollBatch(c, created.body.batchId);
    await c.call('GET', `/offers/${encodeURIComponent(created.body.id)}`);
  },
  'bulk-catalogue': async (c, seed) => {
    await c.call('GET', '/customers');
    await c.call('GET', '/products');
    const items = [1, 2].map((i) => ({ id: `bc-${seed}-${i}`, ...offerBody(`bc${seed}${i}`) }));
    const bulk = await c.call('POST', '/offers/bulk', items);
    await pollBatch(c, bulk.body.batchId);
    await c.call('GET', `/offers/bc-${seed}-2`);
  },
};

/** Records each partner's client through the recorder in front of its own embedded mock; returns the directory. */
export async function recordPartners(
  dir: string,
  seed: number,
  names = Object.keys(partnerClients),
  mock: Partial<MockOptions> = {},
): Promise<string> {
  mkdirSync(dir, { recursive: true });
  for (const name of names) await recordPartner(dir, name, (c) => partnerClients[name]!(c, seed), mock);
  return dir;
}

/** Records one client, as `<dir>/<name>.yaml`, through the recorder in front of its own embedded mock. */
export async function recordPartner(
  dir: string,
  name: string,
  run: (c: Client) => Promise<void>,
  mock: Partial<MockOptions> = {},
): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const m = await startMock({ ...mock, token: PARTNER_TOKEN });
  const rec = await startRecorder({
    mode: 'record',
    cassette: join(dir, `${name}.yaml`),
    upstream: { baseUrl: m.baseUrl, deployment: 'embedded' },
    env: { FLIS_TOKEN: PARTNER_TOKEN },
    labels: { partner: name },
    log: () => {},
  });
  try {
    await run(client(rec.baseUrl));
  } finally {
    await rec.close();
    await m.close();
  }
}
