/**
 * The query that asks a documented list for every record it holds. A check that needs a list sends what the
 * operation documents where a server may need it: whether a documented query parameter is required is not shown
 * (spec 4.1, 4.2), so a server may refuse a list without it (a 4xx for an omission the spec does not rule out is
 * its right).
 */

/**
 * GET /offers documents `start` and `end` (spec 4.1). The window spans every date-time the suites write
 * (suites/generators/date-time.ts: 1900 to 2199) and every time of writing, whichever of the two a server filters
 * on (spec 4.3: not shown).
 */
export const WHOLE_OFFER_WINDOW: Readonly<Record<'start' | 'end', string>> = {
  start: '1900-01-01T00:00:00Z',
  end: '2200-01-01T00:00:00Z',
};

/**
 * GET /billingGroups documents `start` and `end` as dates (spec 4.2). Nothing in the spec writes a billing group,
 * so the window spans any date a deployment's groups may carry; whether a bound includes its own day is not shown,
 * and no group is dated on either bound.
 */
export const WHOLE_BILLING_WINDOW: Readonly<Record<'start' | 'end', string>> = {
  start: '1900-01-01',
  end: '2200-12-31',
};

/**
 * GET /invoices documents `createdSince` (a date, spec 4.2): since 1900 is every invoice. `updatedSince`, `limit`
 * and `page` narrow or cut the list, so they are sent only by the checks about them.
 */
export const WHOLE_INVOICE_SINCE: Readonly<Record<'createdSince', string>> = { createdSince: '1900-01-01' };

const WHOLE_QUERIES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  listOffers: WHOLE_OFFER_WINDOW,
  listBillingGroups: WHOLE_BILLING_WINDOW,
  listInvoices: WHOLE_INVOICE_SINCE,
};

/** The query of a list operation that covers everything it lists: the documented window where it has one. */
export function wholeListQuery(listOperationId: string): Record<string, string> {
  return { ...(WHOLE_QUERIES[listOperationId] ?? {}) };
}

/**
 * A query of a list with `narrowing` under test: the parameters it leaves out that the whole list sends are added,
 * so a server that needs them answers, and the answer is still narrowed by `narrowing` alone (the whole list's
 * parameters leave nothing out).
 */
export function narrowedListQuery<Q extends object>(listOperationId: string, narrowing: Q): Q {
  return { ...wholeListQuery(listOperationId), ...narrowing };
}
