/**
 * The generators and the write schemas cannot drift apart silently: every body
 * a generator makes validates against the schema the server validates it with,
 * every deliberately bad body does not, and every id written carries the run id.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { validate, type SchemaName } from '../../schemas/registry.ts';
import { billingFilterArb } from '../../suites/generators/billing-filter.ts';
import { billingGroupStatusUpdateItemArb } from '../../suites/generators/billing-group-status-update-item.ts';
import { bulkItemArb } from '../../suites/generators/bulk-item.ts';
import { dateTimeArb } from '../../suites/generators/date-time.ts';
import {
  invalidOfferBodies,
  invalidOfferBodyArb,
  TYPED_FIELDS,
  type InvalidBody,
} from '../../suites/generators/invalid-offer-body.ts';
import { keyValueArb } from '../../suites/generators/key-value.ts';
import { latitudeArb } from '../../suites/generators/latitude.ts';
import { locationArb } from '../../suites/generators/location.ts';
import { longitudeArb } from '../../suites/generators/longitude.ts';
import { mappingCarrierArb } from '../../suites/generators/mapping-carrier.ts';
import { mappingLocationGroupArb } from '../../suites/generators/mapping-location-group.ts';
import { mappingLocationArb } from '../../suites/generators/mapping-location.ts';
import { mappingProductArb } from '../../suites/generators/mapping-product.ts';
import { mappingRequestsArb } from '../../suites/generators/mapping-requests.ts';
import { offerEdgeBodies } from '../../suites/generators/offer-edge-bodies.ts';
import { offerWriteBodyArb } from '../../suites/generators/offer-write-body.ts';
import { offerWriteOfferArb } from '../../suites/generators/offer-write-offer.ts';
import { timeZoneArb } from '../../suites/generators/time-zone.ts';

const RUN_ID = 'flis-test-run';
const RUNS = 400;
const params = { numRuns: RUNS, seed: 20240601 };

function assertValid(schema: SchemaName, value: unknown): void {
  const r = validate(schema, value);
  assert.ok(r.valid, `${schema}: ${JSON.stringify(r.violations)}\n${JSON.stringify(value)}`);
}

/** After a JSON round trip: what the server receives, not the JS value (undefined keys vanish, -0 becomes 0). */
function wire(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

const validBodies: [string, SchemaName, fc.Arbitrary<unknown>][] = [
  ['locationArb', 'location', locationArb(RUN_ID)],
  ['offerWriteOfferArb', 'offer-write-offer', offerWriteOfferArb(RUN_ID)],
  ['mappingCarrierArb', 'mapping-carrier', mappingCarrierArb(RUN_ID)],
  ['mappingProductArb', 'mapping-product', mappingProductArb(RUN_ID)],
  ['mappingLocationArb', 'mapping-location', mappingLocationArb(RUN_ID)],
  ['mappingLocationGroupArb', 'mapping-location-group', mappingLocationGroupArb(RUN_ID)],
  ['mappingRequestsArb', 'mapping-requests', mappingRequestsArb(RUN_ID)],
  ['offerWriteBodyArb', 'offer-write', offerWriteBodyArb(RUN_ID)],
  ['bulkItemArb', 'offer-bulk-item', bulkItemArb(RUN_ID)],
  ['fc.array(bulkItemArb)', 'offer-bulk', fc.array(bulkItemArb(RUN_ID), { maxLength: 5 })],
  [
    'billingGroupStatusUpdateItemArb',
    'billing-group-status-update-item',
    billingGroupStatusUpdateItemArb({ billingGroupIds: ['bg-1', 'bg-2'], statuses: ['Booked', 'Invoiced'] }),
  ],
];

for (const [name, schema, arb] of validBodies) {
  test(`${name} only makes bodies that validate against ${schema}.schema.json`, () => {
    fc.assert(
      fc.property(arb, (value) => assertValid(schema, wire(value))),
      params,
    );
  });
}

test('dateTimeArb makes ISO 8601 date-times in UTC by default, and at other offsets only when asked', () => {
  const utc = /(Z|\+00:00)$/;
  fc.assert(
    fc.property(dateTimeArb(), (t) => {
      assertValid('offer-write-offer', { transportTimestamp: t });
      assert.match(t, utc);
    }),
    params,
  );
  const seen = new Set<string>();
  fc.assert(
    fc.property(dateTimeArb({ offsets: true }), (t) => {
      assertValid('offer-write-offer', { transportTimestamp: t });
      seen.add(t.slice(-6));
    }),
    params,
  );
  assert.ok(
    [...seen].some((s) => !utc.test(s)),
    'some timestamps carry a non-UTC offset',
  );
});

test('dateTimeArb spans years and keeps the instant when written at an offset', () => {
  const years = new Set<number>();
  fc.assert(
    fc.property(dateTimeArb({ offsets: true }), (t) => {
      const ms = Date.parse(t);
      assert.ok(Number.isFinite(ms), t);
      years.add(new Date(ms).getUTCFullYear());
    }),
    params,
  );
  assert.ok(
    Math.min(...years) < 1970 && Math.max(...years) > 2100,
    `years ${Math.min(...years)}..${Math.max(...years)}`,
  );
});

test('coordinates stay in range and reach both ends of it', () => {
  const lats = fc.sample(latitudeArb, { numRuns: RUNS, seed: 7 });
  const lons = fc.sample(longitudeArb, { numRuns: RUNS, seed: 7 });
  assert.ok(lats.every((v) => v >= -90 && v <= 90));
  assert.ok(lons.every((v) => v >= -180 && v <= 180));
  for (const edge of [-90, 90]) assert.ok(lats.includes(edge), `latitude ${edge} is generated`);
  for (const edge of [-180, 180]) assert.ok(lons.includes(edge), `longitude ${edge} is generated`);
});

test('timeZoneArb only names zones this machine knows', () => {
  for (const zone of new Set(fc.sample(timeZoneArb, { numRuns: RUNS, seed: 3 }))) {
    assert.doesNotThrow(() => new Intl.DateTimeFormat('en', { timeZone: zone }), zone);
  }
});

test('keyValueArb never makes prototype-polluting keys', () => {
  fc.assert(
    fc.property(keyValueArb, (kv) => {
      for (const k of Object.keys(kv)) assert.ok(!['__proto__', 'constructor', 'prototype'].includes(k), k);
    }),
    params,
  );
});

/** Every string under an id-like key (…Id, …ExternalId, id, references) in a body; `properties` hold free keys, not ids. */
function idsIn(value: unknown, key = ''): string[] {
  if (key === 'properties') return [];
  if (Array.isArray(value)) return value.flatMap((v) => idsIn(v, key));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => idsIn(v, k));
  const idLike =
    key === 'id' || key === 'references' || /Id$/.test(key) || key === 'offerVersion' || key === 'productCode';
  return idLike && typeof value === 'string' ? [value] : [];
}

