/**
 * A small, fast YAML emitter for JSON-like values, used for every cassette
 * document. The `yaml` package's stringify builds a full document tree and
 * took ~9 ms for a 12 kB response — the recorder's whole budget per exchange —
 * so documents are written here and read back with `yaml` (a property test
 * proves every JSON value round-trips). Output is block style in insertion
 * order; a string is plain only when it cannot be read back as anything else,
 * multi-line text is a literal block, everything else is double-quoted. No
 * line is ever folded, so a secret can never be split across lines.
 */

type Json = null | boolean | number | string | FlowJson | Json[] | { [k: string]: Json };

/**
 * A JSON text written as it is, on one line, as YAML's flow style (YAML 1.2
 * reads JSON as itself). For bodies: building a block for every node of a
 * large answer cost more than proxying it, and the line reads back with
 * JSON.parse (recorder/yaml-read-fast.ts). Only a serialisation made by
 * JSON.stringify qualifies (no line breaks, no tabs, no space before a `#`).
 */
export class FlowJson {
  readonly text: string;
  /** The UTF-8 encoding of `text`: the bytes the text was decoded from, or made once when first written. */
  bytes: Buffer | undefined;
  /** What the text was searched for, and what was found (recorder/secret-guard.ts), once it has been. */
  searched: unknown = undefined;
  /**
   * `source`: the bytes `jsonText` was decoded from, and whether they are all ASCII; then, when the text needs no
   * escape, they are its bytes as written (encoding a 14 kB text again cost as much as the rest of the write).
   */
  constructor(jsonText: string, source?: { bytes: Buffer; ascii: boolean }) {
    // JSON leaves C1 controls, BOM and non-characters raw inside strings; YAML wants them escaped. Most texts hold
    // none: a test that stops at the first is cheaper than a replace that copies, and in ASCII only DEL can be one.
    const raw = source?.ascii ? source.bytes.indexOf(0x7f) < 0 : !NON_PRINTABLE_ANY.test(jsonText);
    this.text = raw ? jsonText : jsonText.replace(NON_PRINTABLE_G, escapeChar);
    this.bytes = raw ? source?.bytes : undefined;
  }
}

/** Plain-safe text: a safe first character, then safe characters, a colon only when followed by a non-space. */
const PLAIN = /^[A-Za-z_/(](?:[A-Za-z0-9_ ./()+@$=;'-]|:(?=[A-Za-z0-9_./()+@$=;'-]))*$/;
/** Words some YAML reader (1.1 or 1.2) turns into null or a boolean. */
const RESERVED = /^(null|true|false|yes|no|on|off|y|n)$/i;
/** Characters YAML does not allow raw (C0/C1 controls, DEL, BOM, non-characters, surrogates). */
const NON_PRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufeff\ufffe\uffff\ud800-\udfff]/;
const NON_PRINTABLE_G = /[\u007f-\u009f\ufeff\ufffe\uffff]/g;
const NON_PRINTABLE_ANY = /[\u007f-\u009f\ufeff\ufffe\uffff]/;
const MAX_IMPLICIT_KEY = 1000;

function isPlainSafe(s: string): boolean {
  return (
    s.length > 0 &&
    s.length <= MAX_IMPLICIT_KEY &&
    PLAIN.test(s) &&
    !s.endsWith(' ') &&
    !(s.length <= 5 && RESERVED.test(s))
  );
}

/** JSON string escapes are all valid YAML double-quoted escapes; YAML additionally wants C1 controls and BOM escaped. */
function quoted(s: string): string {
  return JSON.stringify(s).replace(NON_PRINTABLE_G, escapeChar);
}

function escapeChar(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Keys repeat in every item of a list, so their spelling is decided once (bounded, so memory stays flat). */
const keyCache = new Map<string, string>();
const KEY_CACHE_MAX = 4096;

function scalarKey(k: string): string {
  let out = keyCache.get(k);
  if (out === undefined) {
    out = isPlainSafe(k) ? k : quoted(k);
    if (keyCache.size < KEY_CACHE_MAX) keyCache.set(k, out);
  }
  return out;
}

/** A literal block (`|`) for multi-line printable text: it reads and diffs like the text itself. */
function literalBlock(s: string, indent: string): string | undefined {
  if (!s.includes('\n') || s.includes('\r') || /^\n*$/.test(s) || NON_PRINTABLE.test(s)) return undefined;
  const trailing = s.length - s.replace(/\n+$/, '').length;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const content = trailing === 0 ? s : s.slice(0, s.length - (chomp === '+' ? 1 : trailing));
  // An explicit indentation indicator when the text itself starts with a space or a blank line.
  const indicator = /^[ \n]/.test(content) ? '2' : '';
  const lines = content.split('\n').map((l) => (l === '' ? '' : `${indent}  ${l}`));
  return `|${indicator}${chomp}\n${lines.join('\n')}`;
}

function scalar(v: null | boolean | number | string, indent: string): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  // A one-line string's spelling does not depend on the indent: the values that come again (methods, paths,
  // header values) are looked up, not tested again.
  // (A digit first is never plain: timestamps, which never come again, are not cached.)
  const first = v.charCodeAt(0);
  // A timestamp as the recorder writes it (Date's ISO form) is never plain, and quoted as it is.
  if (v.length === 24 && ISO_INSTANT.test(v)) return `"${v}"`;
  if (v.length > MAX_CACHED_SCALAR || (first >= 48 && first <= 57) || v.includes('\n'))
    return isPlainSafe(v) ? v : (literalBlock(v, indent) ?? quoted(v));
  let out = scalarCache.get(v);
  if (out === undefined) {
    out = isPlainSafe(v) ? v : quoted(v);
    if (scalarCache.size >= SCALAR_CACHE_MAX) scalarCache.clear();
    scalarCache.set(v, out);
  }
  return out;
}

