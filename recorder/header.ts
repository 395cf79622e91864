/**
 * The cassette header: when, against which deployment (by name, never its
 * token), which spec version and which tool version recorded it.
 */
import { readFileSync } from 'node:fs';
import { specVersion } from '../specs/contract.ts';
import { CASSETTE_FORMAT, CASSETTE_KIND, type CassetteHeader } from './cassette-format.ts';

let tool: { name: string; version: string } | undefined;

export function toolInfo(): { name: string; version: string } {
  if (!tool) {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      name: string;
      version: string;
    };
    tool = { name: pkg.name, version: pkg.version };
  }
  return tool;
}

export function cassetteHeader(
  deployment: string | null,
  upstream: string | null,
  labels: Record<string, string> = {},
  recordedAt = new Date(),
): CassetteHeader {
  return {
    format: CASSETTE_FORMAT,
    kind: CASSETTE_KIND,
    recordedAt: recordedAt.toISOString(),
    deployment,
    upstream,
    specVersion: specVersion(),
    tool: toolInfo(),
    ...(Object.keys(labels).length ? { labels } : {}),
  };
}
