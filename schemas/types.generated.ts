/* Generated from schemas/*.schema.json by scripts/generate-types.ts (npm run types). Do not edit. */

/**
 * spec 2.1. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface Location {
  addressText?: string;
  latitude?: number;
  longitude?: number;
  locationName?: string;
  locationId?: string;
  externalId?: string;
  /**
   * A time zone name (spec 2.1).
   */
  timezone?: string;
  /**
   * Key-value object, may be null (spec 2.1).
   */
  properties?: {
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}

/**
 * spec 2.2. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface Offer {
  id: string;
  references: string[];
  offerVersion: string;
  bookingId: string;
  canceled: boolean;
  carrierId: string;
  carrierExternalId: string;
  carrierName: string;
  corporateId: string;
  corporateName: string;
  corporateSubaccountId: string;
  corporateSubaccountName: string;
  corporateSubaccountIntegrationId: string;
  transportRequirementsId: string;
  /**
   * Nullable; type not shown (spec 2.2).
   */
  productCode: unknown;
  /**
   * Nullable; type not shown (spec 2.2).
   */
  productCodeName: unknown;
  /**
   * Nullable; type not shown (spec 2.2).
   */
  productCodeExternalId: unknown;
  /**
   * Nullable key-value store (spec 2.2).
   */
  properties: {
    [k: string]: unknown;
  } | null;
  /**
   * Nullable; type not shown (spec 2.2).
   */
  productSpatialRequirement: unknown;
  /**
   * Nullable; type not shown (spec 2.2).
   */
  productMassKg: unknown;
  /**
   * Item type not shown (spec 2.2).
   */
  content: unknown[];
  quantity: number;
  /**
   * Whether the carrier is paid upon acceptance (false means paid) (spec 2.2).
   */
  noPayment: boolean;
  distanceKm: number;
  sourceId: string;
  /**
   * Nullable; type not shown (spec 2.2).
   */
  priceTransport: unknown;
  /**
   * Nullable; type not shown (spec 2.2).
   */
  priceFaf: unknown;
  /**
   * spec 2.2, spec 3.
   */
  priceStrategy: 'Deferred' | 'Fixed' | 'Group' | 'Precision' | 'Provided' | null;
  priceTransportAdjustmentReasons: string[];
  /**
   * Nullable; type not shown (spec 2.2).
   */
  priceTransportAdjustment: unknown;
  fromLocation: Location;
  toLocation: Location;
  fromLocationDistrict: string;
  fromLocationDistrictId: string;
  fromLocationRegion: string;
  toLocationDistrict: string;
  toLocationDistrictId: string;
  toLocationRegion: string;
  transportTimestamp: string;
  settled: boolean;
  queried: boolean;
  /**
   * Values shown: Delivered; complete list not shown (spec 3).
   */
  status: string;
  [k: string]: unknown;
}

/**
 * spec 4.1. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export type OfferList = Offer[];

/**
 * spec 2.3. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface OfferWrite {
  offer?: OfferWriteOffer;
  mappingRequests?: MappingRequests;
  cancel?: boolean;
  settled?: boolean;
  [k: string]: unknown;
}

/**
 * spec 2.3. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface OfferWriteOffer {
  references?: string[];
  offerVersion?: string;
  bookingId?: string;
  carrierId?: string;
  quantity?: number;
  /**
   * Nullable; type not shown (spec 2.3).
   */
  properties?: unknown;
  noPayment?: boolean;
  /**
   * Type not shown (spec 2.3).
   */
  productSpatialRequirement?: unknown;
  /**
   * Type not shown (spec 2.3).
   */
  productMassKg?: unknown;
  /**
   * Type not shown (spec 2.3).
   */
  metadata?: unknown;
  /**
   * Nullable; type not shown (spec 2.3).
   */
  priceTransport?: unknown;
  /**
   * Nullable; type not shown (spec 2.3).
   */
  priceFaf?: unknown;
  fromLocation?: Location;
  toLocation?: Location;
  transportTimestamp?: string;
  [k: string]: unknown;
}

