/**
 * Query filters of GET /billingGroups (spec 4.2): `start` and `end` (dates),
 * `state`, `customerId`, `inactive`, alone or combined. Values are drawn from
 * the groups the deployment shows, so a filter that is ignored returns groups
 * that do not match instead of nothing at all.
 */
import fc from 'fast-check';

export interface BillingFilter {
  start?: string;
  end?: string;
  state?: string;
  customerId?: string;
  inactive?: boolean;
}

export interface GroupFacts {
  date: string;
  status: string;
  customerId: string;
  inactive: boolean;
}

function values<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

export function billingFilterArb(groups: readonly GroupFacts[]): fc.Arbitrary<BillingFilter> {
  const dates = values(groups.map((g) => g.date.slice(0, 10))).sort();
  const date = fc.constantFrom(...(dates.length ? dates : ['2000-01-01']));
  const state = fc.constantFrom(...values([...groups.map((g) => g.status), 'Booked']));
  const customer = fc.constantFrom(...(groups.length ? values(groups.map((g) => g.customerId)) : ['none']));
  return fc
    .record({ start: date, end: date, state, customerId: customer, inactive: fc.boolean() }, { requiredKeys: [] })
    .filter((f) => Object.keys(f).length > 0);
}
