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

/** A write the store has taken and not yet shown: it applies at `at` (ms since the epoch). */
interface PendingWrite {
  at: number;
  apply: () => void;
}

export class RecordStore {
  private readonly collections = new Map<Collection, Map<string, JsonObject>>();
  private readonly pending: PendingWrite[] = [];

  /**
   * `showAfterMs`: how long a write takes to show (spec 1 says only offers are written asynchronously, and shows
   * nothing of the others' timing, so a server may take its time with them too). 0 shows every write at once.
   */
  constructor(private readonly showAfterMs = 0) {}

  /** Writes whose time has come, in the order they were made. */
  private settle(): void {
    const now = Date.now();
    while (this.pending.length > 0 && (this.pending[0] as PendingWrite).at <= now) this.pending.shift()?.apply();
  }

  private later(apply: () => void): void {
    // How long a write takes to show is the server's (spec 1 shows the timing of none but offers' asynchrony).
    // Stryker disable next-line EqualityOperator, ConditionalExpression: spec 1 how long a write takes to show is not shown
    if (this.showAfterMs <= 0) apply();
    else this.pending.push({ at: Date.now() + this.showAfterMs, apply });
  }

  /** The collection as the clients see it now: every write whose time has come applied. */
  private collection(name: Collection): Map<string, JsonObject> {
    this.settle();
    return this.raw(name);
  }

  private raw(name: Collection): Map<string, JsonObject> {
    let c = this.collections.get(name);
    if (!c) {
      c = new Map();
      this.collections.set(name, c);
    }
    return c;
  }

  list(name: Collection): JsonObject[] {
    return [...this.collection(name).values()].map(clone);
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
    const kept = clone(record);
    this.later(() => this.raw(name).set(key, kept));
    return clone(record);
  }

  delete(name: Collection, key: string): boolean {
    const had = this.collection(name).has(key);
    this.later(() => this.raw(name).delete(key));
    return had;
  }

  /** The keys of the records of a collection that match. */
  keysWhere(name: Collection, match: (r: JsonObject) => boolean): string[] {
    return [...this.collection(name)].filter(([, r]) => match(r)).map(([key]) => key);
  }

  /** Updates every record of a collection that matches; answers how many changed. */
  updateWhere(name: Collection, match: (r: JsonObject) => boolean, change: (r: JsonObject) => JsonObject): number {
    const keys = this.keysWhere(name, match);
    this.later(() => {
      const c = this.raw(name);
      for (const key of keys) {
        const r = c.get(key);
        if (r) c.set(key, change(r));
      }
    });
    return keys.length;
  }
}
