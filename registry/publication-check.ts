/**
 * What the registry accepts as a publication, checked whole before anything is stored: the certificate is a flis
 * certificate of the partner whose token sent it, for the contract version and tool version the upload names; the
 * cassette is a cassette (the recorder's strict reader and contract lint, recorder/lint.ts), no larger than the
 * registry's limit, and holds no secret (the recorder's secret scan, recorder/scan.ts: token shapes, the sender's own
 * registry token and the admin token in every encoding, and a partner token's shape). A refusal is one line that
 * never quotes a secret.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CassetteParseError } from '../recorder/errors.ts';
import { lintCassette } from '../recorder/lint.ts';
import { scanCassetteFor } from '../recorder/scan.ts';
import { formsOf, type SecretForms, scanText, type Secret } from '../recorder/secrets.ts';
import { RegistryError, type PublicationInput } from './store.ts';
import { PARTNER_TOKEN_SHAPE } from './tokens.ts';

export interface UploadLimits {
  /** The largest cassette accepted, in bytes of its UTF-8 text. */
  maxCassetteBytes: number;
}

const STATUSES = ['certified', 'certified-with-advisories', 'partial', 'not-certified'];
const PARTY = [...STATUSES, 'not-judged'];
const HEX64 = /^[0-9a-f]{64}$/;
const KEY = /^[A-Za-z0-9_.:-]{8,128}$/;

function refuse(message: string, status = 422): never {
  throw new RegistryError(status, message);
}

function obj(v: unknown, what: string): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) refuse(`${what} must be a JSON object`);
  return v as Record<string, unknown>;
}

function str(v: unknown, what: string, max = 200): string {
  if (typeof v !== 'string' || !v || v.length > max) refuse(`${what} must be a string of 1 to ${max} characters`);
  return v;
}

export function checkIdempotencyKey(raw: unknown): string {
  if (typeof raw !== 'string' || !KEY.test(raw))
    refuse('an Idempotency-Key header of 8 to 128 letters, digits, _ . : or - is required', 400);
  return raw;
}

const compiled = new Map<string, SecretForms>();

/**
 * The secrets' forms, compiled once per set of values (about 9 ms each: every encoding of every value): a registry
 * meets the same few tokens upload after upload.
 */
function formsFor(secrets: readonly Secret[]): SecretForms {
  const key = createHash('sha256')
    .update(JSON.stringify(secrets.map((s) => [s.label, s.value])))
    .digest('hex');
  let forms = compiled.get(key);
  if (!forms) {
    if (compiled.size >= 256) compiled.delete(compiled.keys().next().value as string);
    forms = formsOf(secrets);
    compiled.set(key, forms);
  }
  return forms;
}

/** A secret found in a text of the upload, named by line and kind, never by value. */
function secretIn(text: string, what: string, secrets: readonly Secret[]): void {
  const hit = scanText(text, formsFor(secrets))[0];
  if (hit) refuse(`${what} holds a secret at line ${hit.line}: ${hit.what}; nothing was stored`);
  const line = text.split('\n').findIndex((l) => PARTNER_TOKEN_SHAPE.test(l));
  if (line >= 0)
    refuse(`${what} holds a secret at line ${line + 1}: a flis registry partner token; nothing was stored`);
}

