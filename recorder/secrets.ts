/**
 * Which values are secret, the forms they can take on the wire, and the
 * scanner for token shapes. A value is never printed: findings carry the label
 * of where the secret came from (an environment variable name) and the form.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { SPEC_DIR } from '../specs/contract.ts';

export interface Secret {
  /** Where it came from, e.g. "FLIS_TOKEN" or "authorization header"; safe to print. */
  label: string;
  value: string;
}

export interface SecretForm {
  label: string;
  form: 'raw' | 'url-encoded' | 'form-encoded' | 'base64' | 'base64url' | 'json-escaped';
  needle: string;
}

/** Spellings of one value that a secret can hide behind in a URL, a header or a body. */
export function formsOf(secret: Secret): SecretForm[] {
  const v = secret.value;
  const b64 = Buffer.from(v, 'utf8').toString('base64');
  const candidates: Array<[SecretForm['form'], string]> = [
    ['raw', v],
    ['url-encoded', encodeURIComponent(v)],
    ['form-encoded', encodeURIComponent(v).replace(/%20/g, '+')],
    ['base64', b64],
    ['base64', b64.replace(/=+$/, '')],
    ['base64url', Buffer.from(v, 'utf8').toString('base64url')],
    ['json-escaped', JSON.stringify(v).slice(1, -1)],
  ];
  const seen = new Set<string>();
  const out: SecretForm[] = [];
  for (const [form, needle] of candidates) {
    if (!needle || seen.has(needle)) continue;
    seen.add(needle);
    out.push({ label: secret.label, form, needle });
  }
  // Longest first, so a form that contains another (padded base64) is replaced whole.
  return out.sort((a, b) => b.needle.length - a.needle.length);
}

/** Environment variables that hold tokens: FLIS_TOKEN and every deployment's tokenEnv. */
export function tokenEnvNames(): string[] {
  const names = new Set(['FLIS_TOKEN']);
  try {
    const doc = parse(readFileSync(join(SPEC_DIR, 'deployments.yaml'), 'utf8')) as {
      deployments?: Record<string, { tokenEnv?: string }>;
    };
    for (const d of Object.values(doc.deployments ?? {})) if (d.tokenEnv) names.add(d.tokenEnv);
  } catch {
    // deployments.yaml is read for extra names only; FLIS_TOKEN alone still guards.
  }
  return [...names];
}

/** The secrets of an environment: every token variable that is set, plus the ones the user names. */
export function secretsFromEnv(env: NodeJS.ProcessEnv, extraNames: string[] = []): Secret[] {
  const out: Secret[] = [];
  for (const name of [...tokenEnvNames(), ...extraNames]) {
    const value = env[name];
    if (value && !out.some((s) => s.value === value)) out.push({ label: name, value });
  }
  return out;
}

/** The credentials part of an Authorization value ("Bearer abc" → "abc"). */
export function credentialsOf(authorization: string): string | undefined {
  const m = authorization.trim().match(/^\S+\s+(.+)$/);
  return m?.[1]?.trim() || undefined;
}

/** The first form of a secret found in `text`, if any. */
export function findSecret(text: string, forms: SecretForm[]): SecretForm | undefined {
  return forms.find((f) => text.includes(f.needle));
}

/** Common token shapes, for cassettes scanned without knowing the secret values. */
export const tokenShapes: Array<{ name: string; pattern: RegExp }> = [
  { name: 'bearer token', pattern: /\bBearer\s+(?!\[REDACTED\])[A-Za-z0-9\-._~+/]{8,}=*/g },
  { name: 'JWT', pattern: /\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g },
  { name: 'basic credentials', pattern: /\bBasic\s+(?!\[REDACTED\])[A-Za-z0-9+/]{8,}=*/g },
  { name: 'private key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/g },
  { name: 'AWS access key id', pattern: /\bAKIA[0-9A-Z]{16}\b/g },
  { name: 'GitHub token', pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/g },
];

export interface ScanFinding {
  line: number;
  /** The token shape or "<label> (<form> form)". */
  what: string;
}

/** Every line of `text` that holds a known secret (any form) or a token shape. */
export function scanText(text: string, secrets: Secret[]): ScanFinding[] {
  const forms = secrets.flatMap(formsOf);
  const findings: ScanFinding[] = [];
  const lines = text.split('\n');
  lines.forEach((content, i) => {
    const hit = findSecret(content, forms);
    if (hit) findings.push({ line: i + 1, what: `the value of ${hit.label} (${hit.form} form)` });
    for (const shape of tokenShapes) {
      shape.pattern.lastIndex = 0;
      if (shape.pattern.test(content)) findings.push({ line: i + 1, what: `a ${shape.name}` });
    }
  });
  return findings;
}
