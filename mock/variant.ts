/**
 * Conformant choices the spec leaves open. A variant is NOT a fault: the suites
 * must pass against every variant, which proves they do not over-fit to the
 * default mock (status codes, id shapes, undocumented extra fields).
 */

import type { ThrottleSettings } from './throttle.ts';

export interface MockVariant {
  /** Status of POST creates. Offer acks of PUT, DELETE and bulk answer 202 whenever this is not 200. */
  createdStatus: 200 | 201 | 202;
  /** `reserved`: ids with a space, `+`, `&`, `=`, `%`, `/`, `#`, `?`, `:` and `ä` (spec 2: ids are strings, no more). */
  idFormat: 'prefixed' | 'uuid' | 'numeric' | 'reserved';
  /** Adds undocumented fields to every object response (the schemas allow them). */
  extraFields: boolean;
  /**
   * Reads what it can instead of refusing (lenient.ts): a JSON body under any content type, an empty write as {},
   * fields of the wrong type dropped, a bulk item without id given one. The spec binds the client here
   * (spec 5 rule 3; no field is marked required), so this is conformant: only advisory checks may object.
   */
  lenientInput: boolean;
  /** The most items POST /offers/bulk takes; a larger bulk answers 413 (spec 8: maximum bulk size not shown). 0: none. */
  maxBulkItems: number;
  /** Answer 429 with Retry-After while this quota is spent (mock/throttle.ts); spec 8 leaves rate limits open. */
  throttle?: ThrottleSettings;
  // What a filter, a window or a page leaves open (spec 4.1, 4.2: not shown), read the other way. Absent: the default.
  /** What GET /offers?start&end filters on (spec 4.3: not shown): transportTimestamp (default) or the time of the last write. */
  offerWindowOn?: 'transportTimestamp' | 'written';
  /** Whether the start and end of GET /offers and GET /billingGroups include their own bound (not shown). Default inclusive. */
  windowBounds?: 'inclusive' | 'exclusive';
  /** The number of the first page of GET /invoices (not shown). Default 1. */
  firstPage?: 0 | 1;
  /** GET /invoices without a limit answers at most this many (spec 8: page size not shown). Default 0: all of them. */
  defaultPageSize?: number;
  /**
   * How the batch status (spec 4.3: body not shown) words a processed write: `status: PROCESSED` (default),
   * `state: done`, or no word at all (`progress` only), so a client may rely on none of them.
   */
  batchStatusWords?: 'processed' | 'done' | 'none';
  /** false: GET /offers leaves cancelled offers out (spec 4.1 does not say a listing shows them). Default true. */
  listsCancelledOffers?: boolean;
  /** How long a write takes to show when startMock is given no writeDelayMs (spec 1: asynchronous). Default 0. */
  writeDelayMs?: number;
  /**
   * GET /offers answers 400 unless both `start` and `end` are given: spec 4.1 documents them, and whether they are
   * required is not shown. Default false.
   */
  offerListNeedsWindow?: boolean;
  /**
   * GET /billingGroups answers 400 unless both `start` and `end` are given: spec 4.2 documents them, and whether they
   * are required is not shown. Default false.
   */
  billingListNeedsWindow?: boolean;
  /** GET /invoices answers 400 unless `createdSince` is given (spec 4.2: documented, required-ness not shown). Default false. */
  invoiceListNeedsSince?: boolean;
  /**
   * GET /offers/{offerId} answers every version of the offer, oldest first (one element per offerVersion written):
   * spec 4.1 says "array of Offer" and not why it is an array. Default false: the current offer alone.
   */
  offerVersionsAnswered?: boolean;
  /**
   * An offer written as Open moves on by itself with time: Accepted 300 ms after its last write, Delivered after
   * 900 ms (spec 3: transitions are not shown). Default false: an offer keeps the status it was written with.
   */
  offerStatusOverTime?: boolean;
  /**
   * Every object an answer carries (at its top level, and the items of a top-level array) is stamped with the time of
   * that answer, `retrievedAt`, which is not stored: an undocumented field a server may add. Default false.
   */
  stampsRetrieval?: boolean;
  // How the billing and invoice lists are laid out (spec 4.2 shows no order; spec 8 leaves page sizes open).
  /** GET /billingGroups in date order, latest first, instead of the store's (spec 4.2: no order shown). Default 'stored'. */
  billingOrder?: 'stored' | 'date-desc';
  /**
   * GET /billingGroups answers at most this many groups, with `Link: <…&page=N+1>; rel="next"` when more match (and
   * reads an undocumented `page`): spec 4.2 documents no paging parameter, spec 8 leaves the page size open. 0: none.
   */
  billingPageSize?: number;
  /** GET /invoices by `updated`, latest first, then id, instead of by `created` (spec 4.2: no order shown). */
  invoiceOrder?: 'created' | 'updated-desc';
  /** No answer of GET /invoices holds more than this many invoices, whatever the limit (spec 8). 0: no cap. */
  maxPageSize?: number;
  /** The key under which the objects of an invoice's billingGroups and billingGroupDetails carry their id (spec 2.7). */
  invoiceGroupIdField?: 'id' | 'billingGroupId';
  /** `millis`: the single invoice views write created and updated with milliseconds, the list without (spec 2: UTC). */
  singleViewTimestamps?: 'seconds' | 'millis';
  // How section 4.3 records are shown and deleted (spec 4.3: no bodies shown; spec 1: clients delete). Absent: as
  // written, removed, bare arrays, at once (mock/catalogue-views.ts).
  /** `ids`: a GET shows a record's ids and what the server says of it, not the fields the client wrote. */
  catalogueBodies?: 'echo' | 'ids';
  /** `mark`: a DELETE keeps the record, saying `deleted: true` with `deletedAt`; a PUT makes it live again. */
  catalogueDelete?: 'remove' | 'mark';
  /** `paged`: a collection answers `{ items, total, next }`, at most 5 records a page (spec 8: page size not shown). */
  catalogueLists?: 'array' | 'paged';
  /** A GET by id answers `{ "data": record }`. */
  catalogueWrapped?: boolean;
  /** How long a section 4.3 write takes to show (spec 1 shows the timing of none but offers). Default 0. */
  catalogueWriteDelayMs?: number;
}

