/**
 * Turns a resolved target into something the suites can reach: the embedded
 * mock is started in this process on a free loopback port with a fresh token;
 * a remote deployment is used as it is.
 */
import { randomBytes } from 'node:crypto';
import type { ResolvedTarget } from '../config/deployments.ts';
import { startMock } from '../mock/server.ts';
import type { FaultName } from '../mock/faults.ts';
import type { MockVariant } from '../mock/variant.ts';
import type { WebhookFaultName } from '../mock/webhook-faults.ts';

export interface EmbeddedOptions {
  faults?: FaultName[] | undefined;
  variant?: Partial<MockVariant> | undefined;
  writeDelayMs?: number | undefined;
  port?: number | undefined;
  webhookFaults?: WebhookFaultName[] | undefined;
  drift?: boolean | undefined;
}

export interface LiveTarget {
  baseUrl: string;
  token: string;
  close(): Promise<void>;
}

/** A token minted per run: the embedded mock has no credentials to configure, yet auth is still enforced. */
export function mintToken(): string {
  return `flis-embedded-${randomBytes(18).toString('base64url')}`;
}

export async function startTarget(t: ResolvedTarget, embedded: EmbeddedOptions = {}): Promise<LiveTarget> {
  if (t.embedded) {
    const token = mintToken();
    const mock = await startMock({
      token,
      port: embedded.port ?? 0,
      faults: embedded.faults,
      variant: embedded.variant,
      writeDelayMs: embedded.writeDelayMs,
      webhookFaults: embedded.webhookFaults,
      drift: embedded.drift === true,
    });
    return { baseUrl: mock.baseUrl, token, close: () => mock.close() };
  }
  if (!t.baseUrl) throw new Error(`target '${t.name}' has no base URL`);
  // No token here when it is issued during the run (--token-url, --token-command): the connection holds it.
  return { baseUrl: t.baseUrl, token: t.token ?? '', close: async () => {} };
}
