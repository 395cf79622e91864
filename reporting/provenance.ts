/**
 * What a certificate says about where it came from: the spec version and the
 * sha256 of specs/openapi.yaml (so a reader knows exactly which contract was
 * applied), the tool's version, and the deployment's base URL with anything
 * secret-shaped removed (user info and the query string, which may carry keys).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPENAPI_FILE, specVersion } from '../specs/contract.ts';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface SpecProvenance {
  version: string;
  file: string;
  sha256: string;
}

export function specProvenance(): SpecProvenance {
  return {
    version: specVersion(),
    file: 'specs/openapi.yaml',
    sha256: createHash('sha256').update(readFileSync(OPENAPI_FILE)).digest('hex'),
  };
}

export function toolProvenance(): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

/** The base URL as a reader may see it: scheme, host, port and path only. */
export function publicBaseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(not a URL)';
  }
}