export const variantPresets: Record<
  'default' | 'different' | 'throttled' | 'open-choices' | 'eventual' | 'offer-versions' | 'paged-lists',
  MockVariant
> = {
  default: { createdStatus: 200, idFormat: 'prefixed', extraFields: false, lenientInput: false, maxBulkItems: 0 },
  // Section 4.3 records shown by their ids alone, wrapped, and kept marked when deleted; every answer stamped with a
  // time of retrieval that is not stored.
  different: {
    createdStatus: 201,
    idFormat: 'uuid',
    extraFields: true,
    lenientInput: true,
    maxBulkItems: 3,
    catalogueBodies: 'ids',
    catalogueWrapped: true,
    catalogueDelete: 'mark',
    stampsRetrieval: true,
  },
  // A quota of 100 requests a second, as a shared sandbox allows: a full run meets 429s and must wait them out.
  throttled: {
    createdStatus: 200,
    idFormat: 'prefixed',
    extraFields: false,
    lenientInput: false,
    maxBulkItems: 0,
    throttle: { perSecond: 100, burst: 100 },
  },
  // Every choice a filter, a window or a page leaves open, taken the other way: offers windowed on their write time,
  // bounds that exclude themselves, pages from 0, and a list cut at 20 when no limit is asked for.
  'open-choices': {
    createdStatus: 202,
    idFormat: 'numeric',
    extraFields: false,
    lenientInput: false,
    maxBulkItems: 0,
    offerWindowOn: 'written',
    windowBounds: 'exclusive',
    firstPage: 0,
    defaultPageSize: 20,
  },
  // Writes show asynchronously (spec 1): a server whose batch status says `state: done`, whose listing leaves
  // cancelled offers out, and whose offers move on from Open by themselves with time (spec 3).
  eventual: {
    createdStatus: 202,
    idFormat: 'numeric',
    extraFields: false,
    lenientInput: false,
    maxBulkItems: 0,
    batchStatusWords: 'done',
    listsCancelledOffers: false,
    writeDelayMs: 400,
    catalogueWriteDelayMs: 300,
    catalogueLists: 'paged',
    offerStatusOverTime: true,
  },
  // An API built by someone else: GET /offers and GET /billingGroups refuse a list without their documented window,
  // GET /invoices one without createdSince, GET /offers/{offerId} answers every version of the offer, and its ids hold
  // characters a URL must have percent-encoded.
  'offer-versions': {
    createdStatus: 201,
    idFormat: 'reserved',
    extraFields: false,
    lenientInput: false,
    maxBulkItems: 0,
    offerListNeedsWindow: true,
    offerVersionsAnswered: true,
    billingListNeedsWindow: true,
    invoiceListNeedsSince: true,
  },
  // Billing groups and invoices laid out as another server might: groups latest first and ten a page with a Link
  // header, invoices by update time and never more than twelve an answer, invoices' groups carrying their id under
  // another key, single views with milliseconds.
  'paged-lists': {
    createdStatus: 200,
    idFormat: 'prefixed',
    extraFields: false,
    lenientInput: false,
    maxBulkItems: 0,
    billingOrder: 'date-desc',
    billingPageSize: 10,
    invoiceOrder: 'updated-desc',
    maxPageSize: 12,
    invoiceGroupIdField: 'billingGroupId',
    singleViewTimestamps: 'millis',
  },
};

export type VariantPresetName = keyof typeof variantPresets;
export const variantPresetNames = Object.keys(variantPresets) as VariantPresetName[];

const createdStatuses: readonly number[] = [200, 201, 202];
const idFormats: readonly string[] = ['prefixed', 'uuid', 'numeric', 'reserved'];

