/**
 * A key-value store (the `properties` of spec 2.1, 2.2 and 2.3): empty, small
 * or many keys, Unicode keys and values. Keys that JSON parsers treat as
 * prototype pollution (`__proto__`, `constructor`, `prototype`) are left out:
 * a server is right to refuse them, and they test the parser, not the contract.
 * Values are strings: the spec shows a key-value store, not which value types it holds.
 */
import fc from 'fast-check';
import { unicodeTextArb } from './unicode-text.ts';

const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

const keyArb = fc
  .oneof(
    fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_]{0,15}$/),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
  )
  .filter((k) => !RESERVED.has(k));

export const keyValueArb: fc.Arbitrary<Record<string, string>> = fc.dictionary(keyArb, unicodeTextArb(32), {
  maxKeys: 12,
  noNullPrototype: true,
});
