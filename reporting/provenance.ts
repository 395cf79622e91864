/**
 * What a certificate says about where it came from: the spec version and the
 * sha256 of specs/openapi.yaml (so a reader knows exactly which contract was
 * applied), the tool's version, and the deployment's base URL with anything
 * secret-shaped removed (user info and the query string, which may carry keys).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { OPENAPI_FILE, specVersion } from '../specs/contract.ts';
import { toolPackage } from '../specs/tool-files.ts';

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
  return toolPackage();
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
