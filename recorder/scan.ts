/**
 * `flis cassette scan`: checks that the file is a cassette (a torn last
 * exchange is allowed: a crash must not hide what was written before it) while
 * it looks through every line of it for the secret values of the environment
 * in all their forms (errors/secret-forms.ts) and for common token shapes.
 * Findings name the line, the column and the kind of secret, never its value.
 */
import { checkReadableCassette } from './cassette-path.ts';
import type { CassettePart, StrayLine } from './cassette-documents.ts';
import { fileParts, parseExchange, walkCassette } from './cassette-reader.ts';
import type { LocatedExchange } from './cassette-format.ts';
import { formsOf, type ScanFinding, type SecretForms, scanText, secretsFromEnv } from './secrets.ts';

/**
 * One pass over the file, document by document (a cassette of any size, in
 * bounded memory): each document and stray line is searched as it goes by,
 * while the walk checks that the file is a cassette. Not a cassette: exit 2
 * naming the line, rather than "no secrets found" on something never checked.
 */
export function scanCassette(file: string, env: NodeJS.ProcessEnv, extraSecretEnv: string[] = []): ScanFinding[] {
  return scanCassetteFor(file, formsOf(secretsFromEnv(env, extraSecretEnv)));
}

/** The same scan with the secrets' forms compiled already (a server scanning many uploads compiles them once). */
export function scanCassetteFor(file: string, forms: SecretForms): ScanFinding[] {
  checkReadableCassette(file);
  const findings: ScanFinding[] = [];
  const searched = function* (parts: Iterable<CassettePart>): Generator<CassettePart> {
    for (const part of parts) {
      if (part.kind === 'stray') findings.push(...scanText(part.text, forms, part.line));
      else findings.push(...scanText(part.bytes.toString('utf8'), forms, part.line));
      yield part;
    }
  };
  const comment = (line: StrayLine): void => {
    findings.push(...scanText(line.text, forms, line.line));
  };
  walkCassette(file, searched(fileParts(file, comment)), { allowTorn: true }, (doc) =>
    findings.push(...scanBinaryBodies(parseExchange(file, doc), forms)),
  );
  return findings.sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
}

/** A binary body is stored as base64 of its bytes: a secret inside it, in any form, is searched for in the bytes. */
function scanBinaryBodies(e: LocatedExchange, forms: SecretForms): ScanFinding[] {
  const out: ScanFinding[] = [];
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
