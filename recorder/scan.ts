/**
 * `flis cassette scan`: checks that the file is a cassette (a torn last
 * exchange is allowed: a crash must not hide what was written before it), then
 * looks through its raw text for the secret values of the environment in all
 * their forms (errors/secret-forms.ts) and for common token shapes. Findings
 * name the line and the kind of secret, never its value.
 */
import { readFileSync } from 'node:fs';
import { checkReadableCassette } from './cassette-path.ts';
import { parseCassette } from './cassette-reader.ts';
import { CassetteParseError } from './errors.ts';
import type { LocatedExchange } from './cassette-format.ts';
import { formsOf, type ScanFinding, type SecretForms, scanText, secretsFromEnv } from './secrets.ts';

export function scanCassette(file: string, env: NodeJS.ProcessEnv, extraSecretEnv: string[] = []): ScanFinding[] {
  checkReadableCassette(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CassetteParseError(file, 1, 'a readable cassette file', (e as NodeJS.ErrnoException).code ?? String(e));
  }
  // Not YAML, or not a cassette: exit 2 naming the line, rather than "no secrets found" on something never checked.
  const cassette = parseCassette(text, file, { allowTorn: true });
  const secrets = secretsFromEnv(env, extraSecretEnv);
  return [...scanText(text, secrets), ...scanBinaryBodies(cassette.exchanges, formsOf(secrets))].sort(
    (a, b) => a.line - b.line,
  );
}

/** A binary body is stored as base64 of its bytes: a secret inside it, in any form, is searched for in the bytes. */
function scanBinaryBodies(exchanges: LocatedExchange[], forms: SecretForms): ScanFinding[] {
  const out: ScanFinding[] = [];
  for (const e of exchanges)
    for (const [side, body] of [
      ['request', e.request.body],
      ['response', e.response.body],
    ] as const) {
      if (body?.encoding !== 'base64') continue;
      const hit = forms.findInBytes(Buffer.from(body.value as string, 'base64'));
      if (hit)
        out.push({ line: e.line, what: `the value of ${hit.label} (${hit.form} form, in the binary ${side} body)` });
    }
  return out;
}
