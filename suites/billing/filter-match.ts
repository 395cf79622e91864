/**
 * Whether a billing group matches the filters of GET /billingGroups (spec 4.2):
 * `start` and `end` on its `date`, both inclusive; `state` on its `status`
 * (spec 3 names a billing group's states as its status and inactive fields,
 * and inactive has a filter of its own); `customerId`; `inactive`.
 */
import type { BillingFilter } from '../generators/billing-filter.ts';

/** Why one listed group does not match the filter, or undefined. */
export function mismatch(g: Record<string, unknown>, f: BillingFilter): string | undefined {
  const date = typeof g.date === 'string' ? g.date.slice(0, 10) : undefined;
  if (f.start !== undefined && (date === undefined || date < f.start))
    return `date ${String(g.date)} is before start ${f.start}`;
  if (f.end !== undefined && (date === undefined || date > f.end))
    return `date ${String(g.date)} is after end ${f.end}`;
  if (f.state !== undefined && g.status !== f.state) return `status '${String(g.status)}' is not state '${f.state}'`;
  if (f.customerId !== undefined && g.customerId !== f.customerId)
    return `customerId '${String(g.customerId)}' is not '${f.customerId}'`;
  if (f.inactive !== undefined && g.inactive !== f.inactive)
    return `inactive is ${String(g.inactive)}, not ${String(f.inactive)}`;
  return undefined;
}
