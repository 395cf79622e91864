/** Fuel handlers that are more than a generic store: a dispatch group's trip and storage measurements (spec 4.3). */
import { notFound } from '../errors.ts';
import { keyOf } from '../store.ts';
import { requireObjectBody } from '../validation.ts';
import type { HandlerFactory } from './catalogue-handlers.ts';
import { paramAt, pathParams } from './params.ts';

/** Pickups, inventory adjustments and deliveries for one trip (spec 4.3). */
export const dispatchGroup: HandlerFactory = (ctx, params) => async (request) => {
  const dispatchGroupId = paramAt(pathParams(request, params), 0);
  const pickups = ctx.records.where('fuelPickups', 'dispatchGroupId', dispatchGroupId);
  const inventoryAdjustments = ctx.records.where('fuelInventoryAdjustments', 'dispatchGroupId', dispatchGroupId);
  const deliveries = ctx.records.where('fuelDeliveries', 'dispatchGroupId', dispatchGroupId);
  // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
  if (pickups.length + inventoryAdjustments.length + deliveries.length === 0) throw notFound('dispatch group');
  return { id: dispatchGroupId, dispatchGroupId, pickups, inventoryAdjustments, deliveries };
};

/** A measurement is stored and becomes the storage's latest level; the storage is created on first report. */
export const storageMeasurement: HandlerFactory = (ctx, params) => async (request) => {
  const body = requireObjectBody(request.body);
  const values = pathParams(request, params);
  const [locationId, storageId, measurementId] = [paramAt(values, 0), paramAt(values, 1), paramAt(values, 2)];
  const measurement = ctx.records.put('fuelStorageMeasurements', keyOf([locationId, storageId, measurementId]), {
    ...body,
    locationId,
    storageId,
    id: measurementId,
  });
  const storageKey = keyOf([locationId, storageId]);
  // Stryker disable next-line ObjectLiteral: spec 4.3 the bodies of fuel storages are not shown
  const storage = ctx.records.get('fuelStorages', storageKey) ?? { id: storageId, locationId };
  ctx.records.put('fuelStorages', storageKey, { ...storage, latestMeasurement: measurement });
  return measurement;
};
