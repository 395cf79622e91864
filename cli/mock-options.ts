/**
 * The embedded mock's switches on `flis run` (faults, a conformant variant,
 * write delay, webhook faults, drift), and the command line that reruns an
 * embedded-mock run with the same switches.
 */
import { oneOf } from '../errors/flis-error.ts';
import { faultNames, type FaultName } from '../mock/faults.ts';
import { variantPresets } from '../mock/variant.ts';
import { webhookFaultNames, type WebhookFaultName } from '../mock/webhook-faults.ts';
import type { EmbeddedOptions } from '../runner/start-target.ts';
import { intOption, listOption } from './args.ts';

export const embeddedOptionSpec = {
  'mock-fault': { type: 'string', multiple: true },
  'mock-variant': { type: 'string' },
  'mock-write-delay': { type: 'string' },
  'mock-webhook-fault': { type: 'string', multiple: true },
  'mock-drift': { type: 'boolean' },
} as const;

export type EmbeddedValues = {
  'mock-fault'?: unknown;
  'mock-variant'?: unknown;
  'mock-write-delay'?: unknown;
  'mock-webhook-fault'?: unknown;
  'mock-drift'?: unknown;
};

/** The preset names --mock-variant takes, as mock/variant.ts lists them. */
export function variantNames(): string[] {
  return Object.keys(variantPresets);
}

export function embeddedOptions(v: EmbeddedValues): EmbeddedOptions {
  const list = (name: string, raw: unknown) => listOption(name, raw as string[] | undefined) ?? [];
  const faults = list('mock-fault', v['mock-fault']).map((f) =>
    oneOf<FaultName>('--mock-fault', f, faultNames, "'flis mock --help'"),
  );
  const variantName =
    typeof v['mock-variant'] === 'string'
      ? (oneOf('--mock-variant', v['mock-variant'], variantNames()) as keyof typeof variantPresets)
      : undefined;
  const writeDelayMs = intOption('mock-write-delay', v['mock-write-delay'] as string | undefined, { max: 600_000 });
  const webhookFaults = list('mock-webhook-fault', v['mock-webhook-fault']).map((f) =>
    oneOf<WebhookFaultName>('--mock-webhook-fault', f, webhookFaultNames, "'flis mock --help'"),
  );
  return {
    faults: faults.length ? faults : undefined,
    variant: variantName ? variantPresets[variantName] : undefined,
    writeDelayMs,
    webhookFaults: webhookFaults.length ? webhookFaults : undefined,
    drift: v['mock-drift'] === true ? true : undefined,
  };
}

/** A line a shell user can paste as it is to read a mock's token file into FLIS_TOKEN: the file's path, never the token. */
export function pasteableExport(tokenFile: string): string {
  return `export FLIS_TOKEN="$(cat '${tokenFile.replaceAll("'", "'\\''")}')"`;
}

export function hasEmbeddedOptions(e: EmbeddedOptions): boolean {
  return !!(e.faults || e.variant || e.writeDelayMs !== undefined || e.webhookFaults || e.drift);
}

/** The flis command line that reruns an embedded-mock run: same seed, suites, runs and mock switches. */
export function reproduceCommand(v: {
  seed: number;
  suites?: string[] | undefined;
  runs?: number | undefined;
  explore?: number | undefined;
  visibilityTimeoutMs?: number | undefined;
  embedded: EmbeddedOptions;
  variantName?: string | undefined;
}): string {
  const e = v.embedded;
  return [
    'npx flis run',
    `--seed ${v.seed}`,
    ...(v.suites ? [`--suite ${v.suites.join(',')}`] : []),
    ...(v.runs !== undefined ? [`--runs ${v.runs}`] : []),
    ...(v.explore !== undefined ? [`--explore ${v.explore}`] : []),
    ...(v.visibilityTimeoutMs !== undefined ? [`--visibility-timeout ${v.visibilityTimeoutMs}`] : []),
    ...(e.faults ?? []).map((f) => `--mock-fault ${f}`),
    ...(v.variantName ? [`--mock-variant ${v.variantName}`] : []),
    ...(e.writeDelayMs !== undefined ? [`--mock-write-delay ${e.writeDelayMs}`] : []),
    ...(e.webhookFaults ?? []).map((f) => `--mock-webhook-fault ${f}`),
    ...(e.drift ? ['--mock-drift'] : []),
  ].join(' ');
}
