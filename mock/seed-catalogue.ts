/** Seeded records of the section 4.3 resources: a small, plausible haulage business. */
import { isoSeconds, isoDate } from './formats.ts';
import type { JsonObject } from './json.ts';
import { locationOf, places, type Place } from './seed-directory.ts';
import { pick, seedTime, type Ref } from './seed-refs.ts';
import { keyOf, type Collection } from './store.ts';

export interface SeedRecord {
  collection: Collection;
  key: string;
  record: JsonObject;
}

export interface SeedCustomer {
  id: string;
  name: string;
  externalId: string;
  integrationId: string;
}

const customerRows = [
  ['Harbour Foods Ltd', 'HF-0042', 'Liverpool'],
  ['Pennine Building Supplies', 'PBS-1187', 'Huddersfield'],
  ['Caledonian Paper Mills', 'CPM-0310', 'Perth'],
  ['Solent Marine Fuels', 'SMF-0775', 'Southampton'],
] as const;

export function seedCustomers(ref: Ref): SeedCustomer[] {
  return customerRows.map(([name, externalId], n) => ({
    id: ref('customer', n),
    name,
    externalId,
    integrationId: `erp-${externalId.toLowerCase()}`,
  }));
}

function top(collection: Collection, record: JsonObject): SeedRecord {
  return { collection, key: keyOf([String(record.id)]), record };
}

function child(collection: Collection, parents: string[], record: JsonObject): SeedRecord {
  return { collection, key: keyOf([...parents, String(record.id)]), record };
}

function customers(ref: Ref): SeedRecord[] {
  return seedCustomers(ref).map((c, n) =>
    top('customers', {
      ...c,
      email: `logistics@${c.externalId.toLowerCase()}.example.co.uk`,
      phone: `+44 161 496 0${String(100 + n)}`,
      city: pick(customerRows, n)[2],
      vatNumber: `GB${String(284_000_000 + n * 7919)}`,
      active: n !== 3,
    }),
  );
}

function products(ref: Ref): SeedRecord[] {
  const rows = [
    ['CHL-PAL', 'Chilled pallet', 'pallet', false],
    ['CEM-25', 'Cement, 25 kg bag', 'bag', false],
    ['PAP-REEL', 'Paper reel', 'reel', false],
    ['MGO', 'Marine gas oil', 'litre', true],
  ] as const;
  return rows.map(([code, name, unit, hazardous], n) =>
    top('products', {
      id: ref('product', n),
      productCode: code,
      name,
      unit,
      hazardous,
      externalId: `PRD-${code}`,
      ...(hazardous ? { unNumber: 'UN1202' } : {}),
    }),
  );
}

function fleet(ref: Ref): SeedRecord[] {
  const tractors = [
    ['MX19 KTE', 'DAF', 'XF 480'],
    ['YK70 BNO', 'Volvo', 'FH 460'],
    ['SF21 RZU', 'Scania', 'R 450'],
  ] as const;
  const trailers = [
    ['TR-2041', 'Curtainsider', 13.6],
    ['TR-2077', 'Refrigerated', 13.6],
    ['TR-3110', 'Tanker', 12.2],
  ] as const;
  const containers = [
    ['MSCU 483920-1', '45G1', 3900],
    ['TGHU 771203-6', '22G1', 2200],
    ['CMAU 102938-4', '45R1', 4800],
  ] as const;
  const drivers = [
    ['Aisha', 'Khan', 'Trafford Park'],
    ['Tom', 'Reilly', 'Hams Hall'],
    ['Morag', 'Campbell', 'Eurocentral'],
  ] as const;
  return [
    ...tractors.map(([registration, make, model], n) =>
      top('tractorUnits', {
        id: ref('tractor', n),
        name: registration,
        registration,
        make,
        model,
        externalId: `TU-${String(500 + n)}`,
      }),
    ),
    ...trailers.map(([fleetNumber, type, lengthM], n) =>
      top('trailers', { id: ref('trailer', n), fleetNumber, type, lengthM, externalId: `TRL-${String(700 + n)}` }),
    ),
    ...containers.map(([containerNumber, isoType, tareKg], n) =>
      top('isoContainers', { id: ref('container', n), containerNumber, isoType, tareKg }),
    ),
    ...drivers.map(([firstName, lastName, homeDepot], n) =>
      top('drivers', {
        id: ref('driver', n),
        firstName,
        lastName,
        homeDepot,
        licenceNumber: `${lastName.toUpperCase().slice(0, 5)}9${String(70_512 + n)}AB9CD`,
        active: true,
      }),
    ),
    top('subcontractors', {
      id: ref('subcontractor', 0),
      name: 'Mersey Owner Drivers',
      externalId: 'SUB-MOD',
      contactEmail: 'ops@merseyod.example.co.uk',
    }),
    top('subcontractors', {
      id: ref('subcontractor', 1),
      name: 'Fife Tipper Hire',
      externalId: 'SUB-FTH',
      contactEmail: 'hire@fifetipper.example.co.uk',
    }),
  ];
}

