/**
 * Bad input for the offer writes (POST /offers, PUT /offers/{offerId}, POST
 * /offers/bulk): a documented field with a value of the wrong JSON type, an
 * impossible date-time, malformed JSON, a JSON value of the wrong shape, no
 * body, or a body that is not sent as JSON (spec 4: bodies are JSON; spec 5
 * rule 3). Wrong-type values are chosen so no common lenient binder can coerce
 * them into the documented type (objects and arrays for strings, words for
 * numbers and booleans): accepting nonsense is flagged, reading "5" as 5 is
 * not. Unknown fields are never used here: the spec allows them. Nor is a
 * bulk item without `id`: the spec marks no field as required. The spec binds
 * the client here (spec 5 rule 3), so what a server does with these is hygiene
 * (advisory) unless it answers 5xx.
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

/** The Location object of spec 2.1, as written in `offer.fromLocation` / `offer.toLocation`. */
const LOCATION_FIELDS: readonly [string, JsonType][] = [
  ['', 'object'],
  ['/addressText', 'string'],
  ['/latitude', 'number'],
  ['/longitude', 'number'],
  ['/locationName', 'string'],
  ['/locationId', 'string'],
  ['/externalId', 'string'],
  ['/timezone', 'string'],
  ['/properties', 'nullable-object'],
];

/** mappingRequests.fromLocation / toLocation (spec 2.3): only the fields whose type is shown. */
const MAPPING_LOCATION_FIELDS: readonly [string, JsonType][] = [
  ['', 'object'],
  ['/latitude', 'number'],
  ['/longitude', 'number'],
  ['/saveIfUnknown', 'boolean'],
  ['/locationNameResolutionEnabled', 'boolean'],
  ['/useDefaultParentGroup', 'boolean'],
  ['/saveGroupIfUnknown', 'boolean'],
];

const under = (prefix: string, fields: readonly [string, JsonType][]): [string, JsonType][] =>
  fields.map(([p, t]) => [`${prefix}${p}`, t]);

/**
 * Every field of spec 2.3 whose type the spec shows (pointers into a single write body). Fields shown only
 * as nullable (offer.properties, productMassKg, prices, metadata, mapping ids and names) have no type to break.
 */
export const TYPED_FIELDS: readonly [string, JsonType][] = [
  ['/offer', 'object'],
  ['/offer/references', 'array'],
  ['/offer/references/0', 'string-item'],
  ['/offer/offerVersion', 'string'],
  ['/offer/bookingId', 'string'],
  ['/offer/carrierId', 'string'],
  ['/offer/quantity', 'number'],
  ['/offer/noPayment', 'boolean'],
  ...under('/offer/fromLocation', LOCATION_FIELDS),
  ...under('/offer/toLocation', LOCATION_FIELDS),
  ['/offer/transportTimestamp', 'date-time'],
  ['/mappingRequests', 'object'],
  ['/mappingRequests/carrier', 'object'],
  ['/mappingRequests/carrier/carrierExternalId', 'string'],
  ...under('/mappingRequests/fromLocation', MAPPING_LOCATION_FIELDS),
  ...under('/mappingRequests/toLocation', MAPPING_LOCATION_FIELDS),
  ['/mappingRequests/fromLocationGroup', 'object'],
  ['/mappingRequests/fromLocationGroup/usePrimaryLocation', 'boolean'],
  ['/mappingRequests/toLocationGroup', 'object'],
  ['/mappingRequests/toLocationGroup/usePrimaryLocation', 'boolean'],
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

const EXPECTED: Record<JsonType, string> = {
  string: 'a string',
  'string-item': 'a string',
  number: 'a number',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  'nullable-object': 'an object or null',
  'date-time': 'an ISO 8601 date-time',
};

type WrongValue = readonly [pointer: string, type: JsonType, wrong: unknown];

/** Each typed field with each value of a wrong type. */
const WRONG_VALUES: readonly WrongValue[] = TYPED_FIELDS.flatMap(([pointer, type]) =>
  WRONG[type].map((wrong) => [pointer, type, wrong] as const),
);

function withWrongValue(runId: string, shape: OfferWriteShape, valid: unknown, [pointer, type, wrong]: WrongValue) {
  const body = structuredClone(valid) as Record<string, unknown>;
  setAt(body, pointer, wrong);
  const flaw = `${pointer} is ${JSON.stringify(wrong)}, not ${EXPECTED[type]} (spec 2.3)`;
  return shape === 'bulk' ? json(`item 0: ${flaw}`, [{ ...body, id: `${runId}-bad` }]) : json(flaw, body);
}

function wrongTypeArb(runId: string, shape: OfferWriteShape): fc.Arbitrary<InvalidBody> {
  return fc
    .tuple(offerWriteBodyArb(runId, { cancel: false }), fc.constantFrom(...WRONG_VALUES))
    .map(([valid, wrong]) => withWrongValue(runId, shape, valid, wrong));
}

function malformedArb(runId: string): fc.Arbitrary<InvalidBody> {
  const truncated = fc
    .tuple(offerWriteBodyArb(runId), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }))
    .map(([body, cut]) => {
      const text = JSON.stringify(body);
      return {
        flaw: 'the JSON text is cut short',
        // At least one character: no body at all is a case of its own.
        raw: text.slice(0, 1 + Math.floor(cut * (text.length - 2))),
        contentType: 'application/json',
      };
    });
  const fixed = fc
    .constantFrom(...MALFORMED_TEXT)
    .map((raw) => ({ flaw: 'the body is not valid JSON', raw, contentType: 'application/json' }));
  return fc.oneof(fixed, truncated);
}