/** The cassette linted and scanned from a file of its own (the recorder's readers take files), then removed. */
function checkCassette(text: string, secrets: readonly Secret[]): { exchanges: number; violations: number } {
  const dir = mkdtempSync(join(tmpdir(), 'flis-registry-upload-'));
  const file = join(dir, 'cassette.yaml');
  try {
    writeFileSync(file, text);
    let report: ReturnType<typeof lintCassette>;
    try {
      report = lintCassette(file);
    } catch (e) {
      if (e instanceof CassetteParseError)
        refuse(`the cassette is not a flis cassette: line ${e.line}: expected ${e.expected}`);
      throw e;
    }
    if (report.tail)
      refuse(
        `the cassette is torn at line ${report.tail.line}: ${report.tail.message}; 'flis cassette repair' cuts it off`,
      );
    const found = scanCassetteFor(file, formsFor(secrets))[0];
    if (found) refuse(`the cassette holds a secret at line ${found.line}: ${found.what}; nothing was stored`);
    const line = text.split('\n').findIndex((l) => PARTNER_TOKEN_SHAPE.test(l));
    if (line >= 0)
      refuse(`the cassette holds a secret at line ${line + 1}: a flis registry partner token; nothing was stored`);
    return { exchanges: report.exchanges, violations: report.findings.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The publication a partner's upload makes, or a RegistryError (422, or 413 for a cassette over the limit).
 * `secrets` are the values no upload may hold: the sender's own token and the admin token.
 */
export function checkPublication(
  body: unknown,
  partner: string,
  idempotencyKey: string,
  limits: UploadLimits,
  secrets: readonly Secret[],
): PublicationInput {
  const b = obj(body, 'the body');
  const certificate = obj(b.certificate, 'certificate');
  if (certificate.kind !== 'flis-conformance-certificate')
    refuse("certificate is no flis certificate (its kind is not 'flis-conformance-certificate')");
  const subject = obj(certificate.subject, 'certificate.subject');
  if (subject.partner !== partner)
    refuse(
      `the certificate is for partner ${JSON.stringify(String(subject.partner ?? '(none)').slice(0, 64))}, the token is partner '${partner}''s: certify with --partner ${partner}`,
      403,
    );
  const spec = obj(certificate.spec, 'certificate.spec');
  const tool = obj(certificate.tool, 'certificate.tool');
  const run = obj(certificate.run, 'certificate.run');
  const verdict = obj(certificate.verdict, 'certificate.verdict');
  const contract = obj(b.contract, 'contract');
  const sha = str(contract.sha256, 'contract.sha256', 64);
  if (!HEX64.test(sha)) refuse('contract.sha256 must be the sha256 of the OpenAPI document, 64 hex digits');
  if (spec.sha256 !== sha) refuse("contract.sha256 is not the certificate's spec.sha256");
  const toolVersion = str(obj(b.tool, 'tool').version, 'tool.version', 64);
  if (tool.version !== toolVersion) refuse("tool.version is not the certificate's tool.version");
  const status = verdict.status;
  if (typeof status !== 'string' || !STATUSES.includes(status))
    refuse(`certificate.verdict.status must be one of ${STATUSES.join(', ')}`);
  const parties = certificate.parties as { client?: { status?: unknown }; service?: { status?: unknown } } | undefined;
  const party = (s: unknown) => (typeof s === 'string' && PARTY.includes(s) ? s : null);
  const html = b.certificateHtml;
  if (typeof html !== 'string' || !/^<!doctype html>/i.test(html.trimStart()))
    refuse('certificateHtml must be the certificate as HTML (it starts with <!doctype html>)');
  const certificateJson = JSON.stringify(certificate);
  for (const [what, text] of [
    ['the certificate', certificateJson],
    ['the certificate HTML', html],
  ] as const) {
    if (text.includes('\u0000')) refuse(`${what} holds a NUL character`);
    secretIn(text, what, secrets);
  }
  let cassette: string | null = null;
  let facts: { exchanges: number; violations: number } | undefined;
  if (b.cassette !== undefined && b.cassette !== null) {
    if (typeof b.cassette !== 'string') refuse('cassette must be the text of a flis cassette (YAML)');
    const bytes = Buffer.byteLength(b.cassette, 'utf8');
    if (bytes > limits.maxCassetteBytes)
      refuse(`the cassette is ${bytes} bytes, over this registry's limit of ${limits.maxCassetteBytes}`, 413);
    if (b.cassette.includes('\u0000')) refuse('the cassette holds a NUL character');
    facts = checkCassette(b.cassette, secrets);
    cassette = b.cassette;
  }
  return {
    idempotencyKey,
    contractSha256: sha,
    specVersion: str(spec.version, 'certificate.spec.version', 64),
    toolVersion,
    deployment: str(subject.deployment, 'certificate.subject.deployment', 200),
    runId: str(run.runId, 'certificate.run.runId', 200),
    verdict: status as string,
    clientVerdict: party(parties?.client?.status),
    serviceVerdict: party(parties?.service?.status),
    certificateJson,
    certificateHtml: html,
    cassette,
    cassetteSha256: cassette === null ? null : createHash('sha256').update(cassette, 'utf8').digest('hex'),
    exchanges: facts?.exchanges ?? null,
    violations: facts?.violations ?? null,
  };
}
