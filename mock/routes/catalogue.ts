/**
 * The section 4.3 catalogue as a route table: every listed operation is its
 * own Fastify route. The table is declared here (not read from specs/, which
 * mock/ may not import); tests/mock checks it against specs/openapi.yaml.
 */
import type { FastifyInstance } from 'fastify';
import type { MockContext } from '../context.ts';
import {
  bulk,
  cancelOne,
  create,
  getOne,
  listAll,
  listChildren,
  listWhere,
  remove,
  upsert,
  type HandlerFactory,
} from './catalogue-handlers.ts';
import {
  deleteTransportOrder,
  getCarrierBooking,
  getTransportOrder,
  listCarrierBookings,
  milestone,
  putAcceptance,
  putAcknowledge,
} from './carrier-bookings.ts';
import { dispatchGroup, storageMeasurement } from './fuel.ts';
import { searchCustomers, slaAnalytics } from './search-and-analytics.ts';

export interface CatalogueRoute {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  /** As the spec writes it, relative to /apis/v0. */
  path: string;
  operationId: string;
  /** spec 9 rule 3. */
  deprecated?: true;
  handler: HandlerFactory;
}

const TO = '/carrierBookings/{bookingId}/transportOrder/{transportOrderId}';

/**
 * The event name a milestone is recorded under: its path below the transport order, parameters left out, in camel
 * case (`leg/{legId}/uplift` → `legUplift`). Spec 6 does not show the event names.
 */
export function milestoneName(suffix: string): string {
  // Stryker disable next-line StringLiteral, MethodExpression, BooleanLiteral, ConditionalExpression, EqualityOperator, ArrowFunction, ArithmeticOperator: spec 6 the event names are not shown
  const words = suffix.split('/').filter((w) => !w.startsWith('{'));
  // Stryker disable next-line StringLiteral, MethodExpression, BooleanLiteral, ConditionalExpression, EqualityOperator, ArrowFunction, ArithmeticOperator: spec 6 the event names are not shown
  return words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
}

/** A milestone a carrier reports on a transport order: PUT {TO}/{suffix}, recorded as an event. */
function milestoneRoute(m: { operationId: string; suffix: string }): CatalogueRoute {
  return {
    method: 'PUT',
    path: `${TO}/${m.suffix}`,
    operationId: m.operationId,
    handler: milestone(milestoneName(m.suffix)),
  };
}

