/**
 * Fills a fresh mock with realistic data. Every mock starts from the same seed
 * (ids follow the variant's format), so a suite can list and read before it
 * writes anything.
 */
import type { BillingStore } from './billing-store.ts';
import type { Directory } from './directory.ts';
import type { IdFactory } from './ids.ts';
import type { InvoiceStore } from './invoice-store.ts';
import type { OffersStore } from './offers-store.ts';
import { seedBillingGroups, seedInvoices } from './seed-billing.ts';
import { seedCatalogue, seedCustomers } from './seed-catalogue.ts';
import { seedDirectory } from './seed-directory.ts';
import { seedOffers } from './seed-offers.ts';
import { refMaker } from './seed-refs.ts';
import type { RecordStore } from './store.ts';

export interface Stores {
  offers: OffersStore;
  billing: BillingStore;
  invoices: InvoiceStore;
  records: RecordStore;
}

/** Seeds the stores and answers the directory the offer model derives fields from. */
export function seedStores(ids: IdFactory, stores: Stores): Directory {
  const ref = refMaker(ids);
  const directory = seedDirectory(ids, ref);
  for (const { collection, key, record } of seedCatalogue(ref)) stores.records.put(collection, key, record);
  const groups = seedBillingGroups(ref, seedCustomers(ref));
  stores.billing.seed(groups);
  stores.invoices.seed(seedInvoices(ref, groups));
  stores.offers.seed(seedOffers(ref, directory));
  return directory;
}