function stop(place: Place, ref: Ref, n: number, at: number): JsonObject {
  return { location: locationOf(place, ref, n), plannedAt: isoSeconds(at) };
}

function bookings(ref: Ref): SeedRecord[] {
  const out: SeedRecord[] = [];
  for (let n = 0; n < 4; n++) {
    const id = ref('booking', n);
    out.push(
      top('bookings', {
        id,
        reference: `BK-25-${String(1001 + n)}`,
        customerId: ref('customer', n),
        carrierId: ref('carrier', (n % 3) + 1),
        status: n === 3 ? 'COMPLETED' : 'ALLOCATED',
        onTime: n !== 2,
        createdAt: isoSeconds(seedTime(20 + n * 6)),
        pickup: stop(pick(places, n), ref, n, seedTime(22 + n * 6, 2)),
        delivery: stop(pick(places, n + 3), ref, n + 3, seedTime(23 + n * 6, 6)),
      }),
    );
  }
  const b0 = ref('booking', 0);
  out.push(
    child('bookingEvents', [b0], {
      id: ref('booking-event', 0),
      bookingId: b0,
      event: 'ARRIVED_AT_PICKUP',
      occurredAt: isoSeconds(seedTime(22, 2)),
      canceled: false,
    }),
  );
  out.push(
    child('bookingEvents', [b0], {
      id: ref('booking-event', 1),
      bookingId: b0,
      event: 'LOADED',
      occurredAt: isoSeconds(seedTime(22, 3)),
      canceled: false,
    }),
  );
  out.push(
    child('bookingAttachments', [b0], {
      id: ref('attachment', 0),
      bookingId: b0,
      fileName: 'delivery-note-BK-25-1001.pdf',
      contentType: 'application/pdf',
    }),
  );
  return out;
}

function carrierBookings(ref: Ref): SeedRecord[] {
  const out: SeedRecord[] = [];
  for (let n = 0; n < 2; n++) {
    const bookingId = ref('carrier-booking', n);
    const toId = ref('transport-order', n);
    out.push(
      top('carrierBookings', {
        id: bookingId,
        bookingReference: `CB-25-${String(3001 + n)}`,
        carrierId: ref('carrier', n + 1),
        status: 'OFFERED',
        acknowledged: false,
        customerBookingId: ref('customer-booking', n),
        createdAt: isoSeconds(seedTime(30 + n)),
      }),
    );
    out.push(
      child('transportOrders', [bookingId], {
        id: toId,
        bookingId,
        status: 'ASSIGNED',
        canceled: false,
        legs: [{ id: ref('leg', n), from: pick(places, n).locationName, to: pick(places, n + 4).locationName }],
      }),
    );
    out.push(
      child('carrierBookingEvents', [bookingId, toId], {
        id: ref('carrier-event', n),
        bookingId,
        transportOrderId: toId,
        type: 'pickupEta',
        payload: { eta: isoSeconds(seedTime(31 + n, 7)) },
        recordedAt: isoSeconds(seedTime(30 + n, 9)),
        canceled: false,
      }),
    );
  }
  return out;
}

