import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  linearErrorMerge,
  listItemSchema,
  readSchemaFile,
  schemaFilesOnDisk,
  schemaNames,
  validate,
  validateCapped,
  validatorFor,
} from '../../schemas/registry.ts';
import { generateTypes, TYPES_FILE } from '../../scripts/generate-types.ts';

test('schemaNames lists exactly the schema files on disk', () => {
  assert.deepEqual([...schemaNames].map((n) => `${n}.schema.json`).sort(), schemaFilesOnDisk());
});

test('every schema is JSON Schema 2020-12 and compiles in ajv strict mode', () => {
  for (const name of schemaNames) {
    assert.equal(readSchemaFile(name).$schema, 'https://json-schema.org/draft/2020-12/schema', name);
    assert.equal(typeof validatorFor(name), 'function', name);
  }
});

test('types.generated.ts is up to date with the schemas (run `npm run types`)', async () => {
  assert.equal(readFileSync(TYPES_FILE, 'utf8'), await generateTypes());
});

const location = {
  addressText: 'Quay 4',
  latitude: 51.9,
  longitude: 4.1,
  locationName: 'Rotterdam',
  locationId: 'l1',
  externalId: 'e1',
  timezone: 'Europe/Amsterdam',
  properties: null,
};
const offer = {
  id: 'o1',
  references: ['r'],
  offerVersion: '1',
  bookingId: 'b1',
  canceled: false,
  carrierId: 'c',
  carrierExternalId: 'ce',
  carrierName: 'Carrier',
  corporateId: 'k',
  corporateName: 'Corp',
  corporateSubaccountId: 's',
  corporateSubaccountName: 'Sub',
  corporateSubaccountIntegrationId: 'si',
  transportRequirementsId: 't',
  productCode: null,
  productCodeName: null,
  productCodeExternalId: null,
  properties: null,
  productSpatialRequirement: null,
  productMassKg: null,
  content: [],
  quantity: 2,
  noPayment: false,
  distanceKm: 12.5,
  sourceId: 'src',
  priceTransport: null,
  priceFaf: null,
  priceStrategy: null,
  priceTransportAdjustmentReasons: [],
  priceTransportAdjustment: null,
  fromLocation: location,
  toLocation: location,
  fromLocationDistrict: 'd',
  fromLocationDistrictId: 'di',
  fromLocationRegion: 'r',
  toLocationDistrict: 'd',
  toLocationDistrictId: 'di',
  toLocationRegion: 'r',
  transportTimestamp: '2026-03-01T10:00:00Z',
  settled: false,
  queried: false,
  status: 'Delivered',
};

test('an Offer with every documented field validates; extra fields are allowed (spec 2.2)', () => {
  assert.deepEqual(validate('offer', offer).violations, []);
  assert.equal(validate('offer', { ...offer, somethingNew: 1 }).valid, true);
});

test('priceStrategy takes the five values of spec 2.2 or null, nothing else', () => {
  for (const v of ['Deferred', 'Fixed', 'Group', 'Precision', 'Provided', null])
    assert.equal(validate('offer', { ...offer, priceStrategy: v }).valid, true, String(v));
  const bad = validate('offer', { ...offer, priceStrategy: 'Dynamic' });
  assert.equal(bad.valid, false);
  assert.equal(bad.violations[0]?.pointer, '/priceStrategy');
});

test('violations carry the JSON pointer of the bad value, also through a $ref', () => {
  const r = validate('offer-list', [{ ...offer, fromLocation: { ...location, latitude: 'north' } }]);
  assert.deepEqual(
    r.violations.map((v) => v.pointer),
    ['/0/fromLocation/latitude'],
  );
  assert.match(r.violations[0]!.schemaPath, /location\.schema\.json/);
});

test('a missing documented field and a bad date-time are violations', () => {
  const { status: _s, ...noStatus } = offer;
  assert.equal(validate('offer', noStatus).violations[0]?.message, "must have required property 'status'");
  assert.equal(
    validate('offer', { ...offer, transportTimestamp: 'yesterday' }).violations[0]?.pointer,
    '/transportTimestamp',
  );
});

test('write bodies: nothing is required, types are checked, bulk items need an id (spec 2.3)', () => {
  assert.equal(validate('offer-write', {}).valid, true);
  assert.equal(validate('offer-write', { offer: { quantity: 'many' } }).valid, false);
  assert.equal(validate('offer-write', { offer: { transportTimestamp: '2026-01-01T00:00:00+05:30' } }).valid, true);
  assert.equal(validate('offer-bulk', [{ offer: {} }]).valid, false);
  assert.equal(validate('offer-bulk', [{ id: 'x', cancel: true }]).valid, true);
});

test('no compiled validator merges errors with concat (which copies every error so far: quadratic with allErrors)', () => {
  for (const name of schemaNames)
    assert.doesNotMatch(validatorFor(name).toString(), /\.concat\(/, `${name}: a $ref's errors are concatenated`);
  assert.throws(() => linearErrorMerge('x = vErrors.concat(other);'), /cannot make linear/);
});

test('validateCapped lists the first violations, with pointer and rule, as validate() finds them', () => {
  const list = [{}, { ...offer, quantity: 'two' }, {}];
  const all = validate('offer-list', list).violations;
  const uncapped = validateCapped('offer-list', list, 1000);
  assert.deepEqual(uncapped, { valid: false, violations: all, total: all.length, exact: true }, 'under the cap: all');
  const capped = validateCapped('offer-list', list, 5);
  assert.deepEqual(capped.violations, all.slice(0, 5), 'the listed ones are the first');
  assert.equal(capped.violations[0]!.pointer, '/0');
  assert.equal(capped.violations[0]!.schemaPath, 'offer.schema.json#/required');
  const later = uncapped.violations.find((v) => v.pointer === '/1/quantity');
  assert.equal(later?.schemaPath, 'offer.schema.json#/properties/quantity/type');
  assert.deepEqual(validateCapped('offer-list', [offer, offer], 5), {
    valid: true,
    violations: [],
    total: 0,
    exact: true,
  });
  const notList = validateCapped('offer-list', { not: 'a list' }, 5);
  assert.deepEqual(notList.violations, validate('offer-list', { not: 'a list' }).violations);
});

test('past the cap, each further invalid item of a list counts once (a lower bound), valid ones not at all', () => {
  const list = [{}, offer, { ...offer, quantity: 'two' }, {}, offer];
  const first = validate('offer', {}).violations.length;
  const r = validateCapped('offer-list', list, 5);
  assert.equal(r.violations.length, 5);
  assert.equal(r.total, first + 2, 'every error of the item that filled the cap, then one per invalid item');
  assert.equal(r.exact, false);
  assert.ok(r.total <= validate('offer-list', list).violations.length, 'never more than there are');
});

test('list schemas are judged item by item only where the list adds no rule of its own', () => {
  assert.equal(listItemSchema('offer-list'), 'offer');
  assert.equal(listItemSchema('invoice-list'), 'invoice-list-item');
  assert.equal(listItemSchema('offer'), undefined);
  for (const name of schemaNames) {
    const item = listItemSchema(name);
    if (!item) continue;
    const keys = Object.keys(readSchemaFile(name)).filter((k) => !['$schema', 'title', 'description'].includes(k));
    assert.deepEqual(keys.sort(), ['items', 'type'], `${name} has rules beside its items`);
  }
});
