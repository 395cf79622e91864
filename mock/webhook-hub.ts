/**
 * The mock's webhook deliveries (spec 6). The spec does not show how a client
 * subscribes, which headers a delivery carries, how it is signed or retried,
 * so the mock picks the simplest answers and says so (mock/README.md):
 * subscribers are registered through a mock-only admin endpoint or startMock's
 * `webhooks` option, each webhook is one JSON POST of `{type, payload}` to
 * every subscriber, sent once after the write that caused it was answered,
 * unsigned, never retried. Only loopback receivers are accepted: the mock
 * never sends traffic off the machine.
 */
import type { WebhookFaultName } from './webhook-faults.ts';

export const webhookTypes = [
  'FUEL_PICKUP',
  'FUEL_DELIVERY',
  'FUEL_DISPATCH_GROUP_CHECKED',
  'FUEL_SHIFT_CHECKED',
  'INVOICE',
  'BILLING_GROUP_DETAILS',
  'BOOKING',
  'FACT',
] as const;
export type WebhookType = (typeof webhookTypes)[number];

const DELIVERY_TIMEOUT_MS = 5_000;

/** A receiver URL the mock may post to: http(s) on a loopback address. */
export function loopbackUrl(raw: unknown): URL | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const u = new URL(raw);
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const loopback = host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
    return (u.protocol === 'http:' || u.protocol === 'https:') && loopback ? u : undefined;
  } catch {
    return undefined;
  }
}

export class WebhookHub {
  private readonly subscribers = new Set<string>();
  private readonly inFlight = new Set<AbortController>();

  constructor(readonly faults: ReadonlySet<WebhookFaultName>) {}

  subscribe(url: URL): void {
    this.subscribers.add(url.href);
  }

  unsubscribe(url: URL): boolean {
    return this.subscribers.delete(url.href);
  }

  list(): string[] {
    return [...this.subscribers].sort();
  }

  /** The body of one delivery; the envelope fault renames both fields. */
  envelope(type: WebhookType, payload: unknown): unknown {
    return this.faults.has('webhook-envelope-invalid') ? { eventType: type, data: payload } : { type, payload };
  }

  /** Posts to every subscriber, after the current request is answered; a receiver that fails is not retried (not shown). */
  emit(type: WebhookType, payload: unknown): void {
    if (this.subscribers.size === 0) return;
    const body = JSON.stringify(this.envelope(type, payload));
    setImmediate(() => {
      for (const url of this.subscribers) void this.post(url, body);
    });
  }

  private async post(url: string, body: string): Promise<void> {
    const abort = new AbortController();
    this.inFlight.add(abort);
    const timer = setTimeout(() => abort.abort(), DELIVERY_TIMEOUT_MS);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: abort.signal,
      });
      await res.arrayBuffer();
    } catch {
      // A receiver that is gone or slow loses the delivery: retry behaviour is not shown (spec 6).
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(abort);
    }
  }

  close(): void {
    this.subscribers.clear();
    for (const a of this.inFlight) a.abort();
  }
}
