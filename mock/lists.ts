/** What the list operations share. */
import type { MockContext } from './context.ts';

/** A list as answered: the empty-list-null fault answers null where nothing matches, as a nil slice serialises. */
export function emptyList<T>(ctx: MockContext, items: T[]): T[] | null {
  return items.length === 0 && ctx.faults.has('empty-list-null') ? null : items;
}
