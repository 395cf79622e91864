/**
 * The world model's front door: what a check uses of suites/lib/world/ (the model of the spec's state, its records,
 * steps, shapes and controls; docs/verdicts.md). A suite imports the world through this file only
 * (scripts/check-imports.ts, BESIDE_THE_DOOR).
 */
export { BillingGroupRecord, ForeignStatus, sameField, type EffectOwner, type StatusModel } from './billing-groups.ts';
export { groupLeftOutOfWholeList } from './billing-list-evidence.ts';
export { BookingEventNeighbour } from './booking-events.ts';
export { cancelledBy } from './cancelled.ts';
export type { CatalogueRecord } from './catalogue-record.ts';
export { reporterOf, reportShape, type Control } from './controls.ts';
export { InvoiceBook, InvoiceRecord } from './invoices.ts';
export { deleteOffer, offerBody, offerIn, putOffer } from './offer-writes.ts';
export { OfferNeighbour } from './offers.ts';
export { deleteShape, hasViews, isolationShape, upsertShape, type ShapeResult } from './record-shapes.ts';
export { elementFor, pagingSign, WHOLE_LIST_BELOW } from './record-views.ts';
export { caseTwin, markedBody, recordId, Records, type BodyId } from './records.ts';
export { Step } from './step.ts';
export { TransportOrderRecord } from './transport-orders.ts';
export { wholeness } from './whole-lists.ts';
export {
  reportDivergence,
  requireWorldModel,
  VIEW_CONSISTENCY,
  World,
  worldModelOn,
  type Divergence,
} from './world.ts';
