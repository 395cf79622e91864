/**
 * startMock: the embedded mock deployment on a loopback port. In-process, so
 * `flis run` and the project's tests need no credentials and no network.
 */
import { buildApp } from './app.ts';
import { createContext } from './context.ts';
import { parseFaults, type FaultName } from './faults.ts';
import { resolveVariant, type MockVariant } from './variant.ts';
import { parseWebhookFaults, type WebhookFaultName } from './webhook-faults.ts';
import { loopbackUrl, WebhookHub } from './webhook-hub.ts';

export interface MockOptions {
  /** Default 127.0.0.1. */
  host?: string | undefined;
  /** 0 (the default) picks a free port. */
  port?: number | undefined;
  token: string;
  faults?: FaultName[] | undefined;
  variant?: Partial<MockVariant> | undefined;
  /** How long an offer write takes to become visible to reads (spec 1). Default 0. */
  writeDelayMs?: number | undefined;
  /** Loopback receivers subscribed from the start (mock-only; also PUT /__flis/webhooks). */
  webhooks?: string[] | undefined;
  /** Webhook fault switches (webhook-faults.ts). */
  webhookFaults?: WebhookFaultName[] | undefined;
  /** The drift switch (drift.ts): answers drift from the contract for the drift report to find. */
  drift?: boolean | undefined;
}

export interface RunningMock {
  /** e.g. http://127.0.0.1:PORT/apis/v0 */
  baseUrl: string;
  close(): Promise<void>;
}

function checkOptions(opts: MockOptions): void {
  if (typeof opts.token !== 'string' || opts.token === '')
    throw new Error('startMock: token must be a non-empty string');
  const delay = opts.writeDelayMs ?? 0;
  if (!Number.isFinite(delay) || delay < 0) throw new Error('startMock: writeDelayMs must be a number of at least 0');
}

/** A URL a client can dial: wildcard binds are reached through loopback, IPv6 literals need brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startMock(opts: MockOptions): Promise<RunningMock> {
  checkOptions(opts);
  const faults = parseFaults(opts.faults ?? []);
  const variant = resolveVariant(opts.variant);
  const webhookFaults = parseWebhookFaults(opts.webhookFaults ?? []);
  const hub = new WebhookHub();
  for (const raw of opts.webhooks ?? []) {
    const url = loopbackUrl(raw);
    if (!url) throw new Error(`startMock: webhook receiver '${raw}' must be an http(s) URL on a loopback address`);
    hub.subscribe(url);
  }
  const context = createContext(variant, opts.writeDelayMs ?? variant.writeDelayMs ?? 0, hub);
  const { app, prefix } = await buildApp({
    token: opts.token,
    context,
    drift: opts.drift === true,
    switches: { faults, webhookFaults },
  });
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ host, port: opts.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (opts.port ?? 0);
  return {
    baseUrl: `http://${urlHost(host)}:${port}${prefix}`,
    close: async () => {
      hub.close();
      await app.close();
    },
  };
}
