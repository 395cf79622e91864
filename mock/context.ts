/** Everything a route needs, built once per mock: the stores and the variant. Faults bend it from mock/faults/. */
import { BillingStore } from './billing-store.ts';
import type { Directory } from './directory.ts';
import { idFactory, type IdFactory } from './ids.ts';
import { InvoiceStore } from './invoice-store.ts';
import { OffersStore } from './offers-store.ts';
import { seedStores } from './seed.ts';
import { RecordStore } from './store.ts';
import type { MockVariant } from './variant.ts';
import { WebhookHub } from './webhook-hub.ts';

export interface MockContext {
  variant: MockVariant;
  ids: IdFactory;
  directory: Directory;
  offers: OffersStore;
  billing: BillingStore;
  invoices: InvoiceStore;
  records: RecordStore;
  /** Webhook subscribers and deliveries (spec 6); mock-only. */
  webhooks: WebhookHub;
}

export function createContext(
  variant: MockVariant,
  writeDelayMs: number,
  webhooks: WebhookHub = new WebhookHub(),
): MockContext {
  const ids = idFactory(variant.idFormat);
  const stores = {
    offers: new OffersStore(writeDelayMs, variant.offerStatusOverTime === true),
    billing: new BillingStore(),
    invoices: new InvoiceStore(),
    records: new RecordStore(variant.catalogueWriteDelayMs ?? 0),
  };
  const directory = seedStores(ids, stores);
  return { variant, ids, directory, ...stores, webhooks };
}
