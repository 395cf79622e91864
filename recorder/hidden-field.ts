/**
 * What is derived from one short-lived object (a stored body, its flow text,
 * a parsed answer), kept on the object itself in a hidden field rather than in
 * a WeakMap. V8's young-generation collector keeps a WeakMap's values alive
 * through a scavenge even when their keys die, so each new answer's derived
 * text, bytes and verdict were promoted to the old generation and collected
 * there: measured, 11 kB promoted per new 14 kB answer, and a quarter of the
 * CPU of storing it. A field lives and dies with its object.
 *
 * The field is a non-enumerable symbol: JSON, object spread, Object.entries and
 * deep equality do not see it, so a copy (a redacted body) never inherits what
 * was derived from the original.
 */
export interface HiddenField<K extends object, V> {
  get(owner: K): V | undefined;
  /** Keeps `value` on `owner`, unless `owner` cannot take a property (frozen): then nothing is kept. */
  set(owner: K, value: V): void;
}

export function hiddenField<K extends object, V>(description: string): HiddenField<K, V> {
  const key = Symbol(description);
  return {
    get: (owner) => (owner as Record<symbol, V | undefined>)[key],
    set: (owner, value) => {
      if (Object.isExtensible(owner))
        Object.defineProperty(owner, key, { value, writable: true, enumerable: false, configurable: true });
    },
  };
}
