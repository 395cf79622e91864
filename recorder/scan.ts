/**
 * `flis cassette scan`: looks through a cassette's raw text (so it works on a
 * torn or hand-edited file too) for the secret values of the environment in
 * all their forms and for common token shapes. Findings name the line and the
 * kind of secret, never its value.
 */
import { readFileSync } from 'node:fs';
import { CassetteParseError } from './errors.ts';
import { scanText, secretsFromEnv, type ScanFinding } from './secrets.ts';

export function scanCassette(file: string, env: NodeJS.ProcessEnv, extraSecretEnv: string[] = []): ScanFinding[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CassetteParseError(file, 1, 'a readable cassette file', (e as NodeJS.ErrnoException).code ?? String(e));
  }
  return scanText(text, secretsFromEnv(env, extraSecretEnv));
}
