/**
 * Is a JSON text exactly what JSON.stringify makes of its parsed value? That
 * is the byte-faithful rule (recorder/body.ts): a body is stored as JSON only
 * when replay, serialising the value, gives back the bytes received.
 * Serialising a 14 kB answer to compare costs about as much as parsing it; this
 * proves the same thing from the text and the value already parsed, in one
 * regular-expression pass and one walk, and falls back to serialising whenever
 * the proof does not apply. JSON.stringify(JSON.parse(t)) === t holds when:
 *
 * - every token of t is as JSON.stringify writes it, with nothing between
 *   tokens: strings hold no escape but `\"`, `\\`, `\b\f\n\r\t` and `\u00XX` for
 *   the other C0 controls (lower-case hex), and no lone surrogate; numbers are
 *   integers of at most 15 digits or decimals of at most 14, with no exponent, no `-0`, no trailing zero
 *   in a fraction, and not below 1e-6 (written with an exponent); such a number
 *   is the shortest decimal of its double, which is what JSON.stringify writes;
 * - no object holds a key twice (JSON.parse keeps the last; the text would
 *   then have more keys than the value);
 * - no key is an array index ("0", "12"): V8 lists those first, in numeric
 *   order, whatever the text's order (keys starting with a digit are left to
 *   the fallback).
 * A parse that succeeded already proves the structure, so tokens suffice.
 */

/** Numbers JSON.stringify writes as they are; the lookaheads keep a digit run from being split (and backtracked). */
const NUMBER = String.raw`-?(?=[\d.]{1,15}(?![\d.]))(?:[1-9]\d*(?:\.\d*[1-9])?|0\.(?!0{6})\d*[1-9])(?![\d.])|0(?![\d.])`;
const STRING = String.raw`"[^"\\\u0000-\u001f]*(?:\\(?:["\\bfnrt]|u00(?:0[0-7bef]|1[0-9a-f]))[^"\\\u0000-\u001f]*)*"`;
/** A run of structural characters is one token (twice as fast as one each); the lookahead keeps it from being split. */
const STRUCTURAL = String.raw`[{}[\]:,]+(?![{}[\]:,])`;
const CANONICAL_TOKENS = new RegExp(`^(?:${STRING}|${STRUCTURAL}|${NUMBER}|true|false|null)*$`);
/**
 * The same for a text with no backslash at all (most answers): a string is then its raw characters, which
 * JSON.parse has already checked hold no control character, and which JSON.stringify writes as they are (in
 * ASCII it escapes only controls, `"` and `\`). Each token is a run of structural characters and one value; the
 * simpler string branch makes the pattern a third cheaper (12 µs to 8 µs over a 14 kB answer).
 */
const UNESCAPED_TOKENS = new RegExp(`^(?:[{}[\\]:,]*(?:"[^"]*"|${NUMBER}|true|false|null))*[{}[\\]:,]*$`);

/** Texts longer than this are compared by serialising: the pattern's backtrack stack grows with the token count. */
const MAX_PROVEN = 256 * 1024;

/** `ascii`: the bytes `text` was decoded from, when they are all ASCII (one byte a character): a memchr then tells whether it holds an escape. */
export function isCanonicalJson(text: string, value: unknown, ascii?: Buffer): boolean {
  return provenCanonical(text, value, ascii) || JSON.stringify(value) === text;
}

/** True only when the rules above prove it; false means "not proven", not "not canonical". */
export function provenCanonical(text: string, value: unknown, ascii?: Buffer): boolean {
  if (text.length > MAX_PROVEN || value === null || typeof value !== 'object') return false;
  const oneByte = ascii?.length === text.length;
  // ASCII holds no surrogate; without a backslash it holds no escape either (memchr on the bytes).
  const unescaped = oneByte && ascii!.indexOf(0x5c) < 0;
  // A `\"` makes `":` ambiguous (a key's end or inside a string): left to the fallback.
  if (!unescaped && (text.includes('\\"') || !wellFormed(text))) return false;
  let matched: boolean;
  try {
    matched = (unescaped ? UNESCAPED_TOKENS : CANONICAL_TOKENS).test(text);
  } catch {
    return false; // The regular-expression engine's stack ran out.
  }
  if (!matched) return false;
  const keys = keyCount(value);
  if (keys < 0) return false;
  return keys === keyEnds(text);
}

/**
 * The `":` in the text: each `:` found by String.prototype.indexOf (a builtin, cheaper than a Buffer search that
 * crosses into C++ per hit), checked for the quote before it. With no `\\"` in the text, each is a key's end.
 */
function keyEnds(text: string): number {
  let n = 0;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) if (text.charCodeAt(i - 1) === 0x22) n += 1;
  return n;
}

/** Keys in every object of a parsed value, or -1 when one starts with a digit (it may be an array index). */
function keyCount(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (const x of v) {
      const k = keyCount(x);
      if (k < 0) return -1;
      n += k;
    }
    return n;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) {
    const c = k.charCodeAt(0);
    if (c >= 48 && c <= 57) return -1;
    const inner = keyCount(o[k]);
    if (inner < 0) return -1;
    n += 1 + inner;
  }
  return n;
}

/** String.prototype.isWellFormed (ES2024, in Node 20), which the ES2022 typings do not list. */
function wellFormed(s: string): boolean {
  return (s as unknown as { isWellFormed(): boolean }).isWellFormed();
}
