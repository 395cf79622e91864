/**
 * Faults at the edges of identity (spec 2: ids are strings; spec 4.2): a GET that finds a record by an id in any
 * case, and pages cut by a cursor on a sort key that two records share.
 */
import type { FaultName } from '../faults.ts';
import type { Invoice, InvoicePageRequest } from '../invoice-store.ts';
import type { JsonObject } from '../json.ts';
import { invoiceList } from '../routes/invoices.ts';
import type { Bend, FaultLayer, RouteKey } from './layer.ts';

/** GET `key` answers the record whose id equals the one asked for but for letter case. */
function findAnyCase(layer: FaultLayer, key: RouteKey, param: string, ids: () => string[]): void {
  layer.route(key, {
    preHandler: (request) => {
      const params = request.params as Record<string, string>;
      const asked = params[param]?.toLowerCase();
      const found = asked === undefined ? undefined : ids().find((id) => id.toLowerCase() === asked);
      if (found !== undefined) params[param] = found;
    },
  });
}

function matches(i: Invoice, req: InvoicePageRequest): boolean {
  return (
    (req.createdSinceMs === undefined || Date.parse(i.created) >= req.createdSinceMs) &&
    (req.updatedSinceMs === undefined || Date.parse(i.updated) >= req.updatedSinceMs)
  );
}

/**
 * The page a cursor on `created` gives: each page starts after the last `created` instant of the one before, so an
 * invoice sharing that instant with the last one of a page is on neither.
 */
function keysetPage(all: readonly Invoice[], req: InvoicePageRequest & { limit: number; page: number }): JsonObject[] {
  const matching = all.filter((i) => matches(i, req));
  let cursor: number | undefined;
  let page: Invoice[] = [];
  for (let n = req.firstPage; n <= req.page; n++) {
    const after = cursor;
    page = (after === undefined ? matching : matching.filter((i) => Date.parse(i.created) > after)).slice(0, req.limit);
    const last = page.at(-1);
    if (!last) return [];
    cursor = Date.parse(last.created);
  }
  return page.map((i) => ({ ...i }));
}

export const edgeBends = {
  'billing-group-id-any-case': (layer) =>
    findAnyCase(layer, 'GET /billingGroups/:billingGroupId', 'billingGroupId', () =>
      layer.ctx.billing.list().map((g) => g.id),
    ),
  'invoice-id-any-case': (layer) => {
    for (const key of ['GET /invoices/:invoiceId', 'GET /invoicesBillingGroupDetailsSnapshot/:invoiceId'] as const)
      findAnyCase(layer, key, 'invoiceId', () => layer.ctx.invoices.list().map((i) => i.id));
  },
  'page-boundary-skips-ties': (layer) =>
    layer.steps('GET /invoices', invoiceList, {
      answered: (page, req) =>
        req.limit === undefined || req.page === undefined
          ? page
          : keysetPage(layer.ctx.invoices.list(), { ...req, limit: req.limit, page: req.page }),
    }),
} satisfies Partial<Record<FaultName, Bend>>;