/**
 * spec 2.3. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface MappingRequests {
  carrier?: MappingCarrier;
  /**
   * Nullable; type not shown (spec 2.3).
   */
  content?: unknown;
  product?: MappingProduct;
  fromLocation?: MappingLocation;
  toLocation?: MappingLocation;
  fromLocationGroup?: MappingLocationGroup;
  toLocationGroup?: MappingLocationGroup;
  [k: string]: unknown;
}

/**
 * spec 2.3. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface MappingCarrier {
  carrierExternalId?: string;
  [k: string]: unknown;
}

/**
 * spec 2.3. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface MappingProduct {
  /**
   * Nullable; type not shown (spec 2.3).
   */
  productCode?: unknown;
  /**
   * Nullable; type not shown (spec 2.3).
   */
  productCodeExternalId?: unknown;
  /**
   * Nullable; type not shown (spec 2.3).
   */
  productDescription?: unknown;
  [k: string]: unknown;
}

/**
 * spec 2.3. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface MappingLocation {
  /**
   * Nullable; type not shown (spec 2.3).
   */
  locationId?: unknown;
  /**
   * Nullable; type not shown (spec 2.3).
   */
  addressText?: unknown;
  /**
   * Nullable; type not shown (spec 2.3).
   */
  locationExternalId?: unknown;
  /**
   * Nullable; type not shown (spec 2.3).
   */
  locationName?: unknown;
  latitude?: number;
  longitude?: number;
  saveIfUnknown?: boolean;
  locationNameResolutionEnabled?: boolean;
  useDefaultParentGroup?: boolean;
  /**
   * Nullable; type not shown (spec 2.3).
   */
  parentGroupExternalId?: unknown;
  /**
   * Nullable; type not shown (spec 2.3).
   */
  parentGroupName?: unknown;
  saveGroupIfUnknown?: boolean;
  [k: string]: unknown;
}

/**
 * spec 2.3. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface MappingLocationGroup {
  /**
   * Nullable; type not shown (spec 2.3).
   */
  groupId?: unknown;
  /**
   * Nullable; type not shown (spec 2.3).
   */
  externalId?: unknown;
  usePrimaryLocation?: boolean;
  /**
   * Nullable; type not shown (spec 2.3).
   */
  subLocationExternalId?: unknown;
  [k: string]: unknown;
}

/**
 * spec 2.3. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export type OfferBulkItem = OfferWrite & {
  id: string;
  [k: string]: unknown;
};

/**
 * spec 2.3, spec 4.1. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export type OfferBulk = OfferBulkItem[];

/**
 * spec 2.4. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface BillingGroup {
  id: string;
  humanReadableId: string;
  date: string;
  priceManual: number;
  priceStorage: number;
  priceProduct: number;
  priceFaf: number;
  priceTransport: number;
  priceTotal: number;
  from: string;
  to: string;
  productDescription: string;
  /**
   * Key-value store of custom properties, nullable (spec 2.4).
   */
  properties: {
    [k: string]: unknown;
  } | null;
  customerId: string;
  customerName: string;
  customerIntegrationId: string;
  customerExternalId: string;
  inactive: boolean;
  /**
   * Values shown: Booked; complete list not shown (spec 3).
   */
  status: string;
  vehicles: string[];
  vehicleExternalIds: string[];
  vehicleNames: string[];
  /**
   * Fields inside these objects: not shown (spec 2.7).
   */
  vehiclesSnapshot: {
    [k: string]: unknown;
  }[];
  subcontractors: string[];
  subcontractorExternalIds: string[];
  subcontractorNames: string[];
  /**
   * Fields inside these objects: not shown (spec 2.7).
   */
  subcontractorsSnapshot: {
    [k: string]: unknown;
  }[];
  /**
   * Fields inside these objects: not shown (spec 2.7).
   */
  transport: {
    [k: string]: unknown;
  }[];
  /**
   * Fields inside these objects: not shown (spec 2.7).
   */
  storage: {
    [k: string]: unknown;
  }[];
  /**
   * Fields inside these objects: not shown (spec 2.7).
   */
  products: {
    [k: string]: unknown;
  }[];
  /**
   * Fields inside these objects: not shown (spec 2.7).
   */
  manual: {
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}