test('every id and reference a body carries starts with the run id', () => {
  fc.assert(
    fc.property(fc.array(bulkItemArb(RUN_ID), { maxLength: 3 }), (items) => {
      for (const id of idsIn(items)) assert.ok(id.startsWith(`${RUN_ID}-`), id);
    }),
    params,
  );
});

test('the generators cover the edges: null and absent, empty and long arrays, defaults left out, unicode', () => {
  const bodies = fc.sample(offerWriteBodyArb(RUN_ID), { numRuns: 1000, seed: 11 });
  const offers = bodies.map((b) => b.offer ?? {});
  assert.ok(
    offers.some((o) => o.properties === null) && offers.some((o) => !('properties' in o)),
    'properties null and absent',
  );
  assert.ok(
    offers.some((o) => Array.isArray(o.references) && o.references.length === 0),
    'empty references',
  );
  assert.ok(
    offers.some((o) => Array.isArray(o.references) && o.references.length >= 20),
    'long references',
  );
  assert.ok(
    offers.some((o) => !('noPayment' in o)),
    'noPayment left out (default false)',
  );
  assert.ok(bodies.some((b) => b.cancel === true) && bodies.some((b) => !('cancel' in b)), 'cancel true and absent');
  const text = JSON.stringify(bodies);
  assert.match(text, /[^\u0000-\u007f]/, 'non-ASCII text');
  assert.match(text, /[\ud800-\udbff][\udc00-\udfff]/, 'astral-plane characters');
  const unsorted = (r: unknown) => Array.isArray(r) && r.some((x, i) => i > 0 && String(r[i - 1]) > String(x));
  assert.ok(
    offers.some((o) => unsorted(o.references)),
    'references out of sorted order',
  );
});

test('offerEdgeBodies lists every edge on every run: valid bodies, references out of order, offsets both ways', () => {
  const edges = offerEdgeBodies(RUN_ID);
  for (const { offer } of edges) assertValid('offer-write-offer', wire(offer));
  const refs = edges.map((e) => e.offer.references).filter((r): r is string[] => Array.isArray(r));
  assert.ok(
    refs.some((r) => r.some((x, i) => i > 0 && r[i - 1]! > x)),
    'references out of sorted order',
  );
  assert.ok(
    refs.some((r) => new Set(r).size < r.length),
    'a repeated reference',
  );
  assert.ok(
    refs.some((r) => r.length === 0),
    'empty references',
  );
  const stamps = edges.map((e) => e.offer.transportTimestamp).filter((t): t is string => typeof t === 'string');
  assert.ok(
    stamps.some((t) => /\+(0[1-9]|1\d):\d\d$/.test(t)),
    'a positive offset',
  );
  assert.ok(
    stamps.some((t) => /-\d\d:\d\d$/.test(t)),
    'a negative offset',
  );
  assert.ok(
    stamps.some((t) => /:(30|45)$/.test(t)),
    'a half- or quarter-hour offset',
  );
  for (const e of edges)
    assert.equal(
      e.offset,
      typeof e.offer.transportTimestamp === 'string' && !e.offer.transportTimestamp.endsWith('Z'),
      `${e.edge}: offset marks exactly the bodies a server may refuse`,
    );
  for (const t of stamps) assert.ok(Number.isFinite(Date.parse(t)), t);
  assert.deepEqual(offerEdgeBodies(RUN_ID), edges, 'the same list on every call');
});

