/**
 * Every spelling of a known secret, compiled once per set of secrets into one
 * regular expression that finds and replaces them all. It lives in errors/
 * because both the recorder (cassettes, HAR, scan) and the suites (messages,
 * reports) must keep secrets out of what they write, and errors/ is the one
 * folder both may import; it imports nothing.
 *
 * Covered, wherever they stand in a URL, a header or a body:
 * - raw, and percent-encoded with any subset of its bytes encoded, in either
 *   hex case (`-` or `%2D` or `%2d`), `+` for a space (forms), and the JSON /
 *   YAML string escapes (`\"`, `\\`, `\/`, `\u00XX`);
 * - base64 and base64url, of the secret alone or inside anything else that
 *   was base64-encoded with it (`Bearer <t>`, `user:<t>` for any user, `:<t>`,
 *   a JSON document...): the secret's bytes start at one of three byte
 *   alignments, and for each the characters that depend on the secret's bytes
 *   only (its "core") are the same whatever comes before or after. The three
 *   cores are searched, each character also matching its base64url twin and
 *   its percent-encoding. Redaction replaces the core; what is left beside it
 *   encodes at most 4 bits of the secret at each end.
 * Not covered: base64 wrapped across lines (MIME), other encodings (hex, UTF-16),
 * encryption and hashing.
 */

export interface SecretSource {
  /** Where the value came from (an environment variable name...): safe to print, never the value. */
  label: string;
  value: string;
}

export interface SecretHit {
  label: string;
  form: 'raw' | 'percent-encoded' | 'escaped' | 'base64' | 'base64url';
  /** Index of the match in the searched text. */
  index: number;
}

/** The fewest base64 characters searched for: shorter cores would match unrelated text. */
const MIN_CORE = 8;

function escapeRegex(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** `2d` → `2[dD]`: a hex byte in either case. */
function hexEitherCase(byte: number): string {
  return byte
    .toString(16)
    .padStart(2, '0')
    .replace(/[a-f]/g, (c) => `[${c}${c.toUpperCase()}]`);
}

function percent(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => `%${hexEitherCase(b)}`).join('');
}

/** One character of a secret in text: itself, its percent-encoding, and its escapes in JSON or YAML strings. */
function textUnit(ch: string): string {
  const alts = [escapeRegex(ch), percent(Buffer.from(ch, 'utf8'))];
  if (ch === ' ') alts.push('\\+');
  if (ch === '"' || ch === '\\' || ch === '/') alts.push(`\\\\${escapeRegex(ch)}`);
  const code = ch.codePointAt(0)!;
  if (code <= 0xffff) alts.push(`\\\\u${hexEitherCase(code >> 8)}${hexEitherCase(code & 0xff)}`);
  return `(?:${alts.join('|')})`;
}

/** One byte of a secret in bytes read as latin1: itself or its percent-encoding. */
function byteUnit(byte: number): string {
  return `(?:${escapeRegex(String.fromCharCode(byte))}|${percent(Uint8Array.of(byte))})`;
}

/** One base64 character: itself, its base64url twin (`+`/`-`, `/`/`_`), either percent-encoded. */
function base64Unit(c: string): string {
  const twin = c === '+' ? '-' : c === '/' ? '_' : undefined;
  const chars = twin ? [c, twin] : [c];
  return `(?:${chars.flatMap((x) => [escapeRegex(x), percent(Buffer.from(x))]).join('|')})`;
}

/**
 * The base64 characters that depend only on the secret's bytes, when the
 * secret starts `k` bytes into a 3-byte group (k = 0, 1, 2). Character i of
 * an encoding covers bits 6i..6i+5; it is the secret's alone when those bits
 * lie within the secret's bits 8k..8(k+n)-1.
 */
export function base64Cores(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const cores: string[] = [];
  for (let k = 0; k < 3; k += 1) {
    const encoded = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const first = Math.ceil((8 * k) / 6);
    const last = Math.floor((8 * (k + bytes.length)) / 6) - 1;
    const core = encoded.slice(first, last + 1);
    if (core.length >= MIN_CORE) cores.push(core);
  }
  return [...new Set(cores)];
}

interface Part {
  label: string;
  value: string;
  kind: 'text' | 'base64';
  text: string;
  latin1: string;
}