/**
 * spec 4.2. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export type BillingGroupList = BillingGroup[];

/**
 * spec 2.5. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface BillingGroupDetails {
  id: string;
  humanReadableId: string;
  /**
   * Fields inside these objects: not shown (spec 2.7).
   */
  branches: {
    [k: string]: unknown;
  }[];
  customerId: string;
  customerName: string;
  customerIntegrationId: string;
  customerExternalId: string;
  /**
   * Object map (spec 2.5).
   */
  crnNumberByCustomerId: {
    [k: string]: unknown;
  };
  inactive: boolean;
  status: string;
  date: string;
  /**
   * Nullable; type not shown (spec 2.5).
   */
  properties: unknown;
  /**
   * Fields inside these objects: not shown (spec 2.7).
   */
  jobs: {
    [k: string]: unknown;
  }[];
  /**
   * Fields inside these objects: not shown (spec 2.7).
   */
  transportRevenues: {
    [k: string]: unknown;
  }[];
  /**
   * Fields inside these objects: not shown (spec 2.7).
   */
  storageRevenues: {
    [k: string]: unknown;
  }[];
  /**
   * Fields inside these objects: not shown (spec 2.7).
   */
  productRevenues: {
    [k: string]: unknown;
  }[];
  /**
   * Fields inside these objects: not shown (spec 2.7).
   */
  manualRevenues: {
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}

/**
 * spec 2.6. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface InvoicedBy {
  uid: string;
  email: string;
  name: string;
  [k: string]: unknown;
}

/**
 * spec 2.6. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface InvoiceListItem {
  id: string;
  invoiceDate: string;
  invoiceDueDate: string;
  invoicedBy: InvoicedBy;
  status: string;
  created: string;
  updated: string;
  billingGroupIds: string[];
  [k: string]: unknown;
}

/**
 * spec 4.2. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export type InvoiceList = InvoiceListItem[];

/**
 * spec 2.6. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface Invoice {
  id: string;
  invoiceDate: string;
  invoiceDueDate: string;
  invoicedBy: InvoicedBy;
  status: string;
  created: string;
  updated: string;
  /**
   * Fields inside these objects: not shown (spec 2.7).
   */
  billingGroups: {
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}

/**
 * spec 2.6. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface InvoiceSnapshot {
  id: string;
  invoiceDate: string;
  invoiceDueDate: string;
  invoicedBy: InvoicedBy;
  status: string;
  created: string;
  updated: string;
  /**
   * Fields inside these objects: not shown (spec 2.7).
   */
  billingGroupDetails: {
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}

/**
 * spec 2.7. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface BatchAck {
  batchId: string;
  [k: string]: unknown;
}

/**
 * spec 2.7. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface BatchAckCreate {
  batchId: string;
  id: string;
  [k: string]: unknown;
}

/**
 * spec 2.7. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface BulkAck {
  success: boolean;
  batchId: string;
  [k: string]: unknown;
}

/**
 * spec 4.2. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface SuccessAck {
  success: boolean;
  [k: string]: unknown;
}

/**
 * spec 2.7. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface BillingGroupStatusUpdateItem {
  billingGroupId: string;
  /**
   * Sample default false (spec 2.7).
   */
  deleteStatus?: boolean;
  status?: string;
  [k: string]: unknown;
}

/**
 * spec 4.2. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export type BillingGroupStatusUpdate = BillingGroupStatusUpdateItem[];

/**
 * spec 4.2. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface BillingGroupStatus {
  status: string;
  [k: string]: unknown;
}

/**
 * spec 6. Undocumented extra fields are allowed: the spec does not forbid them.
 */
export interface WebhookEnvelope {
  type:
    | 'FUEL_PICKUP'
    | 'FUEL_DELIVERY'
    | 'FUEL_DISPATCH_GROUP_CHECKED'
    | 'FUEL_SHIFT_CHECKED'
    | 'INVOICE'
    | 'BILLING_GROUP_DETAILS'
    | 'BOOKING'
    | 'FACT';
  /**
   * Payload fields of every type other than BOOKING: not shown (spec 6). BOOKING carries the full Booking entity, whose fields are not shown (spec 2.7).
   */
  payload: unknown;
  [k: string]: unknown;
}
