/**
 * Bad input for the offer writes (POST /offers, PUT /offers/{offerId}, POST
 * /offers/bulk): a documented field with a value of the wrong JSON type, an
 * impossible date-time, malformed JSON, a JSON value of the wrong shape, no
 * body, or a body that is not sent as JSON (spec 4: bodies are JSON; spec 5
 * rule 3). Wrong-type values are chosen so no common lenient binder can coerce
 * them into the documented type (objects and arrays for strings, words for
 * numbers and booleans): a server is failed for accepting nonsense, not for
 * reading "5" as 5. Unknown fields are never used here: the spec allows them.
 */
import fc from 'fast-check';
import { offerWriteBodyArb } from './offer-write-body.ts';

export interface InvalidBody {
  /** What is wrong with it, for the report. */
  flaw: string;
  /** The body exactly as sent; absent: no body at all. */
  raw?: string;
  /** The content type sent; absent: no content-type header. */
  contentType?: string;
}

export type OfferWriteShape = 'single' | 'bulk';

type JsonType = 'string' | 'number' | 'boolean' | 'array' | 'string-item' | 'object' | 'nullable-object' | 'date-time';

/** Documented, typed fields of spec 2.3 (pointers into a single write body). */
const TYPED_FIELDS: readonly [string, JsonType][] = [
  ['/offer', 'object'],
  ['/offer/references', 'array'],
  ['/offer/references/0', 'string-item'],
  ['/offer/offerVersion', 'string'],
  ['/offer/bookingId', 'string'],
  ['/offer/carrierId', 'string'],
  ['/offer/quantity', 'number'],
  ['/offer/noPayment', 'boolean'],
  ['/offer/fromLocation', 'object'],
  ['/offer/fromLocation/latitude', 'number'],
  ['/offer/toLocation/longitude', 'number'],
  ['/offer/toLocation/timezone', 'string'],
  ['/offer/fromLocation/properties', 'nullable-object'],
  ['/offer/transportTimestamp', 'date-time'],
  ['/mappingRequests', 'object'],
  ['/mappingRequests/carrier/carrierExternalId', 'string'],
  ['/mappingRequests/fromLocation/latitude', 'number'],
  ['/mappingRequests/toLocation/saveIfUnknown', 'boolean'],
  ['/mappingRequests/fromLocationGroup/usePrimaryLocation', 'boolean'],
  ['/cancel', 'boolean'],
  ['/settled', 'boolean'],
];

const WRONG: Record<JsonType, readonly unknown[]> = {
  string: [{}, [], { text: 'x' }, ['x', 'y']],
  'string-item': [{}, ['nested'], { ref: 'x' }],
  number: ['twelve', '12 tonnes', {}, [], [1, 2]],
  boolean: ['maybe', 'not-a-boolean', {}, []],
  array: [{}, { 0: 'x' }, 42],
  object: ['x', 42, [1], true],
  'nullable-object': ['x', 42, [1], true],
  'date-time': [
    '2021-02-30T10:00:00Z',
    '2021-02-29T12:00:00Z',
    '2021-13-01T00:00:00Z',
    '2021-01-01T24:61:00Z',
    'not-a-date',
    '',
    '31/12/2021 10:00',
    'tomorrow',
  ],
};

const MALFORMED_TEXT = [
  '{',
  '{"offer": {,}}',
  "{'offer': {}}",
  '{"offer": NaN}',
  '{"offer": {}} trailing',
  '{"offer": undefined}',
  '[{"id": "x",}]',
] as const;

/** Sets `value` at a JSON pointer, creating the objects and arrays on the way. */
function setAt(root: Record<string, unknown>, pointer: string, value: unknown): void {
  const keys = pointer.split('/').slice(1);
  let node: Record<string, unknown> = root;
  keys.forEach((key, i) => {
    if (i === keys.length - 1) {
      node[key] = value;
      return;
    }
    const nextIsIndex = /^\d+$/.test(keys[i + 1] ?? '');
    const child = node[key];
    if (typeof child !== 'object' || child === null) node[key] = nextIsIndex ? [] : {};
    node = node[key] as Record<string, unknown>;
  });
}

