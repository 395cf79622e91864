/**
 * Redaction, deny by default: only allow-listed headers are kept, credentials
 * headers keep their name (so a reader sees that one was sent) with the value
 * replaced, and every known secret, in every form, is replaced wherever it
 * appears — path, query, header values, body keys and strings, binary bytes.
 */
import { REDACTED, type HeaderMap, type QueryMap, type StoredBody } from './cassette-format.ts';
import { guardFind } from './secret-guard.ts';
import { formsOf, type Secret, SecretForms } from './secrets.ts';

export const defaultRequestHeaders = ['accept', 'content-type', 'if-match', 'if-none-match', 'prefer'] as const;
export const defaultResponseHeaders = [
  'allow',
  'cache-control',
  'content-type',
  'deprecation',
  'etag',
  'link',
  'location',
  'ratelimit',
  'ratelimit-policy',
  'retry-after',
  'sunset',
  'www-authenticate',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-request-id',
] as const;
/** Kept by name only: the value always becomes the placeholder. */
export const credentialHeaders = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'] as const;

export interface RedactionPolicy {
  requestHeaders: ReadonlySet<string>;
  responseHeaders: ReadonlySet<string>;
}

export function redactionPolicy(extraHeaders: string[] = []): RedactionPolicy {
  const extra = extraHeaders.map((h) => h.toLowerCase());
  return {
    requestHeaders: new Set([...defaultRequestHeaders, ...extra]),
    responseHeaders: new Set([...defaultResponseHeaders, ...extra]),
  };
}

/** Replaces every form of every secret in strings and bytes, with the forms compiled once per set of secrets. */
export class Redactor {
  readonly forms: SecretForms;
  constructor(secrets: Secret[] | SecretForms) {
    this.forms = secrets instanceof SecretForms ? secrets : formsOf(secrets);
  }

  /** A redactor that also knows the secrets of one exchange (the credentials it carried); compiled once per value. */
  with(extra: Secret[]): Redactor {
    const forms = this.forms.with(extra);
    return forms === this.forms ? this : new Redactor(forms);
  }

  text(s: string): string {
    // Most values hold no secret: proving it (recorder/secret-guard.ts) is cheaper than a replace that tries every form.
    if (guardFind(s, this.forms) === undefined) return s;
    return this.forms.replace(s, REDACTED);
  }

  bytes(b: Buffer): Buffer {
    return this.forms.replaceBytes(b, REDACTED);
  }

  json(v: unknown): unknown {
    if (typeof v === 'string') return this.text(v);
    if (Array.isArray(v)) return v.map((x) => this.json(x));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[this.text(k)] = this.json(x);
      return out;
    }
    return v;
  }

  body(b: StoredBody | null): StoredBody | null {
    if (!b || this.forms.length === 0) return b;
    if (b.encoding === 'json') return { ...b, value: this.json(b.value) };
    if (b.encoding === 'text') return { ...b, value: this.text(b.value as string) };
    return { ...b, value: this.bytes(Buffer.from(b.value as string, 'base64')).toString('base64') };
  }

  query(q: QueryMap): QueryMap {
    const out: QueryMap = {};
    for (const [k, v] of Object.entries(q))
      out[this.text(k)] = Array.isArray(v) ? v.map((x) => this.text(x)) : this.text(v);
    return out;
  }
}

/** Keep allow-listed headers (sorted, so a cassette diffs well), with credentials replaced. */
export function keepHeaders(
  headers: Record<string, string | string[] | undefined>,
  allow: ReadonlySet<string>,
  r: Redactor,
): HeaderMap {
  // The few kept are picked first and only they are sorted (stable: of two spellings of one name, the later wins).
  const kept: Array<readonly [string, string | string[]]> = [];
  for (const key of Object.keys(headers)) {
    const value = headers[key];
    if (value === undefined) continue;
    const name = key.toLowerCase();
    if (credentialNames.has(name)) kept.push([name, redactCredential(name, value)]);
    else if (allow.has(name)) kept.push([name, Array.isArray(value) ? value.map((v) => r.text(v)) : r.text(value)]);
  }
  if (kept.length > 1) kept.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: HeaderMap = {};
  for (const [name, value] of kept) out[name] = value;
  return out;
}

const credentialNames: ReadonlySet<string> = new Set(credentialHeaders);

/** "Bearer abc" → "Bearer <redacted>": the scheme is not secret and tells what was sent. */
function redactCredential(name: string, value: string | string[]): string | string[] {
  if (Array.isArray(value)) return value.map(() => REDACTED);
  if (!name.endsWith('authorization')) return REDACTED;
  let out = redactedCredentials.get(value);
  if (out === undefined) {
    const scheme = value.trim().match(/^(\S+)\s+\S/)?.[1];
    out = scheme ? `${scheme} ${REDACTED}` : REDACTED;
    if (redactedCredentials.size >= MAX_REDACTED_CREDENTIALS) redactedCredentials.clear();
    redactedCredentials.set(value, out);
  }
  return out;
}

/**
 * Authorization values as written, by the value sent: a client sends the same few again and again. (The values
 * are in memory anyway, in the redactors that know them: recorder/proxy.ts redactorFor.)
 */
const redactedCredentials = new Map<string, string>();
const MAX_REDACTED_CREDENTIALS = 16;
