/**
 * The query that asks a documented list for every record it holds. A check that needs a list sends what the
 * operation documents: GET /offers documents `start` and `end` (spec 4.1) and whether they are required is not shown,
 * so a server may refuse a list without them (a 4xx for an omission the spec does not rule out is its right). The
 * window spans every date-time the suites write (suites/generators/date-time.ts: 1900 to 2199) and every time of
 * writing, whichever of the two a server filters on (spec 4.3: not shown).
 */
export const WHOLE_OFFER_WINDOW: Readonly<Record<'start' | 'end', string>> = {
  start: '1900-01-01T00:00:00Z',
  end: '2200-01-01T00:00:00Z',
};

/** The query of a list operation that covers everything it lists: the documented window where it has one. */
export function wholeListQuery(listOperationId: string): Record<string, string> {
  return listOperationId === 'listOffers' ? { ...WHOLE_OFFER_WINDOW } : {};
}
