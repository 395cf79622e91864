/**
 * The generic JSON store behind the section 4.3 resources, whose fields the
 * spec does not show: records are kept as the client wrote them, by collection
 * and by key (the path parameters joined, e.g. "bookingId/eventId").
 */
import { clone, type JsonObject } from './json.ts';

export type Collection =
  | 'bookings'
  | 'bookingEvents'
  | 'bookingAttachments'
  | 'carrierBookings'
  | 'carrierBookingEvents'
  | 'transportOrders'
  | 'largeContracts'
  | 'orders'
  | 'orderAttachments'
  | 'corporateSupplies'
  | 'corporateDemands'
  | 'customerBookings'
  | 'customers'
  | 'products'
  | 'subcontractors'
  | 'isoContainers'
  | 'tractorUnits'
  | 'trailers'
  | 'drivers'
  | 'fulfilmentRequests'
  | 'fuelActivities'
  | 'fuelDeliveries'
  | 'fuelPickups'
  | 'fuelInventoryAdjustments'
  | 'fuelBulkTankDeliveryRequests'
  | 'fuelBulkTanklessDeliveryRequests'
  | 'fuelPackagedDeliveryRequests'
  | 'fuelStorages'
  | 'fuelStorageMeasurements';

export function keyOf(parts: readonly string[]): string {
  // "/" cannot clash: path parameters arrive decoded, but a decoded "/" inside one part is escaped here.
  return parts.map((p) => p.replaceAll('%', '%25').replaceAll('/', '%2F')).join('/');
}

export class RecordStore {
  private readonly collections = new Map<Collection, Map<string, JsonObject>>();

  /** The softDeletesRecords variant: a DELETE marks the record deleted; its GET answers it, lists leave it out. */
  constructor(private readonly softDelete = false) {}

  private static live(r: JsonObject): boolean {
    return r.deleted !== true;
  }

  private collection(name: Collection): Map<string, JsonObject> {
    let c = this.collections.get(name);
    if (!c) {
      c = new Map();
      this.collections.set(name, c);
    }
    return c;
  }

  list(name: Collection): JsonObject[] {
    return [...this.collection(name).values()].filter(RecordStore.live).map(clone);
  }

  where(name: Collection, field: string, value: string): JsonObject[] {
    return this.list(name).filter((r) => r[field] === value);
  }

  get(name: Collection, key: string): JsonObject | undefined {
    const r = this.collection(name).get(key);
    return r && clone(r);
  }

  has(name: Collection, key: string): boolean {
    return this.collection(name).has(key);
  }

  put(name: Collection, key: string, record: JsonObject): JsonObject {
    this.collection(name).set(key, clone(record));
    return clone(record);
  }

  delete(name: Collection, key: string): boolean {
    const c = this.collection(name);
    const r = c.get(key);
    if (!this.softDelete || !r) return c.delete(key);
    c.set(key, { ...r, deleted: true, deletedAt: new Date().toISOString() });
    return true;
  }

  /** The keys of the records of a collection that match. */
  keysWhere(name: Collection, match: (r: JsonObject) => boolean): string[] {
    return [...this.collection(name)].filter(([, r]) => match(r)).map(([key]) => key);
  }

  /** Updates every record of a collection that matches; answers how many changed. */
  updateWhere(name: Collection, match: (r: JsonObject) => boolean, change: (r: JsonObject) => JsonObject): number {
    let n = 0;
    for (const [key, r] of this.collection(name)) {
      if (!match(r)) continue;
      this.collection(name).set(key, change(r));
      n++;
    }
    return n;
  }
}