function contractsAndOrders(ref: Ref): SeedRecord[] {
  const o0 = ref('order', 0);
  return [
    top('largeContracts', {
      id: ref('contract', 0),
      name: 'North West trunking 2025',
      carrierId: ref('carrier', 1),
      validFrom: '2025-01-01',
      validTo: '2025-12-31',
      lanes: [{ from: 'Trafford Park', to: 'Hams Hall', ratePerLoad: 485 }],
    }),
    top('largeContracts', {
      id: ref('contract', 1),
      name: 'Scotland ambient',
      carrierId: ref('carrier', 3),
      validFrom: '2025-04-01',
      validTo: '2026-03-31',
      lanes: [{ from: 'Eurocentral', to: 'Team Valley', ratePerLoad: 612 }],
    }),
    top('orders', {
      id: o0,
      orderNumber: 'PO-77120',
      customerId: ref('customer', 0),
      status: 'CONFIRMED',
      lines: [{ productCode: 'CHL-PAL', quantity: 26 }],
    }),
    top('orders', {
      id: ref('order', 1),
      orderNumber: 'PO-77121',
      customerId: ref('customer', 1),
      status: 'DRAFT',
      lines: [{ productCode: 'CEM-25', quantity: 480 }],
    }),
    child('orderAttachments', [o0], {
      id: ref('order-attachment', 0),
      orderId: o0,
      fileName: 'PO-77120.pdf',
      contentType: 'application/pdf',
    }),
    top('customerBookings', {
      id: ref('customer-booking', 0),
      customerId: ref('customer', 0),
      reference: 'CUST-HF-5521',
      status: 'CONFIRMED',
    }),
    top('customerBookings', {
      id: ref('customer-booking', 1),
      customerId: ref('customer', 2),
      reference: 'CUST-CPM-0907',
      status: 'REQUESTED',
    }),
    top('corporateSupplies', {
      id: ref('supply', 0),
      locationId: ref('location', 0),
      productCode: 'CHL-PAL',
      quantity: 120,
      availableFrom: isoDate(seedTime(40)),
    }),
    top('corporateDemands', {
      id: ref('demand', 0),
      locationId: ref('location', 4),
      productCode: 'CHL-PAL',
      quantity: 80,
      requiredBy: isoDate(seedTime(43)),
    }),
  ];
}