/** Date.prototype.toISOString's form (years 0-9999): digits and `-:.TZ`, which JSON and YAML leave as they are. */
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** One-line scalars by their spelling; cleared when full, so values that never come again cannot fill it for good. */
const scalarCache = new Map<string, string>();
const SCALAR_CACHE_MAX = 1024;
const MAX_CACHED_SCALAR = 256;

function isEmptyCollection(v: Json): boolean {
  if (v === null || typeof v !== 'object' || v instanceof FlowJson) return false;
  return Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0;
}

/**
 * Where emitYamlPieces puts a FlowJson in its text: a raw NUL, which emitted
 * YAML never holds (every string that has one is written double-quoted, escaped).
 */
const FLOW_MARK = '\u0000';
/** The FlowJsons met while emitting for emitYamlPieces, in order; undefined for emitYaml. */
let flowsMet: FlowJson[] | undefined;

function inline(v: Json, indent: string): string | undefined {
  if (v === null || typeof v !== 'object') return scalar(v, indent);
  if (v instanceof FlowJson) {
    if (!flowsMet) return v.text;
    flowsMet.push(v);
    return FLOW_MARK;
  }
  if (isEmptyCollection(v)) return Array.isArray(v) ? '[]' : '{}';
  return undefined;
}

function emitMap(o: { [k: string]: Json }, indent: string, out: string[]): void {
  for (const [k, v] of Object.entries(o)) emitEntry(k, v, indent, out);
}

/** One `key: value` entry of a mapping at `indent`, as emitMap writes it (an undefined value writes nothing). */
export function emitEntry(k: string, v: unknown, indent: string, out: string[]): void {
  if (v === undefined) return;
  const key = scalarKey(k);
  const long = key.length > MAX_IMPLICIT_KEY;
  const head = long ? `${indent}? ${key}\n${indent}:` : `${indent}${key}:`;
  const one = inline(v as Json, indent);
  if (one !== undefined) out.push(`${head} ${one}`);
  else {
    out.push(head);
    emitBlock(v as Json, `${indent}  `, out);
  }
}

function emitSeq(a: Json[], indent: string, out: string[]): void {
  for (const v of a) {
    const one = inline(v, indent);
    if (one !== undefined) {
      out.push(`${indent}- ${one}`);
      continue;
    }
    // The item's own block, with its first line moved up beside the dash.
    const inner: string[] = [];
    emitBlock(v, `${indent}  `, inner);
    out.push(`${indent}- ${inner[0]!.slice(indent.length + 2)}`, ...inner.slice(1));
  }
}

function emitBlock(v: Json, indent: string, out: string[]): void {
  if (Array.isArray(v)) emitSeq(v, indent, out);
  else emitMap(v as { [k: string]: Json }, indent, out);
}

/** The YAML text of a JSON-like value (a mapping at the top level), ending with a newline. */
export function emitYaml(value: unknown): string {
  const v = value as Json;
  const one = inline(v, '');
  if (one !== undefined) return `${one}\n`;
  const out: string[] = [];
  emitBlock(v, '', out);
  return `${out.join('\n')}\n`;
}

/**
 * The same text as emitYaml, as pieces: each FlowJson stands as itself between
 * the strings around it, so a large body's text need not be copied into the
 * document, nor encoded or searched again when it is written a second time.
 */
export function emitYamlPieces(value: unknown): Array<string | FlowJson> {
  return emitLinesInPieces((out) => {
    const one = inline(value as Json, '');
    if (one !== undefined) out.push(one);
    else emitBlock(value as Json, '', out);
  });
}

/**
 * The lines `write` pushes (with emitEntry, or any line of its own) as one text ending with a newline, in pieces as
 * emitYamlPieces makes them: for a caller that knows its mapping's keys and their order (cassette-yaml.ts).
 */
export function emitLinesInPieces(write: (out: string[]) => void): Array<string | FlowJson> {
  flowsMet = [];
  const out: string[] = [];
  let flows: FlowJson[];
  try {
    write(out);
  } finally {
    flows = flowsMet;
    flowsMet = undefined;
  }
  const text = `${out.join('\n')}\n`;
  if (flows.length === 0) return [text];
  const parts = text.split(FLOW_MARK);
  const pieces: Array<string | FlowJson> = [parts[0]!];
  for (const [i, f] of flows.entries()) pieces.push(f, parts[i + 1]!);
  return pieces;
}
