/**
 * The seeded sample of `npm run mutation`: the same mutants, the same seed, the same sample on any machine. A
 * mulberry32 generator drives a partial Fisher-Yates shuffle; the sample keeps the mutants' own order.
 */

/** A generator of numbers in [0, 1) from a 32-bit seed (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `size` of `items` drawn without replacement by `seed`, in the order of `items`; all of them when size ≥ length. */
export function sampleOf<T>(items: readonly T[], size: number, seed: number): T[] {
  if (size >= items.length) return [...items];
  const random = seededRandom(seed);
  const index = items.map((_, i) => i);
  for (let i = 0; i < size; i++) {
    const j = i + Math.floor(random() * (index.length - i));
    [index[i], index[j]] = [index[j] as number, index[i] as number];
  }
  return index
    .slice(0, Math.max(0, size))
    .sort((x, y) => x - y)
    .map((i) => items[i] as T);
}
