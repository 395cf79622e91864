/**
 * Secrets never reach a message, an attachment or a report. Every string the
 * suites emit about an exchange passes through here first.
 */
export const REDACTED = '[REDACTED]';

/** The forms a secret can take on the wire: raw, URL-encoded, base64 (as in Basic auth or a cookie). */
export function secretForms(secret: string): string[] {
  if (!secret) return [];
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
  ]);
  return [...forms].filter((f) => f.length >= 4).sort((a, b) => b.length - a.length);
}

export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) for (const form of secretForms(secret)) out = out.split(form).join(REDACTED);
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
