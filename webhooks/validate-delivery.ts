/**
 * What spec 6 lets a receiver judge about one webhook delivery: it is an HTTP
 * POST carrying a JSON envelope with a payload and one of the 8 types
 * (schemas/webhook-envelope.schema.json), and a BOOKING payload is the full
 * Booking entity, so at least a JSON object. Nothing else is judged: headers,
 * signing, retries and the payload fields of the other types are not shown.
 */
import { validate } from '../schemas/registry.ts';

export interface DeliveryViolation {
  check: 'webhook-envelope' | 'webhook-payload';
  clause: string;
  pointer: string;
  message: string;
}

export interface DeliveryVerdict {
  /** The type named by a valid envelope. */
  type?: string;
  payload?: unknown;
  violations: DeliveryViolation[];
}

const ENVELOPE_CLAUSE = 'spec 6';

/** Payload rules by type: only BOOKING's is shown (the full Booking entity, whose fields spec 2.7 does not show). */
const payloadRules: Record<string, (payload: unknown) => string | undefined> = {
  BOOKING: (p) =>
    typeof p === 'object' && p !== null && !Array.isArray(p)
      ? undefined
      : 'a BOOKING payload is the full Booking entity: a JSON object',
};

export function validateDelivery(method: string, contentType: string | undefined, text: string): DeliveryVerdict {
  const violations: DeliveryViolation[] = [];
  if (method.toUpperCase() !== 'POST')
    violations.push({
      check: 'webhook-envelope',
      clause: ENVELOPE_CLAUSE,
      pointer: '',
      message: `a webhook is an HTTP POST; got ${method}`,
    });
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    violations.push({
      check: 'webhook-envelope',
      clause: ENVELOPE_CLAUSE,
      pointer: '',
      message: `the body is not JSON${contentType ? ` (content-type ${contentType})` : ''}`,
    });
    return { violations };
  }
  const envelope = validate('webhook-envelope', body);
  for (const v of envelope.violations)
    violations.push({
      check: 'webhook-envelope',
      clause: ENVELOPE_CLAUSE,
      pointer: v.pointer,
      message: `${v.pointer || '(root)'}: ${v.message} (webhook-envelope.schema.json ${v.schemaPath})`,
    });
  if (!envelope.valid) return { violations };
  const { type, payload } = body as { type: string; payload: unknown };
  const problem = payloadRules[type]?.(payload);
  if (problem)
    violations.push({ check: 'webhook-payload', clause: ENVELOPE_CLAUSE, pointer: '/payload', message: problem });
  return { type, payload, violations };
}
