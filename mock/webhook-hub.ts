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

/** The trigger rule of spec 6 that fired: a booking allocated (rule 1), updated while allocated (rule 2), a fact (rule 3). */
export type WebhookTrigger = 'booking-allocated' | 'booking-updated' | 'fact';

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

  subscribe(url: URL): void {
    this.subscribers.add(url.href);
  }

  unsubscribe(url: URL): boolean {
    return this.subscribers.delete(url.href);
  }

  list(): string[] {
    return [...this.subscribers].sort();
  }

  /** The body of one delivery. */
  envelope(type: WebhookType, payload: unknown): unknown {
    return { type, payload };
  }

  /**
   * Posts to every subscriber, after the current request is answered; a receiver that fails is not retried (not
   * shown). `trigger` names the rule that fired; the delivery does not carry it.
   */
  emit(type: WebhookType, payload: unknown, _trigger: WebhookTrigger): void {
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