function partsOf(s: SecretSource): Part[] {
  const value = s.value;
  const text = Array.from(value, textUnit).join('');
  const latin1 = Array.from(Buffer.from(value, 'utf8'), byteUnit).join('');
  const parts: Part[] = [{ label: s.label, value, kind: 'text', text, latin1 }];
  for (const core of base64Cores(value)) {
    const pattern = Array.from(core, base64Unit).join('');
    parts.push({ label: s.label, value, kind: 'base64', text: pattern, latin1: pattern });
  }
  return parts;
}

function formOf(part: Part, matched: string): SecretHit['form'] {
  if (part.kind === 'base64') return /[-_]/.test(matched) ? 'base64url' : 'base64';
  if (matched === part.value) return 'raw';
  return matched.includes('%') ? 'percent-encoded' : 'escaped';
}

/**
 * The compiled forms of a set of secrets. Build it once per set (the regular
 * expression is the costly part) and use it for every text and body.
 */
export class SecretForms {
  private readonly parts: Part[];
  private readonly text: RegExp | undefined;
  private latin1: RegExp | undefined;
  private readonly extended = new Map<string, SecretForms>();

  constructor(readonly secrets: readonly SecretSource[]) {
    const unique = secrets.filter((s, i) => s.value && secrets.findIndex((t) => t.value === s.value) === i);
    this.secrets = unique;
    // Longest first, so that where two forms overlap the whole of the longer one goes.
    this.parts = unique.flatMap(partsOf).sort((a, b) => b.text.length - a.text.length);
    this.text = this.parts.length ? new RegExp(this.parts.map((p) => `(${p.text})`).join('|'), 'g') : undefined;
  }

  /** How many forms are searched for (0: nothing to redact). */
  get length(): number {
    return this.parts.length;
  }

  /** These forms and those of `extra` (e.g. the credential one request carried), compiled once per extra value. */
  with(extra: readonly SecretSource[]): SecretForms {
    const fresh = extra.filter((e) => e.value && !this.secrets.some((s) => s.value === e.value));
    if (fresh.length === 0) return this;
    const key = JSON.stringify(fresh.map((e) => [e.label, e.value]));
    let out = this.extended.get(key);
    if (!out) {
      out = new SecretForms([...this.secrets, ...fresh]);
      // Bounded: a client sending a new credential on every request must not grow this without end.
      if (this.extended.size >= 64) this.extended.clear();
      this.extended.set(key, out);
    }
    return out;
  }

  /** The first form of a secret in `text`, if any (on every exchange: no regular expression is built here). */
  find(text: string): SecretHit | undefined {
    if (!this.text) return undefined;
    this.text.lastIndex = 0;
    const m = this.text.exec(text);
    this.text.lastIndex = 0;
    return m ? this.hit(m) : undefined;
  }

  /** Every form of a secret in `text`, in order. */
  *findAll(text: string): Generator<SecretHit> {
    if (!this.text) return;
    // A copy: the caller may interleave other searches while iterating.
    for (const m of text.matchAll(new RegExp(this.text.source, 'g'))) yield this.hit(m);
  }

  private hit(m: RegExpMatchArray): SecretHit {
    const part = this.parts[m.findIndex((g, j) => j > 0 && g !== undefined) - 1]!;
    return { label: part.label, form: formOf(part, m[0]), index: m.index ?? 0 };
  }

  replace(text: string, by: string): string {
    if (!this.text) return text;
    this.text.lastIndex = 0;
    return text.replace(this.text, by);
  }

  /** The first form of a secret in bytes (a binary body): each byte raw or percent-encoded, or a base64 core. */
  findInBytes(bytes: Buffer): SecretHit | undefined {
    if (!this.parts.length) return undefined;
    const view = bytes.toString('latin1');
    for (const part of this.parts) {
      const m = new RegExp(part.latin1).exec(view);
      if (m) return { label: part.label, form: formOf(part, m[0]), index: m.index };
    }
    return undefined;
  }

  /** The same on bytes (a binary body): each byte of the secret raw or percent-encoded. */
  replaceBytes(bytes: Buffer, by: string): Buffer {
    if (!this.parts.length) return bytes;
    this.latin1 ??= new RegExp(this.parts.map((p) => `(?:${p.latin1})`).join('|'), 'g');
    const view = bytes.toString('latin1');
    this.latin1.lastIndex = 0;
    const out = view.replace(this.latin1, by);
    return out === view ? bytes : Buffer.from(out, 'latin1');
  }
}
