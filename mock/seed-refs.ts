/**
 * Stable references inside the seed: the same (kind, n) always names the same
 * id, whatever the id format, so seeded records can point at each other.
 */
import type { IdFactory } from './ids.ts';

export type Ref = (kind: string, n: number) => string;

export function refMaker(ids: IdFactory): Ref {
  const made = new Map<string, string>();
  return (kind, n) => {
    const key = `${kind}#${n}`;
    let id = made.get(key);
    if (id === undefined) {
      id = ids.next(kind);
      made.set(key, id);
    }
    return id;
  };
}

const DAY_MS = 86_400_000;

/** A fixed point in time the seed is laid out from, so dates are realistic and reproducible. */
export const SEED_EPOCH_MS = Date.UTC(2025, 7, 4, 8, 0, 0);

export function seedTime(days: number, hours = 0): number {
  return SEED_EPOCH_MS + days * DAY_MS + hours * 3_600_000;
}

export function pick<T>(items: readonly T[], i: number): T {
  const item = items[((i % items.length) + items.length) % items.length];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}
