/**
 * The cassette header: when, against which deployment (by name, never its
 * token), which spec version and which tool version recorded it.
 */
import { specVersion } from '../specs/contract.ts';
import { toolPackage } from '../specs/tool-files.ts';
import { CASSETTE_FORMAT, CASSETTE_KIND, type CassetteHeader } from './cassette-format.ts';

export function toolInfo(): { name: string; version: string } {
  return toolPackage();
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
