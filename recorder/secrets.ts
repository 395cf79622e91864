/**
 * Which values are secret, the forms they can take on the wire, and the
 * scanner for token shapes. A value is never printed: findings carry the label
 * of where the secret came from (an environment variable name) and the form.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { type SecretHit, SecretForms, type SecretSource } from '../errors/secret-forms.ts';
import { SPEC_DIR } from '../specs/contract.ts';
import { guardFind, guardFindPieces, type SearchedText } from './secret-guard.ts';

export { SecretForms, type SecretHit } from '../errors/secret-forms.ts';

/** A secret value and where it came from (e.g. "FLIS_TOKEN" or "authorization header"; safe to print). */
export type Secret = SecretSource;

/** The forms of these secrets (errors/secret-forms.ts says which), compiled once. */
export function formsOf(secrets: readonly Secret[]): SecretForms {
  return new SecretForms(secrets);
}

/** What the writer's guard searches: the compiled forms, or none at all (`[]`). */
export type SecretGuard = SecretForms | readonly never[];

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

/** A form of a secret found in `text`, if any (recorder/secret-guard.ts: exact, and cheap on a clean text). */
export function findSecret(text: string, forms: SecretGuard): SecretHit | undefined {
  return forms instanceof SecretForms ? guardFind(text, forms) : undefined;
}

/** The same over a document in pieces (recorder/cassette-yaml.ts exchangeDocumentPieces), as if joined. */
export function findSecretInPieces(
  pieces: ReadonlyArray<string | SearchedText>,
  forms: SecretGuard,
): SecretHit | undefined {
  return forms instanceof SecretForms ? guardFindPieces(pieces, forms) : undefined;
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
  /** Where on the line a known secret starts (1-based): a JSON body is one long line. */
  column?: number;
  /** The token shape or "<label> (<form> form)". */
  what: string;
}

/**
 * Every place in `text` that holds a known secret (any form), and every line
 * with a token shape, in line order; `firstLine` is the file line `text` starts on.
 */
export function scanText(text: string, forms: SecretForms, firstLine = 1): ScanFinding[] {
  const findings: ScanFinding[] = [];
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineOf = (index: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  for (const hit of forms.findAll(text)) {
    const line = lineOf(hit.index);
    findings.push({
      line: line + firstLine - 1,
      column: hit.index - lineStarts[line - 1]! + 1,
      what: `the value of ${hit.label} (${hit.form} form)`,
    });
  }
  text.split('\n').forEach((content, i) => {
    for (const shape of tokenShapes) {
      shape.pattern.lastIndex = 0;
      if (shape.pattern.test(content)) findings.push({ line: i + firstLine, what: `a ${shape.name}` });
    }
  });
  return findings.sort((a, b) => a.line - b.line);
}
