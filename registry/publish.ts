/**
 * Publishing a partner's certificate to the registry (`flis certify --publish URL`, and `flis registry publish`
 * to send one again): the certificate as JSON and HTML, the partner's cassette, the contract version (the sha256
 * of the OpenAPI document the certificate names) and the tool version. Before anything is sent, the cassette is
 * read through (recorder/lint.ts) and scanned for secrets (recorder/scan.ts, with the registry token too): a
 * cassette with a token in it never leaves the machine. The Idempotency-Key is the sha256 of what is sent, so
 * publishing the same files again, after a failure or by hand, returns the publication stored the first time.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { UsageError } from '../errors/flis-error.ts';
import { checkReadableCassette } from '../recorder/cassette-path.ts';
import { lintCassette } from '../recorder/lint.ts';
import { scanCassette } from '../recorder/scan.ts';
import { type RegistryClient, TOKEN_ENV } from './client.ts';

export interface Published {
  id: number;
  created: boolean;
  partner: string;
  url: string;
}

interface CertificateHead {
  kind?: unknown;
  subject?: { partner?: unknown };
  spec?: { sha256?: unknown };
  tool?: { version?: unknown };
}

function readCertificate(file: string): { json: unknown; head: CertificateHead; html: string } {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(
      `--certificate ${file}: not a certificate (${(e as NodeJS.ErrnoException).code ?? 'not JSON'})`,
    );
  }
  const head = (json ?? {}) as CertificateHead;
  if (head.kind !== 'flis-conformance-certificate')
    throw new UsageError(`--certificate ${file}: not a flis certificate (write one with 'flis certify')`);
  const htmlFile = file.replace(/\.json$/, '.html');
  if (htmlFile === file || !existsSync(htmlFile))
    throw new UsageError(`--certificate ${file}: its HTML (${htmlFile}) is not beside it; 'flis certify' writes both`);
  return { json, head, html: readFileSync(htmlFile, 'utf8') };
}

/** The cassette as it may leave the machine: a readable cassette with no secret in it, else exit 2 naming the line. */
export function checkCassetteToPublish(file: string, env: NodeJS.ProcessEnv): string {
  checkReadableCassette(file);
  const lint = lintCassette(file);
  if (lint.tail)
    throw new UsageError(
      `${file}:${lint.tail.line}: ${lint.tail.message}; 'flis cassette repair ${file}' cuts it off before publishing`,
    );
  const found = scanCassette(file, env, [TOKEN_ENV])[0];
  if (found)
    throw new UsageError(
      `${file}:${found.line}: the cassette holds a secret (${found.what}); nothing was published: record it again through 'flis record', which redacts tokens`,
    );
  return readFileSync(file, 'utf8');
}

export async function publishCertificate(
  client: RegistryClient,
  o: { certificate: string; cassette?: string | undefined; env: NodeJS.ProcessEnv },
): Promise<Published> {
  const cert = readCertificate(o.certificate);
  const cassette = o.cassette ? checkCassetteToPublish(o.cassette, o.env) : null;
  const sha = cert.head.spec?.sha256;
  const version = cert.head.tool?.version;
  const certificateText = JSON.stringify(cert.json);
  const key = createHash('sha256')
    .update(certificateText)
    .update('\u0000')
    .update(cassette ?? '')
    .digest('hex');
  const answer = await client.call('POST', '/api/publications', {
    idempotencyKey: `pub-${key}`,
    json: {
      certificate: cert.json,
      certificateHtml: cert.html,
      cassette,
      contract: { sha256: sha },
      tool: { version },
    },
  });
  const r = answer.json<Omit<Published, 'url'> & { url: string }>();
  return { ...r, url: `${client.url}${r.url}` };
}
