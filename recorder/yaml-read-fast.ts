/**
 * A fast reader for exactly the YAML that recorder/yaml-emit.ts writes: block
 * mappings and sequences indented by two, plain scalars of its safe alphabet,
 * JSON-style double-quoted strings, literal blocks, `[]`, `{}` and one-line JSON
 * texts (bodies). The `yaml`
 * package takes ~20 ms for a 9 kB cassette document (minutes for a 10,000-
 * exchange cassette); this takes well under one. Anything outside that subset
 * (a hand-edited document, flow style, comments, anchors, a duplicate key)
 * returns undefined, and the caller reads the document with `yaml` instead,
 * which also gives the line-exact error messages. So this never decides what
 * a cassette means on its own: it is only a shortcut for what the emitter wrote.
 */

class NotFast extends Error {}
const NOT_FAST = new NotFast();

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** The emitter's plain alphabet (yaml-emit.ts PLAIN), first character included. */
const PLAIN = /^[A-Za-z_/(](?:[A-Za-z0-9_ ./()+@$=;'-]|:(?=[A-Za-z0-9_./()+@$=;'-]))*$/;
const KEY_END = /:(?: |$)/;

function indentOf(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 0x20) i += 1;
  return i;
}

/** The length of the JSON string token starting at `from` (a `"`), or -1 when it does not close on this line. */
function quotedEnd(s: string, from: number): number {
  for (let i = from + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5c) i += 1;
    else if (c === 0x22) return i + 1;
  }
  return -1;
}

function quoted(token: string): string {
  try {
    return JSON.parse(token) as string;
  } catch {
    throw NOT_FAST;
  }
}

/**
 * A flow collection the emitter wrote: a JSON text on one line (a body). JSON
 * text reads the same as JSON and as YAML flow; anything JSON.parse refuses is left to `yaml`.
 */
function flowJson(rest: string): Json {
  try {
    return JSON.parse(rest) as Json;
  } catch {
    throw NOT_FAST;
  }
}

class Reader {
  i = 0;
  constructor(readonly lines: string[]) {}

  block(indent: number): Json {
    const line = this.lines[this.i]!;
    if (line.startsWith('- ', indent) || line.length === indent + 1) return this.seq(indent);
    return this.map(indent);
  }

  map(indent: number): Json {
    const out: { [k: string]: Json } = {};
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      const at = indentOf(line);
      if (at < indent) break;
      if (at > indent || line.startsWith('-', at)) throw NOT_FAST;
      const { key, rest } = this.entry(line, indent);
      if (Object.hasOwn(out, key)) throw NOT_FAST; // a duplicate key: let `yaml` name the line
      this.i += 1;
      // defineProperty, not assignment: a key named `__proto__` is data (as JSON.parse and yaml keep it), not a prototype.
      Object.defineProperty(out, key, {
        value: this.value(rest, indent),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }

  seq(indent: number): Json {
    const out: Json[] = [];
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      const at = indentOf(line);
      if (at < indent) break;
      if (at > indent || line.charCodeAt(at) !== 0x2d) throw NOT_FAST;
      const rest = line.slice(indent + 2);
      if (line.length > indent + 1 && line.charCodeAt(indent + 1) !== 0x20) throw NOT_FAST;
      if (this.isBlockStart(rest)) {
        // The item's block starts beside the dash: read it as if the dash were two spaces.
        this.lines[this.i] = `${' '.repeat(indent + 2)}${rest}`;
        out.push(this.block(indent + 2));
      } else {
        this.i += 1;
        out.push(this.value(rest, indent));
      }
    }
    return out;
  }

  private isBlockStart(rest: string): boolean {
    if (rest === '-' || rest.startsWith('- ')) return true;
    if (rest.charCodeAt(0) === 0x22) {
      const end = quotedEnd(rest, 0);
      return end > 0 && rest.charCodeAt(end) === 0x3a;
    }
    return KEY_END.test(rest);
  }

  private entry(line: string, indent: number): { key: string; rest: string } {
    if (line.charCodeAt(indent) === 0x22) {
      const end = quotedEnd(line, indent);
      if (end < 0 || line.charCodeAt(end) !== 0x3a) throw NOT_FAST;
      return { key: quoted(line.slice(indent, end)), rest: line.slice(end + 2) };
    }
    const m = KEY_END.exec(line.slice(indent));
    if (!m) throw NOT_FAST;
    const key = line.slice(indent, indent + m.index);
    if (!PLAIN.test(key)) throw NOT_FAST;
    return { key, rest: line.slice(indent + m.index + 2) };
  }

  /** The value after `key: ` or `- ` (empty: a nested block on the following lines, two deeper). */
  private value(rest: string, indent: number): Json {
    if (rest === '') {
      const next = this.lines[this.i];
      if (next === undefined || indentOf(next) <= indent) {
        // `key:` then a sequence at the same indent is YAML's compact form; the emitter never writes it.
        if (next !== undefined && indentOf(next) === indent && next.startsWith('-', indent)) throw NOT_FAST;
        return null;
      }
      if (indentOf(next) !== indent + 2) throw NOT_FAST;
      return this.block(indent + 2);
    }
    const c = rest.charCodeAt(0);
    if (c === 0x22) {
      if (quotedEnd(rest, 0) !== rest.length) throw NOT_FAST;
      return quoted(rest);
    }
    if (c === 0x7c) return this.literal(rest, indent);
    if (rest === '[]') return [];
    if (rest === '{}') return {};
    if (c === 0x7b || c === 0x5b) return flowJson(rest);
    if (rest === 'null') return null;
    if (rest === 'true') return true;
    if (rest === 'false') return false;
    if (NUMBER.test(rest)) return Number(rest);
    // What the emitter writes plain is never read as anything but a string; anything else is not its output.
    if (!PLAIN.test(rest) || rest.endsWith(' ') || /^(?:null|true|false|yes|no|on|off|y|n|~)$/i.test(rest))
      throw NOT_FAST;
    return rest;
  }

  /** `|`, `|-`, `|+`, with an optional indentation indicator 2; the text is indented two under its key. */
  private literal(head: string, indent: number): string {
    const m = /^\|(2)?([-+])?$/.exec(head);
    if (!m) throw NOT_FAST;
    const pad = indent + 2;
    const kept: string[] = [];
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line !== '' && indentOf(line) < pad) break;
      kept.push(line === '' ? '' : line.slice(pad));
      this.i += 1;
    }
    if (kept.length === 0) throw NOT_FAST;
    const text = kept.join('\n');
    return m[2] === '-' ? text : `${text}\n`;
  }
}

/**
 * The value of one document's text (its `---` and `...` lines included), or
 * undefined when the text is not plainly the emitter's output.
 */
export function readFastYaml(text: string): unknown {
  if (text.includes('\r') || text.includes('\t') || text.includes('#')) {
    // '#' may be a comment; it is rare enough in cassette content (never in the emitter's plain text) to leave to `yaml`.
    if (/(^|\s)#/.test(text) || text.includes('\r') || text.includes('\t')) return undefined;
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines[0] !== '---' || lines[lines.length - 1] !== '...') return undefined;
  const body = lines.slice(1, -1);
  if (body.length === 0 || indentOf(body[0]!) !== 0) return undefined;
  const r = new Reader(body);
  try {
    const v = r.block(0);
    return r.i === body.length ? v : undefined;
  } catch (e) {
    if (e === NOT_FAST) return undefined;
    throw e;
  }
}
