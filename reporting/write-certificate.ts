/**
 * Writes reports/certificate.json and reports/certificate.html. Both pass
 * through redaction once more on the way to disk: the suites already redact
 * their records, and a certificate is the file most likely to be shared.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactText } from '../core/redact.ts';
import { buildCertificate, type CertificateInput } from './certificate.ts';
import type { Certificate } from './certificate-types.ts';
import { certificateBaseName, renderCertificateHtml } from './certificate-html.ts';
import { scopePhrase, verdictWord } from './verdict-words.ts';

export { certificateBaseName };

export const CERTIFICATE_JSON = 'certificate.json';
export const CERTIFICATE_HTML = 'certificate.html';

export function writeCertificate(reportDir: string, input: CertificateInput, secrets: readonly string[]): Certificate {
  const certificate = buildCertificate(input);
  const base = certificateBaseName(input.subject.partner);
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(join(reportDir, `${base}.json`), redactText(`${JSON.stringify(certificate, null, 2)}\n`, secrets));
  writeFileSync(join(reportDir, `${base}.html`), redactText(renderCertificateHtml(certificate), secrets));
  return certificate;
}

/** One line for a terminal or a CI log. */
export function certificateSummary(c: Certificate, reportDir: string): string {
  return `certificate: ${verdictWord(c.verdict.status)} (${c.verdict.reasons.join('; ')}); scope: ${scopePhrase(c)}; ${join(reportDir, `${certificateBaseName(c.subject.partner)}.html`)}`;
}