test('offerWriteBodyArb({ cancel: false }) never cancels', () => {
  fc.assert(
    fc.property(offerWriteBodyArb(RUN_ID, { cancel: false }), (b) => assert.notEqual(b.cancel, true)),
    params,
  );
});

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json/.test(contentType);
}

/** An invalid body is one a conformant server cannot take as a valid write. */
function whyInvalid(b: InvalidBody, schema: SchemaName): string | undefined {
  if (b.raw === undefined) return 'no body';
  if (!isJson(b.contentType)) return 'not sent as JSON';
  let parsed: unknown;
  try {
    parsed = JSON.parse(b.raw);
  } catch {
    return 'not JSON';
  }
  return validate(schema, parsed).valid ? undefined : 'schema-invalid';
}

for (const [shape, schema] of [
  ['single', 'offer-write'],
  ['bulk', 'offer-bulk'],
] as const) {
  test(`invalidOfferBodyArb('${shape}') never makes a body that ${schema}.schema.json accepts`, () => {
    const kinds = new Set<string>();
    fc.assert(
      fc.property(invalidOfferBodyArb(RUN_ID, shape), (b) => {
        const why = whyInvalid(b, schema);
        assert.ok(why, `valid body generated as invalid: ${b.flaw}: ${b.raw}`);
        kinds.add(why);
        assert.ok(b.flaw.length > 0);
      }),
      params,
    );
    assert.deepEqual([...kinds].sort(), ['no body', 'not JSON', 'not sent as JSON', 'schema-invalid']);
  });
}

for (const [shape, schema] of [
  ['single', 'offer-write'],
  ['bulk', 'offer-bulk'],
] as const) {
  test(`invalidOfferBodies('${shape}') lists every typed field, content type and kind, each invalid, none over-strict`, () => {
    const [valid] = fc.sample(offerWriteBodyArb(RUN_ID, { cancel: false }), { seed: 1, numRuns: 1 });
    const listed = invalidOfferBodies(RUN_ID, shape, valid);
    const kinds = new Set<string>();
    for (const b of listed) {
      const why = whyInvalid(b, schema);
      assert.ok(why, `valid body listed as invalid: ${b.flaw}: ${b.raw}`);
      kinds.add(why);
      // No field is marked required (spec 2.3): a bulk item without an id is not bad input.
      if (shape === 'bulk' && why !== 'no body' && why !== 'not JSON') {
        const parsed: unknown = JSON.parse(b.raw ?? '');
        if (!Array.isArray(parsed)) continue;
        for (const item of parsed)
          if (typeof item === 'object' && item !== null && !Array.isArray(item))
            assert.ok('id' in item, `a listed bulk item has no id: ${b.flaw}`);
      }
    }
    assert.deepEqual([...kinds].sort(), ['no body', 'not JSON', 'not sent as JSON', 'schema-invalid']);
    for (const [pointer] of TYPED_FIELDS)
      assert.ok(
        listed.some((b) => b.flaw.includes(`${pointer} is `)),
        `no listed case breaks ${pointer}`,
      );
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/octet-stream'])
      assert.ok(
        listed.some((b) => b.contentType === ct),
        `no listed case is sent as ${ct}`,
      );
    // The same list on every call: the verdict must not depend on the seed.
    assert.deepEqual(invalidOfferBodies(RUN_ID, shape, valid), listed);
  });
}

test('billingFilterArb filters on at least one field, with values the listed groups have', () => {
  const groups = [
    { date: '2025-01-05', status: 'Booked', customerId: 'c-1', inactive: false },
    { date: '2025-02-10', status: 'Invoiced', customerId: 'c-2', inactive: true },
  ];
  const seen = new Set<string>();
  fc.assert(
    fc.property(billingFilterArb(groups), (f) => {
      assert.ok(Object.keys(f).length > 0);
      for (const k of Object.keys(f)) seen.add(k);
      if (f.start !== undefined) assert.ok(groups.some((g) => g.date === f.start));
      if (f.end !== undefined) assert.ok(groups.some((g) => g.date === f.end));
      if (f.customerId !== undefined) assert.ok(groups.some((g) => g.customerId === f.customerId));
      if (f.state !== undefined) assert.ok(groups.some((g) => g.status === f.state) || f.state === 'Booked');
    }),
    params,
  );
  assert.deepEqual([...seen].sort(), ['customerId', 'end', 'inactive', 'start', 'state']);
});

test('billingGroupStatusUpdateItemArb reaches every combination spec 2.7 allows, deleteStatus true with a status included', () => {
  const arb = billingGroupStatusUpdateItemArb({ billingGroupIds: ['bg-1'], statuses: ['Booked'] });
  const kinds = new Set(
    fc
      .sample(arb, { seed: 1, numRuns: 200 })
      .map((i) => `${String(i.deleteStatus)}/${i.status === undefined ? 'no status' : 'status'}`),
  );
  assert.deepEqual([...kinds].sort(), ['false/status', 'true/no status', 'true/status', 'undefined/status'].sort());
});