/**
 * A JSON value of the wrong shape. A bulk item WITHOUT an id is not among them: spec 2.3 marks no field as
 * required, so a server may assign one. An id of the wrong type is (all identifiers are strings, spec 2).
 */
function wrongShapes(runId: string, shape: OfferWriteShape, valid: unknown): InvalidBody[] {
  if (shape === 'single')
    return ([[], ['offer'], 'offer', 42, null, true] as unknown[]).map((v) =>
      json(`the body is ${JSON.stringify(v)}, not an object (spec 2.3)`, v),
    );
  return [
    json('the body is one object, not an array of bulk items (spec 4.1)', { ...(valid as object), id: `${runId}-bad` }),
    ...([{}, ['x']] as unknown[]).map((id) =>
      json(`a bulk item's id is ${JSON.stringify(id)}, not a string (spec 2, spec 2.3)`, [
        { ...(valid as object), id },
      ]),
    ),
    ...(['offers', 42, null, [42], [null], [[]]] as unknown[]).map((v) =>
      json(`the body is ${JSON.stringify(v)}, not an array of bulk items (spec 4.1)`, v),
    ),
  ];
}

function wrongShapeArb(runId: string, shape: OfferWriteShape): fc.Arbitrary<InvalidBody> {
  return offerWriteBodyArb(runId).chain((valid) => fc.constantFrom(...wrongShapes(runId, shape, valid)));
}

const NO_BODY: readonly InvalidBody[] = [
  { flaw: 'no body and no content type (spec 4.1: the write has a body)' },
  {
    flaw: 'no body, though sent as application/json (spec 4.1: the write has a body)',
    contentType: 'application/json',
  },
];

const OTHER_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/octet-stream',
] as const;

/** A valid body sent under another content type: spec 5 rule 3 binds the client, so accepting it is hygiene only. */
function sentAs(contentType: string, valid: unknown): InvalidBody {
  return {
    flaw: `a JSON body sent as ${contentType} (spec 5 rule 3 asks the client for application/json)`,
    raw: JSON.stringify(valid),
    contentType,
  };
}

function notJsonArb(runId: string): fc.Arbitrary<InvalidBody> {
  const wrongType = fc
    .tuple(offerWriteBodyArb(runId), fc.constantFrom(...OTHER_CONTENT_TYPES))
    .map(([body, contentType]) => sentAs(contentType, body));
  return fc.oneof(fc.constantFrom(...NO_BODY), wrongType);
}

/**
 * Every case that can be listed, for one write shape, built on one valid body: each typed field with each
 * wrong value, each malformed text, each wrong shape, no body, each other content type. Run in full on
 * every run, so the same server gets the same verdict whatever the seed.
 */
export function invalidOfferBodies(runId: string, shape: OfferWriteShape, valid: unknown): InvalidBody[] {
  return [
    ...WRONG_VALUES.map((w) => withWrongValue(runId, shape, valid, w)),
    ...MALFORMED_TEXT.map((raw) => ({ flaw: 'the body is not valid JSON', raw, contentType: 'application/json' })),
    ...wrongShapes(runId, shape, valid),
    ...NO_BODY,
    ...OTHER_CONTENT_TYPES.map((contentType) =>
      sentAs(contentType, shape === 'bulk' ? [{ ...(valid as object), id: `${runId}-bad` }] : valid),
    ),
  ];
}

/** Random cases on top of the listed ones: other valid bodies to break, and JSON cut short at any point. */
export function invalidOfferBodyArb(runId: string, shape: OfferWriteShape): fc.Arbitrary<InvalidBody> {
  return fc.oneof(
    { weight: 4, arbitrary: wrongTypeArb(runId, shape) },
    { weight: 2, arbitrary: malformedArb(runId) },
    { weight: 2, arbitrary: wrongShapeArb(runId, shape) },
    { weight: 2, arbitrary: notJsonArb(runId) },
  );
}