function json(flaw: string, value: unknown): InvalidBody {
  return { flaw, raw: JSON.stringify(value), contentType: 'application/json' };
}

function wrongTypeArb(runId: string, shape: OfferWriteShape): fc.Arbitrary<InvalidBody> {
  const field = fc.constantFrom(
    ...TYPED_FIELDS.flatMap(([pointer, type]) => WRONG[type].map((wrong) => [pointer, type, wrong] as const)),
  );
  return fc.tuple(offerWriteBodyArb(runId, { cancel: false }), field).map(([valid, [pointer, type, wrong]]) => {
    const body = structuredClone(valid) as Record<string, unknown>;
    setAt(body, pointer, wrong);
    const flaw = `${pointer} is ${JSON.stringify(wrong)}, not ${type === 'date-time' ? 'an ISO 8601 date-time' : `a ${type}`} (spec 2.3)`;
    return shape === 'bulk' ? json(`item 0: ${flaw}`, [{ ...body, id: `${runId}-bad` }]) : json(flaw, body);
  });
}

function malformedArb(runId: string): fc.Arbitrary<InvalidBody> {
  const truncated = fc
    .tuple(offerWriteBodyArb(runId), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }))
    .map(([body, cut]) => {
      const text = JSON.stringify(body);
      return {
        flaw: 'the JSON text is cut short',
        raw: text.slice(0, Math.floor(cut * (text.length - 1))),
        contentType: 'application/json',
      };
    });
  const fixed = fc
    .constantFrom(...MALFORMED_TEXT)
    .map((raw) => ({ flaw: 'the body is not valid JSON', raw, contentType: 'application/json' }));
  return fc.oneof(fixed, truncated);
}

function wrongShapeArb(runId: string, shape: OfferWriteShape): fc.Arbitrary<InvalidBody> {
  if (shape === 'single') {
    return fc
      .constantFrom<unknown>([], ['offer'], 'offer', 42, null, true)
      .map((v) => json(`the body is ${JSON.stringify(v)}, not an object (spec 2.3)`, v));
  }
  const notArray = offerWriteBodyArb(runId).map((body) =>
    json('the body is one object, not an array of bulk items (spec 4.1)', { ...body, id: `${runId}-bad` }),
  );
  const missingId = offerWriteBodyArb(runId).map((body) =>
    json('a bulk item has no id (spec 2.3: bulk items add id)', [body]),
  );
  const badId = fc
    .constantFrom<unknown>({}, ['x'], null)
    .map((id) => json(`a bulk item's id is ${JSON.stringify(id)}, not a string (spec 2.3)`, [{ id, offer: {} }]));
  const scalars = fc
    .constantFrom<unknown>('offers', 42, null, [42], [null], [[]])
    .map((v) => json(`the body is ${JSON.stringify(v)}, not an array of bulk items (spec 4.1)`, v));
  return fc.oneof(notArray, missingId, badId, scalars);
}

function notJsonArb(runId: string): fc.Arbitrary<InvalidBody> {
  const missing = fc.constantFrom<InvalidBody>(
    { flaw: 'no body and no content type (spec 4.1: the write has a body)' },
    {
      flaw: 'no body, though sent as application/json (spec 4.1: the write has a body)',
      contentType: 'application/json',
    },
  );
  const wrongType = fc
    .tuple(
      offerWriteBodyArb(runId),
      fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/octet-stream'),
    )
    .map(([body, contentType]) => ({
      flaw: `a JSON body sent as ${contentType} (spec 4: bodies are JSON; spec 5 rule 3)`,
      raw: JSON.stringify(body),
      contentType,
    }));
  return fc.oneof(missing, wrongType);
}

export function invalidOfferBodyArb(runId: string, shape: OfferWriteShape): fc.Arbitrary<InvalidBody> {
  return fc.oneof(
    { weight: 4, arbitrary: wrongTypeArb(runId, shape) },
    { weight: 2, arbitrary: malformedArb(runId) },
    { weight: 2, arbitrary: wrongShapeArb(runId, shape) },
    { weight: 2, arbitrary: notJsonArb(runId) },
  );
}