/** Requests status (batch, booking) is served by routes/requests-status.ts; it is not a generic store. */
export const catalogueRoutes: readonly CatalogueRoute[] = [
  { method: 'POST', path: '/analytics/sla', operationId: 'querySlaAnalytics', handler: slaAnalytics },

  { method: 'GET', path: '/bookings', operationId: 'listBookings', handler: listAll('bookings') },
  {
    method: 'POST',
    path: '/bookings',
    operationId: 'createBooking',
    deprecated: true,
    handler: create('bookings', 'booking'),
  },
  { method: 'GET', path: '/bookings/{bookingId}', operationId: 'getBooking', handler: getOne('bookings') },
  { method: 'PUT', path: '/bookings/{bookingId}', operationId: 'upsertBooking', handler: upsert('bookings') },
  {
    method: 'DELETE',
    path: '/bookings/{bookingId}',
    operationId: 'deleteBooking',
    handler: remove('bookings'),
  },
  {
    method: 'GET',
    path: '/bookings/{bookingId}/events',
    operationId: 'listBookingEvents',
    handler: listChildren('bookingEvents', 'bookings', 'bookingId'),
  },
  {
    method: 'POST',
    path: '/bookings/{bookingId}/events',
    operationId: 'createBookingEvent',
    deprecated: true,
    handler: create('bookingEvents', 'booking-event'),
  },
  {
    method: 'GET',
    path: '/bookings/{bookingId}/events/{eventId}',
    operationId: 'getBookingEvent',
    handler: getOne('bookingEvents'),
  },
  {
    method: 'PUT',
    path: '/bookings/{bookingId}/events/{eventId}',
    operationId: 'upsertBookingEvent',
    handler: upsert('bookingEvents'),
  },
  {
    method: 'DELETE',
    path: '/bookings/{bookingId}/events/{eventId}',
    operationId: 'deleteBookingEvent',
    handler: cancelOne('bookingEvents'),
  },
  {
    method: 'GET',
    path: '/bookings/{bookingId}/attachments',
    operationId: 'listBookingAttachments',
    handler: listChildren('bookingAttachments', 'bookings', 'bookingId'),
  },
  {
    method: 'PUT',
    path: '/bookings/{bookingId}/attachments/{attachmentId}',
    operationId: 'upsertBookingAttachment',
    handler: upsert('bookingAttachments'),
  },
  {
    method: 'DELETE',
    path: '/bookings/{bookingId}/attachments/{attachmentId}',
    operationId: 'deleteBookingAttachment',
    handler: remove('bookingAttachments'),
  },
  {
    method: 'POST',
    path: '/bookings/bulk',
    operationId: 'bulkCreateBookings',
    deprecated: true,
    handler: bulk('bookings', 'booking'),
  },

  { method: 'GET', path: '/carrierBookings', operationId: 'listCarrierBookings', handler: listCarrierBookings },
  { method: 'GET', path: '/carrierBookings/{bookingId}', operationId: 'getCarrierBooking', handler: getCarrierBooking },
  {
    method: 'PUT',
    path: '/carrierBookings/{bookingId}/acceptance',
    operationId: 'putCarrierBookingAcceptance',
    handler: putAcceptance,
  },
  {
    method: 'PUT',
    path: '/carrierBookings/{bookingId}/acknowledge',
    operationId: 'acknowledgeCarrierBooking',
    handler: putAcknowledge,
  },
  {
    method: 'GET',
    path: '/carrierBookings/{bookingId}/events',
    operationId: 'listCarrierBookingEvents',
    handler: listChildren('carrierBookingEvents', 'carrierBookings', 'bookingId'),
  },
  { method: 'GET', path: TO, operationId: 'getTransportOrder', handler: getTransportOrder },
  { method: 'DELETE', path: TO, operationId: 'deleteTransportOrder', handler: deleteTransportOrder },
  milestoneRoute({ operationId: 'putTransportOrderPickupEta', suffix: 'pickupEta' }),
  milestoneRoute({
    operationId: 'putTransportOrderArrivedAtPickup',
    suffix: 'arrivedAtPickup',
  }),
  milestoneRoute({ operationId: 'putTransportOrderPickup', suffix: 'pickup' }),
  milestoneRoute({ operationId: 'putTransportOrderGateIn', suffix: 'gateIn' }),
  milestoneRoute({
    operationId: 'uploadTransportOrderPickupSignature',
    suffix: 'pickup/upload/signature',
  }),
  milestoneRoute({
    operationId: 'uploadTransportOrderPickupAttachment',
    suffix: 'pickup/upload/attachment/{attachmentId}',
  }),
  milestoneRoute({ operationId: 'putTransportOrderDeliveryEta', suffix: 'deliveryEta' }),
  milestoneRoute({
    operationId: 'putTransportOrderArrivedAtDelivery',
    suffix: 'arrivedAtDelivery',
  }),
  milestoneRoute({ operationId: 'putTransportOrderDelivery', suffix: 'delivery' }),
  milestoneRoute({ operationId: 'putTransportOrderGateOut', suffix: 'gateOut' }),
  milestoneRoute({ operationId: 'putTransportOrderExceptionFlag', suffix: 'exceptionFlag' }),
  milestoneRoute({
    operationId: 'uploadTransportOrderDeliverySignature',
    suffix: 'delivery/upload/signature',
  }),
  milestoneRoute({
    operationId: 'uploadTransportOrderDeliveryAttachment',
    suffix: 'delivery/upload/attachment/{attachmentId}',
  }),
  milestoneRoute({
    operationId: 'putTransportOrderLegVehicleAssignment',
    suffix: 'leg/{legId}/vehicleAssignment',
  }),
  milestoneRoute({ operationId: 'putTransportOrderLegOffload', suffix: 'leg/{legId}/offload' }),
  milestoneRoute({ operationId: 'putTransportOrderLegUplift', suffix: 'leg/{legId}/uplift' }),

  {
    method: 'GET',
    path: '/largeContracts/{contractId}',
    operationId: 'getLargeContract',
    handler: getOne('largeContracts'),
  },
  {
    method: 'PUT',
    path: '/largeContracts/{contractId}',
    operationId: 'upsertLargeContract',
    handler: upsert('largeContracts'),
  },
  {
    method: 'DELETE',
    path: '/largeContracts/{contractId}',
    operationId: 'deleteLargeContract',
    handler: remove('largeContracts'),
  },

  { method: 'GET', path: '/orders', operationId: 'listOrders', handler: listAll('orders') },
  { method: 'GET', path: '/orders/{orderId}', operationId: 'getOrder', handler: getOne('orders') },
  { method: 'PUT', path: '/orders/{orderId}', operationId: 'upsertOrder', handler: upsert('orders') },
  { method: 'DELETE', path: '/orders/{orderId}', operationId: 'deleteOrder', handler: remove('orders') },
  {
    method: 'GET',
    path: '/orders/{orderId}/attachment/{attachmentId}',
    operationId: 'getOrderAttachment',
    handler: getOne('orderAttachments'),
  },
  {
    method: 'PUT',
    path: '/orders/{orderId}/attachment/{attachmentId}',
    operationId: 'upsertOrderAttachment',
    handler: upsert('orderAttachments'),
  },
  {
    method: 'DELETE',
    path: '/orders/{orderId}/attachment/{attachmentId}',
    operationId: 'deleteOrderAttachment',
    handler: remove('orderAttachments'),
  },

  {
    method: 'PUT',
    path: '/corporatePlanning/supplies/{supplyId}',
    operationId: 'upsertCorporatePlanningSupply',
    // Spec 4.3 lists no read of these records: where the mock keeps them, and under which id kind, no client can see.
    // Stryker disable next-line StringLiteral: spec 4.3 lists only the write of these records, so nothing reads what it stores
    handler: upsert('corporateSupplies'),
  },
  {
    method: 'PUT',
    path: '/corporatePlanning/demands/{demandId}',
    operationId: 'upsertCorporatePlanningDemand',
    // Spec 4.3 lists no read of these records: where the mock keeps them, and under which id kind, no client can see.
    // Stryker disable next-line StringLiteral: spec 4.3 lists only the write of these records, so nothing reads what it stores
    handler: upsert('corporateDemands'),
  },

  {
    method: 'GET',
    path: '/customerBookings/{customerBookingId}',
    operationId: 'getCustomerBooking',
    handler: getOne('customerBookings'),
  },
  {
    method: 'PUT',
    path: '/customerBookings/{customerBookingId}',
    operationId: 'upsertCustomerBooking',
    handler: upsert('customerBookings'),
  },
  {
    method: 'DELETE',
    path: '/customerBookings/{customerBookingId}',
    operationId: 'deleteCustomerBooking',
    handler: remove('customerBookings'),
  },
  {
    method: 'PUT',
    path: '/customerBookings/carrier/{customerBookingId}',
    operationId: 'upsertCustomerBookingCarrier',
    handler: upsert('customerBookings'),
  },

  { method: 'GET', path: '/customers', operationId: 'listCustomers', handler: listAll('customers') },
  { method: 'POST', path: '/customers', operationId: 'createCustomer', handler: create('customers', 'customer') },
  {
    method: 'GET',
    path: '/customers/{customerId}',
    operationId: 'getCustomer',
    handler: getOne('customers'),
  },
  { method: 'PUT', path: '/customers/{customerId}', operationId: 'upsertCustomer', handler: upsert('customers') },
  {
    method: 'POST',
    path: '/customers/bulk',
    operationId: 'bulkWriteCustomers',
    handler: bulk('customers', 'customer'),
  },
  { method: 'POST', path: '/customers/search', operationId: 'searchCustomers', handler: searchCustomers },

  { method: 'GET', path: '/products', operationId: 'listProducts', handler: listAll('products') },
  { method: 'POST', path: '/products', operationId: 'createProduct', handler: create('products', 'product') },
  {
    method: 'GET',
    path: '/products/{productCodeId}',
    operationId: 'getProduct',
    handler: getOne('products'),
  },
  { method: 'PUT', path: '/products/{productCodeId}', operationId: 'upsertProduct', handler: upsert('products') },
  { method: 'POST', path: '/products/bulk', operationId: 'bulkWriteProducts', handler: bulk('products', 'product') },

  { method: 'GET', path: '/subcontractors', operationId: 'listSubcontractors', handler: listAll('subcontractors') },
  {
    method: 'GET',
    path: '/subcontractors/{subcontractorId}',
    operationId: 'getSubcontractor',
    handler: getOne('subcontractors'),
  },
  {
    method: 'PUT',
    path: '/subcontractors/{subcontractorId}',
    operationId: 'upsertSubcontractor',
    handler: upsert('subcontractors'),
  },
  { method: 'GET', path: '/isoContainers', operationId: 'listIsoContainers', handler: listAll('isoContainers') },
  {
    method: 'GET',
    path: '/isoContainers/{isoContainerId}',
    operationId: 'getIsoContainer',
    handler: getOne('isoContainers'),
  },
  {
    method: 'PUT',
    path: '/isoContainers/{isoContainerId}',
    operationId: 'upsertIsoContainer',
    handler: upsert('isoContainers'),
  },
  { method: 'GET', path: '/tractorUnits', operationId: 'listTractorUnits', handler: listAll('tractorUnits') },
  {
    method: 'GET',
    path: '/tractorUnits/{tractorUnitId}',
    operationId: 'getTractorUnit',
    handler: getOne('tractorUnits'),
  },
  {
    method: 'PUT',
    path: '/tractorUnits/{tractorUnitId}',
    operationId: 'upsertTractorUnit',
    handler: upsert('tractorUnits'),
  },
  { method: 'GET', path: '/trailers', operationId: 'listTrailers', handler: listAll('trailers') },
  { method: 'GET', path: '/trailers/{trailerId}', operationId: 'getTrailer', handler: getOne('trailers') },
  { method: 'PUT', path: '/trailers/{trailerId}', operationId: 'upsertTrailer', handler: upsert('trailers') },
  { method: 'GET', path: '/drivers', operationId: 'listDrivers', handler: listAll('drivers') },
  { method: 'GET', path: '/drivers/{driverId}', operationId: 'getDriver', handler: getOne('drivers') },
  { method: 'PUT', path: '/drivers/{driverId}', operationId: 'upsertDriver', handler: upsert('drivers') },

  {
    method: 'POST',
    path: '/fulfilmentRequests',
    operationId: 'createFulfilmentRequest',
    // Spec 4.3 lists no read of these records: where the mock keeps them, and under which id kind, no client can see.
    // Stryker disable next-line StringLiteral: spec 4.3 lists only the write of these records, so nothing reads what it stores
    handler: create('fulfilmentRequests', 'fulfilment-request'),
  },

  { method: 'GET', path: '/fuel/activities', operationId: 'listFuelActivities', handler: listAll('fuelActivities') },
  {
    method: 'GET',
    path: '/fuel/activities/vehicle/{vehicleId}',
    operationId: 'listFuelActivitiesByVehicle',
    handler: listWhere('fuelActivities', 'vehicleId'),
  },
  {
    method: 'GET',
    path: '/fuel/activities/shift/{shiftId}',
    operationId: 'listFuelActivitiesByShift',
    handler: listWhere('fuelActivities', 'shiftId'),
  },
  { method: 'GET', path: '/fuel/deliveries', operationId: 'listFuelDeliveries', handler: listAll('fuelDeliveries') },
  {
    method: 'GET',
    path: '/fuel/deliveries/{deliveryId}',
    operationId: 'getFuelDelivery',
    handler: getOne('fuelDeliveries'),
  },
  {
    method: 'PUT',
    path: '/fuel/deliveries/{deliveryId}',
    operationId: 'upsertFuelDelivery',
    deprecated: true,
    handler: upsert('fuelDeliveries'),
  },
  {
    method: 'DELETE',
    path: '/fuel/deliveries/{deliveryId}',
    operationId: 'deleteFuelDelivery',
    deprecated: true,
    handler: remove('fuelDeliveries'),
  },
  { method: 'GET', path: '/fuel/pickups', operationId: 'listFuelPickups', handler: listAll('fuelPickups') },
  {
    method: 'GET',
    path: '/fuel/inventoryAdjustments',
    operationId: 'listFuelInventoryAdjustments',
    handler: listAll('fuelInventoryAdjustments'),
  },
  {
    method: 'GET',
    path: '/fuel/dispatchGroup/{dispatchGroupId}',
    operationId: 'getFuelDispatchGroup',
    handler: dispatchGroup,
  },
  {
    method: 'GET',
    path: '/fuel/deliveryRequests/{deliveryRequestId}/deliveries',
    operationId: 'listFuelDeliveryRequestDeliveries',
    handler: listWhere('fuelDeliveries', 'deliveryRequestId'),
  },
  {
    method: 'GET',
    path: '/fuel/packagedDeliveryRequests/{deliveryRequestId}/deliveries',
    operationId: 'listFuelPackagedDeliveryRequestDeliveries',
    handler: listWhere('fuelDeliveries', 'deliveryRequestId'),
  },
  {
    method: 'GET',
    path: '/fuel/bulkTankDeliveryRequests/{deliveryRequestId}',
    operationId: 'getFuelBulkTankDeliveryRequest',
    handler: getOne('fuelBulkTankDeliveryRequests'),
  },
  {
    method: 'PUT',
    path: '/fuel/bulkTankDeliveryRequests/{deliveryRequestId}',
    operationId: 'upsertFuelBulkTankDeliveryRequest',
    handler: upsert('fuelBulkTankDeliveryRequests'),
  },
  {
    method: 'DELETE',
    path: '/fuel/bulkTankDeliveryRequests/{deliveryRequestId}',
    operationId: 'deleteFuelBulkTankDeliveryRequest',
    handler: remove('fuelBulkTankDeliveryRequests'),
  },
  {
    method: 'GET',
    path: '/fuel/bulkTanklessDeliveryRequests/{deliveryRequestId}',
    operationId: 'getFuelBulkTanklessDeliveryRequest',
    handler: getOne('fuelBulkTanklessDeliveryRequests'),
  },
  {
    method: 'PUT',
    path: '/fuel/bulkTanklessDeliveryRequests/{deliveryRequestId}',
    operationId: 'upsertFuelBulkTanklessDeliveryRequest',
    handler: upsert('fuelBulkTanklessDeliveryRequests'),
  },
  {
    method: 'DELETE',
    path: '/fuel/bulkTanklessDeliveryRequests/{deliveryRequestId}',
    operationId: 'deleteFuelBulkTanklessDeliveryRequest',
    handler: remove('fuelBulkTanklessDeliveryRequests'),
  },
  {
    method: 'GET',
    path: '/fuel/packagedDeliveryRequests/{deliveryRequestId}',
    operationId: 'getFuelPackagedDeliveryRequest',
    handler: getOne('fuelPackagedDeliveryRequests'),
  },
  {
    method: 'PUT',
    path: '/fuel/packagedDeliveryRequests/{deliveryRequestId}',
    operationId: 'upsertFuelPackagedDeliveryRequest',
    handler: upsert('fuelPackagedDeliveryRequests'),
  },
  {
    method: 'DELETE',
    path: '/fuel/packagedDeliveryRequests/{deliveryRequestId}',
    operationId: 'deleteFuelPackagedDeliveryRequest',
    handler: remove('fuelPackagedDeliveryRequests'),
  },
  {
    method: 'GET',
    path: '/fuel/locations/{locationId}/storages',
    operationId: 'listFuelLocationStorages',
    handler: listWhere('fuelStorages', 'locationId'),
  },
  {
    method: 'PUT',
    path: '/fuel/locations/{locationId}/storages/{storageId}',
    operationId: 'upsertFuelLocationStorage',
    handler: upsert('fuelStorages'),
  },
  {
    method: 'PUT',
    path: '/fuel/locations/{locationId}/storages/{storageId}/measurement/{measurementId}',
    operationId: 'upsertFuelStorageMeasurement',
    handler: storageMeasurement,
  },
  // Deprecated in favour of bulkTankDeliveryRequests (spec 9 rule 3), so both paths share one store.
  {
    method: 'GET',
    path: '/fuel/deliveryRequests/{deliveryRequestId}',
    operationId: 'getFuelDeliveryRequest',
    deprecated: true,
    handler: getOne('fuelBulkTankDeliveryRequests'),
  },
  {
    method: 'PUT',
    path: '/fuel/deliveryRequests/{deliveryRequestId}',
    operationId: 'upsertFuelDeliveryRequest',
    deprecated: true,
    handler: upsert('fuelBulkTankDeliveryRequests'),
  },
  {
    method: 'DELETE',
    path: '/fuel/deliveryRequests/{deliveryRequestId}',
    operationId: 'deleteFuelDeliveryRequest',
    deprecated: true,
    handler: remove('fuelBulkTankDeliveryRequests'),
  },
];

export function paramNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => String(m[1]));
}

export function toFastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

export function catalogueRoutesPlugin(ctx: MockContext) {
  return async (app: FastifyInstance): Promise<void> => {
    for (const route of catalogueRoutes)
      app.route({
        method: route.method,
        url: toFastifyPath(route.path),
        handler: route.handler(ctx, paramNames(route.path)),
      });
  };
}
