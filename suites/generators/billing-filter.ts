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

const DAY_MS = 86_400_000;

function dayAfter(day: string, days: number): string | undefined {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) ? new Date(ms + days * DAY_MS).toISOString().slice(0, 10) : undefined;
}

/**
 * Every single-field filter the listed groups make, sent on every run so the same server gets the same verdict
 * whatever the seed: each status (and 'Booked', the value spec 3 shows), each customerId, both inactive values,
 * and each date as start and as end, with the day after it as start and the day before it as end. Those lie
 * between the dates groups carry, where a window widened by a day shows: the group on that date must be left out.
 */
export function listedFilters(groups: readonly GroupFacts[]): BillingFilter[] {
  const days = values(groups.map((g) => g.date.slice(0, 10))).sort();
  const around = (day: string, offset: number) => dayAfter(day, offset) ?? day;
  return [
    ...values([...groups.map((g) => g.status), 'Booked']).map((state) => ({ state })),
    ...values(groups.map((g) => g.customerId)).map((customerId) => ({ customerId })),
    { inactive: true },
    { inactive: false },
    ...days.flatMap((d) => [{ start: d }, { start: around(d, 1) }, { end: d }, { end: around(d, -1) }]),
  ];
}

/**
 * Filters that hold alone must hold together (spec 4.2 lists five, and nothing says one excludes another): for each
 * listed group, the pairs and the triple of its customerId, status and inactive, the customerId with the other
 * inactive value, and its customerId and its status each with a window bound that lies between its date and its
 * neighbours' dates. Each narrows the list to the groups that share the values (the ones a server keying on one of them
 * mixes up), and all of them are sent on every run.
 */
export function combinedFilters(groups: readonly GroupFacts[]): BillingFilter[] {
  const days = values(groups.map((g) => g.date.slice(0, 10))).sort();
  const out = new Map<string, BillingFilter>();
  const add = (f: BillingFilter) => out.set(JSON.stringify(Object.entries(f).sort()), f);
  for (const g of groups) {
    const { customerId, status: state, inactive } = g;
    add({ customerId, state });
    add({ customerId, inactive });
    add({ state, inactive });
    add({ customerId, state, inactive });
    add({ customerId, inactive: !inactive });
    const k = days.indexOf(g.date.slice(0, 10));
    const [prev, next] = [days[k - 1], days[k + 1]];
    if (prev !== undefined) add({ customerId, start: dayAfter(prev, 1) ?? prev });
    if (next !== undefined) add({ state, end: dayAfter(next, -1) ?? next });
  }
  return [...out.values()];
}