/** Fills a partial variant from the default and rejects values outside the type (callers may pass untyped config). */
export function resolveVariant(partial: Partial<MockVariant> = {}): MockVariant {
  const v = { ...variantPresets.default, ...partial };
  if (!createdStatuses.includes(v.createdStatus))
    throw new Error(`variant.createdStatus must be one of ${createdStatuses.join(', ')}`);
  if (!idFormats.includes(v.idFormat)) throw new Error(`variant.idFormat must be one of ${idFormats.join(', ')}`);
  if (typeof v.extraFields !== 'boolean') throw new Error('variant.extraFields must be a boolean');
  if (typeof v.lenientInput !== 'boolean') throw new Error('variant.lenientInput must be a boolean');
  if (!Number.isInteger(v.maxBulkItems) || v.maxBulkItems < 0)
    throw new Error('variant.maxBulkItems must be a whole number, 0 for no limit');
  checkOpenChoices(v);
  checkListLayout(v);
  if (v.batchStatusWords !== undefined && !['processed', 'done', 'none'].includes(v.batchStatusWords))
    throw new Error('variant.batchStatusWords must be one of processed, done, none');
  if (v.writeDelayMs !== undefined && (!Number.isFinite(v.writeDelayMs) || v.writeDelayMs < 0))
    throw new Error('variant.writeDelayMs must be a number of at least 0');
  checkCatalogueChoices(v);
  for (const key of [
    'offerListNeedsWindow',
    'offerVersionsAnswered',
    'billingListNeedsWindow',
    'invoiceListNeedsSince',
    'catalogueWrapped',
    'offerStatusOverTime',
    'stampsRetrieval',
  ] as const)
    if (v[key] !== undefined && typeof v[key] !== 'boolean') throw new Error(`variant.${key} must be a boolean`);
  return v;
}

/** The choices of how section 4.3 records are shown and deleted. */
function checkCatalogueChoices(v: MockVariant): void {
  if (v.catalogueBodies !== undefined && !['echo', 'ids'].includes(v.catalogueBodies))
    throw new Error("variant.catalogueBodies must be 'echo' or 'ids'");
  if (v.catalogueDelete !== undefined && !['remove', 'mark'].includes(v.catalogueDelete))
    throw new Error("variant.catalogueDelete must be 'remove' or 'mark'");
  if (v.catalogueLists !== undefined && !['array', 'paged'].includes(v.catalogueLists))
    throw new Error("variant.catalogueLists must be 'array' or 'paged'");
  if (
    v.catalogueWriteDelayMs !== undefined &&
    (!Number.isFinite(v.catalogueWriteDelayMs) || v.catalogueWriteDelayMs < 0)
  )
    throw new Error('variant.catalogueWriteDelayMs must be a number of at least 0');
}

/** Status of the asynchronous offer acknowledgements (PUT, DELETE, bulk): "accepted" fits them best when not 200. */
export function offerAckStatus(variant: MockVariant): 200 | 202 {
  return variant.createdStatus === 200 ? 200 : 202;
}

/** The optional choices of filters, windows and pages, which the spec leaves open. */
function checkOpenChoices(v: MockVariant): void {
  if (v.offerWindowOn !== undefined && !['transportTimestamp', 'written'].includes(v.offerWindowOn))
    throw new Error("variant.offerWindowOn must be 'transportTimestamp' or 'written'");
  if (v.windowBounds !== undefined && !['inclusive', 'exclusive'].includes(v.windowBounds))
    throw new Error("variant.windowBounds must be 'inclusive' or 'exclusive'");
  if (v.firstPage !== undefined && v.firstPage !== 0 && v.firstPage !== 1)
    throw new Error('variant.firstPage must be 0 or 1');
  if (v.defaultPageSize !== undefined && (!Number.isInteger(v.defaultPageSize) || v.defaultPageSize < 0))
    throw new Error('variant.defaultPageSize must be a whole number, 0 for none');
}

/** The optional layout of the billing and invoice lists and views. */
function checkListLayout(v: MockVariant): void {
  const oneOf = (key: keyof MockVariant, values: readonly string[]) => {
    const value = v[key];
    if (value !== undefined && !values.includes(String(value)))
      throw new Error(`variant.${key} must be one of ${values.join(', ')}`);
  };
  oneOf('billingOrder', ['stored', 'date-desc']);
  oneOf('invoiceOrder', ['created', 'updated-desc']);
  oneOf('invoiceGroupIdField', ['id', 'billingGroupId']);
  oneOf('singleViewTimestamps', ['seconds', 'millis']);
  for (const key of ['billingPageSize', 'maxPageSize'] as const) {
    const n = v[key];
    if (n !== undefined && (!Number.isInteger(n) || n < 0))
      throw new Error(`variant.${key} must be a whole number, 0 for none`);
  }
}

/** Whether `value` lies in the window [start, end] as the variant reads its bounds; an absent bound does not limit. */
export function inWindow<T extends string | number>(
  variant: MockVariant,
  value: T,
  start: T | undefined,
  end: T | undefined,
): boolean {
  const exclusive = variant.windowBounds === 'exclusive';
  const afterStart = start === undefined || (exclusive ? value > start : value >= start);
  const beforeEnd = end === undefined || (exclusive ? value < end : value <= end);
  return afterStart && beforeEnd;
}
