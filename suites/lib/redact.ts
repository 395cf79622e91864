/**
 * Secrets never reach a message, an attachment or a report. Every string the
 * suites emit about an exchange passes through here first. The forms a secret
 * can take (raw, percent-encoded, base64 at any alignment...) are the
 * recorder's too: both use errors/secret-forms.ts.
 */
import { base64Cores, SecretForms } from '../../errors/secret-forms.ts';
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

/** Compiled forms per list of secrets: the same few lists are redacted over and over (every line of output). */
const compiled = new Map<string, SecretForms>();

function formsFor(secrets: readonly string[]): SecretForms {
  const key = JSON.stringify(secrets);
  let forms = compiled.get(key);
  if (!forms) {
    forms = new SecretForms(secrets.filter((s) => s.length >= MIN_SECRET).map((value) => ({ label: 'secret', value })));
    if (compiled.size >= 32) compiled.clear();
    compiled.set(key, forms);
  }
  return forms;
}

export function redactText(text: string, secrets: readonly string[]): string {
  return formsFor(secrets).replace(text, REDACTED);
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