function fuel(ref: Ref): SeedRecord[] {
  const vehicle = ref('tractor', 0);
  const shift = ref('shift', 0);
  const group = ref('dispatch-group', 0);
  const request = ref('fuel-request', 0);
  const site = ref('location', 3);
  const at = (h: number): string => isoSeconds(seedTime(50, h));
  return [
    top('fuelPickups', {
      id: ref('fuel-pickup', 0),
      vehicleId: vehicle,
      shiftId: shift,
      dispatchGroupId: group,
      terminal: 'Avonmouth Fuel Terminal',
      product: 'Diesel',
      litres: 18_000,
      occurredAt: at(1),
    }),
    top('fuelPickups', {
      id: ref('fuel-pickup', 1),
      vehicleId: ref('tractor', 1),
      shiftId: ref('shift', 1),
      dispatchGroupId: ref('dispatch-group', 1),
      terminal: 'Grangemouth',
      product: 'Kerosene',
      litres: 12_500,
      occurredAt: at(5),
    }),
    top('fuelDeliveries', {
      id: ref('fuel-delivery', 0),
      deliveryRequestId: request,
      dispatchGroupId: group,
      vehicleId: vehicle,
      locationId: site,
      product: 'Diesel',
      litres: 9_000,
      deliveredAt: at(3),
    }),
    top('fuelDeliveries', {
      id: ref('fuel-delivery', 1),
      deliveryRequestId: ref('fuel-request', 2),
      dispatchGroupId: group,
      vehicleId: vehicle,
      locationId: ref('location', 5),
      product: 'Diesel',
      litres: 8_600,
      deliveredAt: at(4),
    }),
    top('fuelInventoryAdjustments', {
      id: ref('fuel-adjustment', 0),
      vehicleId: vehicle,
      dispatchGroupId: group,
      reason: 'Temperature correction',
      litres: -42,
      occurredAt: at(6),
    }),
    top('fuelInventoryAdjustments', {
      id: ref('fuel-adjustment', 1),
      vehicleId: ref('tractor', 1),
      dispatchGroupId: ref('dispatch-group', 1),
      reason: 'Dip reading',
      litres: 15,
      occurredAt: at(8),
    }),
    top('fuelActivities', {
      id: ref('fuel-activity', 0),
      type: 'PICKUP',
      vehicleId: vehicle,
      shiftId: shift,
      dispatchGroupId: group,
      litres: 18_000,
      occurredAt: at(1),
    }),
    top('fuelActivities', {
      id: ref('fuel-activity', 1),
      type: 'DELIVERY',
      vehicleId: vehicle,
      shiftId: shift,
      dispatchGroupId: group,
      litres: 9_000,
      occurredAt: at(3),
    }),
    top('fuelActivities', {
      id: ref('fuel-activity', 2),
      type: 'DELIVERY',
      vehicleId: vehicle,
      shiftId: shift,
      dispatchGroupId: group,
      litres: 8_600,
      occurredAt: at(4),
    }),
    top('fuelActivities', {
      id: ref('fuel-activity', 3),
      type: 'PICKUP',
      vehicleId: ref('tractor', 1),
      shiftId: ref('shift', 1),
      dispatchGroupId: ref('dispatch-group', 1),
      litres: 12_500,
      occurredAt: at(5),
    }),
    top('fuelBulkTankDeliveryRequests', {
      id: request,
      locationId: site,
      product: 'Diesel',
      litres: 9_000,
      tanks: [{ tankId: ref('storage', 0), litres: 9_000 }],
      requestedFor: isoDate(seedTime(50)),
    }),
    top('fuelBulkTanklessDeliveryRequests', {
      id: ref('fuel-request', 1),
      locationId: ref('location', 6),
      product: 'Gas oil',
      litres: 2_000,
      requestedFor: isoDate(seedTime(51)),
    }),
    top('fuelPackagedDeliveryRequests', {
      id: ref('fuel-request', 2),
      locationId: ref('location', 5),
      items: [{ product: 'AdBlue 10 L', quantity: 40 }],
      requestedFor: isoDate(seedTime(50)),
    }),
    child('fuelStorages', [site], {
      id: ref('storage', 0),
      locationId: site,
      product: 'Diesel',
      capacityLitres: 30_000,
      levelLitres: 21_400,
    }),
    child('fuelStorages', [site], {
      id: ref('storage', 1),
      locationId: site,
      product: 'AdBlue',
      capacityLitres: 5_000,
      levelLitres: 3_100,
    }),
    child('fuelStorageMeasurements', [site, ref('storage', 0)], {
      id: ref('measurement', 0),
      locationId: site,
      storageId: ref('storage', 0),
      levelLitres: 21_400,
      measuredAt: at(7),
    }),
  ];
}

export function seedCatalogue(ref: Ref): SeedRecord[] {
  return [
    ...customers(ref),
    ...products(ref),
    ...fleet(ref),
    ...bookings(ref),
    ...carrierBookings(ref),
    ...contractsAndOrders(ref),
    ...fuel(ref),
  ];
}
