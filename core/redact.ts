/**
 * Secrets never reach a message, an attachment or a report. Every string the
 * suites emit about an exchange passes through here first. The forms a secret
 * can take (raw, percent-encoded, base64 at any alignment...) are the
 * recorder's too: both use errors/secret-forms.ts.
 */
import { base64Cores, SecretForms } from '../errors/secret-forms.ts';
import { nearMissTokens } from './near-miss-tokens.ts';

export const REDACTED = '[REDACTED]';

/** Shorter values are not redacted: they would blot out ordinary text (as before the forms were shared). */
const MIN_SECRET = 4;

/**
 * Literal spellings of a secret, for tests of absence (`text.includes(form)`):
 * raw, URL-encoded, and the base64 characters that encode it at each byte
 * alignment (found inside base64 of `Bearer <t>`, `user:<t>`..., url-safe or not).
 */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_SECRET) return [];
  const cores = base64Cores(secret);
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    ...cores,
    ...cores.map((c) => c.replace(/\+/g, '-').replace(/\//g, '_')),
  ]);
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * A token the suites hold and the tokens derived from it that they send (the auth probes' near misses): each of those
 * gives away all of the token but one character, so each is redacted in every form the token is. Callers name the
 * tokens the suites hold; redactText derives nothing itself, since near misses of every token a run is issued (a
 * new one every few seconds) cost whole seconds to compile and nobody sends them.
 */
export function secretsWithDerived(secrets: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    if (s.length < MIN_SECRET) continue;
    out.add(s);
    for (const near of nearMissTokens(s)) if (near.token.length >= MIN_SECRET) out.add(near.token);
  }
  return [...out];
}

/**
 * Compiled forms per secret, kept across lists: a run through short-lived tokens adds a secret every few seconds,
 * and compiling the whole list anew for each one grew superlinearly (about 7 s at 20 JWT-sized tokens), until the
 * run fell behind its own tokens. One secret compiles in tens of milliseconds, once.
 */
const compiled = new Map<string, SecretForms>();

function formsOf(secret: string): SecretForms {
  let forms = compiled.get(secret);
  if (!forms) {
    forms = new SecretForms([{ label: 'secret', value: secret }]);
    if (compiled.size >= 1024) compiled.clear();
    compiled.set(secret, forms);
  }
  return forms;
}

/** Every form of every secret replaced, the longest secrets first, so a secret inside a longer one leaves no tail. */
export function redactText(text: string, secrets: readonly string[]): string {
  const wanted = [...new Set(secrets)].filter((s) => s.length >= MIN_SECRET).sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of wanted) out = formsOf(secret).replace(out, REDACTED);
  return out;
}

const SENSITIVE_HEADERS = new Set(['authorization', 'cookie', 'set-cookie', 'proxy-authorization']);

export function redactHeaders(headers: Record<string, string>, secrets: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization' && /^bearer\s/i.test(value)) out[name] = `Bearer ${REDACTED}`;
    else out[name] = SENSITIVE_HEADERS.has(lower) ? REDACTED : redactText(value, secrets);
  }
  return out;
}
