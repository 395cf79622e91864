/**
 * Billing groups (spec 2.4, 2.5) and their forced status (spec 3 rules 1-3).
 * A forced status overrides the group's own status until it is removed, so
 * the two are kept apart: removing the force must bring the own status back.
 */
import type {
  BillingGroup as BillingGroupShape,
  BillingGroupDetails as BillingGroupDetailsShape,
} from '../schemas/types.generated.ts';
import { clone, type JsonObject } from './json.ts';

/** The billing group shape (spec 2.4), derived from schemas/billing-group.schema.json. */
export type BillingGroup = BillingGroupShape;

/** What the details view (spec 2.5) has beyond the group itself. */
export interface BillingGroupExtras {
  branches: JsonObject[];
  crnNumber: string;
  jobs: JsonObject[];
}

/** The details shape (spec 2.5), derived from schemas/billing-group-details.schema.json. */
export type BillingGroupDetails = BillingGroupDetailsShape;

export class BillingStore {
  private readonly groups = new Map<string, BillingGroup>();
  private readonly extras = new Map<string, BillingGroupExtras>();
  private readonly forced = new Map<string, string>();

  seed(groups: { group: BillingGroup; extras: BillingGroupExtras }[]): void {
    for (const { group, extras } of groups) {
      this.groups.set(group.id, clone(group));
      this.extras.set(group.id, clone(extras));
    }
  }

  has(id: string): boolean {
    return this.groups.has(id);
  }

  /** The group as clients see it: the forced status, when there is one, replaces its own. */
  get(id: string): BillingGroup | undefined {
    const group = this.groups.get(id);
    return group && this.shown(group);
  }

  list(): BillingGroup[] {
    return [...this.groups.values()].map((g) => this.shown(g));
  }

  /** A forced status, once set, is what every view shows until it is removed (a removal, not a missing value). */
  private shown(group: BillingGroup): BillingGroup {
    const forced = this.forced.has(group.id);
    return { ...clone(group), status: forced ? (this.forced.get(group.id) as string) : group.status };
  }

  force(id: string, status: string): void {
    this.forced.set(id, status);
  }

  unforce(id: string): void {
    this.forced.delete(id);
  }

  details(id: string): BillingGroupDetails | undefined {
    const group = this.get(id);
    const extras = this.extras.get(id);
    return group && extras ? toDetails(group, extras) : undefined;
  }
}

function revenues(lines: JsonObject[], kind: string): JsonObject[] {
  return lines.map((line) => ({ ...clone(line), revenueType: kind }));
}

function toDetails(g: BillingGroup, x: BillingGroupExtras): BillingGroupDetails {
  return {
    id: g.id,
    humanReadableId: g.humanReadableId,
    branches: clone(x.branches),
    customerId: g.customerId,
    customerName: g.customerName,
    customerIntegrationId: g.customerIntegrationId,
    customerExternalId: g.customerExternalId,
    // Stryker disable next-line ObjectLiteral: spec 2.5 crnNumberByCustomerId is an object map: its entries are not shown
    crnNumberByCustomerId: { [g.customerId]: x.crnNumber },
    inactive: g.inactive,
    status: g.status,
    date: g.date,
    properties: clone(g.properties),
    jobs: clone(x.jobs),
    // Stryker disable next-line StringLiteral: spec 2.7 fields inside the revenue arrays are not shown
    transportRevenues: revenues(g.transport, 'transport'),
    // Stryker disable next-line StringLiteral: spec 2.7 fields inside the revenue arrays are not shown
    storageRevenues: revenues(g.storage, 'storage'),
    // Stryker disable next-line StringLiteral: spec 2.7 fields inside the revenue arrays are not shown
    productRevenues: revenues(g.products, 'product'),
    // Stryker disable next-line StringLiteral: spec 2.7 fields inside the revenue arrays are not shown
    manualRevenues: revenues(g.manual, 'manual'),
  };
}
