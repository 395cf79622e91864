/** Faults of what is served (spec 4.3, 9): an operation answered as if it were missing, gone, refused or elsewhere. */
import { HttpError, notFound, replyError } from '../errors.ts';
import type { FaultName } from '../faults.ts';
import { catalogueRoutes, toFastifyPath } from '../routes/catalogue.ts';
import type { Bend, FaultLayer, Handler, RouteKey } from './layer.ts';

/** The route answers this error whatever it is asked, as a broken deployment does. */
function answers(layer: FaultLayer, key: RouteKey, error: HttpError): void {
  const handler: Handler = async (_request, reply) => replyError(reply, error);
  layer.route(key, { handler: () => handler });
}

function notServed(path: string): HttpError {
  return new HttpError(404, 'ROUTE_NOT_FOUND', `no operation GET /apis/v0${path}`);
}

export const servedBends = {
  'route-missing': (layer) => answers(layer, 'GET /fuel/pickups', notServed('/fuel/pickups')),
  'deprecated-removed': (layer) => {
    for (const route of catalogueRoutes.filter((r) => r.deprecated))
      answers(
        layer,
        `${route.method} ${toFastifyPath(route.path)}` as RouteKey,
        new HttpError(410, 'GONE', `${route.method} ${route.path} has been removed`),
      );
  },
  'api-prefix-wrong': (layer) => layer.serveUnder('/api/v0'),
  'record-route-missing': (layer) => answers(layer, 'GET /orders/:orderId', notServed('/orders/{orderId}')),
  'catalogue-write-refused': (layer) =>
    answers(
      layer,
      'PUT /largeContracts/:contractId',
      new HttpError(403, 'FORBIDDEN', 'this token may not write large contracts'),
    ),
  'batch-status-missing': (layer) =>
    layer.route('GET /bookings/requestsStatus/batch/:batchId', {
      handler: () => async () => {
        throw notFound('batch');
      },
    }),
} satisfies Partial<Record<FaultName, Bend>>;
