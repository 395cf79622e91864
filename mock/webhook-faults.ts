/**
 * Webhook fault switches (spec 6): each breaks the delivery contract in one
 * way that one check of the webhooks suite must catch. Kept apart from
 * faults.ts because they break deliveries, not responses; the list is closed
 * for the same reason: a misspelt fault must never pass as a conformant mock.
 */
export const webhookFaultNames = [
  'webhook-envelope-invalid',
  'webhook-booking-partial',
  'webhook-booking-update-missing',
  'webhook-fact-missing',
] as const;

export type WebhookFaultName = (typeof webhookFaultNames)[number];

export const webhookFaultDescriptions: Record<WebhookFaultName, string> = {
  'webhook-envelope-invalid':
    'Every webhook is posted as {eventType, data} instead of an envelope with type and payload (spec 6).',
  'webhook-booking-partial':
    'The BOOKING payload carries only the booking id and carrier, not the full Booking entity (spec 6).',
  'webhook-booking-update-missing':
    'No BOOKING fires on an update to a booking that was already allocated to a carrier (spec 6 rule 2).',
  'webhook-fact-missing':
    'No FACT fires when a booking event is created or updated through the interface (spec 6 rule 3).',
};

export function parseWebhookFaults(names: readonly string[] = []): Set<WebhookFaultName> {
  const unknown = names.filter((n) => !(webhookFaultNames as readonly string[]).includes(n));
  if (unknown.length)
    throw new Error(
      `unknown webhook fault ${unknown.map((n) => `'${n}'`).join(', ')}; allowed: ${webhookFaultNames.join(', ')}`,
    );
  return new Set(names as WebhookFaultName[]);
}
