/**
 * Webhook deliveries recorded as a cassette (the recorder's format): each
 * delivery is one exchange whose request is the POST the service sent and
 * whose response is the receiver's 204, named by the webhook's operationId
 * in specs/openapi.yaml. The drift report reads such cassettes like any other
 * (`flis certify --cassette`, proposed schemas for the payloads not shown).
 */
import { decodeBody, encodeBody } from '../recorder/body.ts';
import type { CassetteHeader, LocatedExchange, Violation } from '../recorder/cassette-format.ts';
import { CassetteWriter } from '../recorder/cassette-writer.ts';
import { CassetteSecretError } from '../recorder/errors.ts';
import { pathEscape } from '../recorder/path-escape.ts';
import { cassetteHeader } from '../recorder/header.ts';
import { Redactor } from '../recorder/redact.ts';
import { secretsFromEnv } from '../recorder/secrets.ts';
import { openapiDocument } from '../specs/contract.ts';
import type { Delivery } from './receiver.ts';
import { type DeliveryViolation, validateDelivery } from './validate-delivery.ts';

/** Webhook type → operationId of its entry under `webhooks:` in specs/openapi.yaml. */
export function webhookOperationIds(): Map<string, string> {
  const hooks = (openapiDocument().webhooks ?? {}) as Record<string, { post?: { operationId?: string } }>;
  return new Map(
    Object.entries(hooks).flatMap(([type, h]) =>
      h.post?.operationId ? [[type, h.post.operationId] as [string, string]] : [],
    ),
  );
}

/** The header label that marks a cassette of webhook deliveries, so tools judge it as one (not as API traffic). */
export const WEBHOOK_CASSETTE_LABELS = { recordedBy: 'flis webhooks listen' } as const;

export function isWebhookCassette(h: CassetteHeader): boolean {
  return h.labels?.recordedBy === WEBHOOK_CASSETTE_LABELS.recordedBy;
}

/** A delivery's violations as cassette violations, under the webhook's operationId. */
function deliveryViolations(found: DeliveryViolation[], operationId: string | null): Violation[] {
  return found.map((v) => ({
    check: v.check,
    clause: v.clause,
    operationId,
    direction: 'request',
    pointer: v.pointer,
    message: v.message,
    ...(v.check === 'webhook-envelope' ? { schema: 'webhook-envelope' } : {}),
  }));
}

/**
 * How `flis cassette lint` judges a recorded delivery: as the receiver judged
 * it live (validate-delivery.ts, spec 6), never by the API's rules (it is not
 * an operation, and a service's delivery carries no bearer token). An
 * exchange is a delivery when its cassette's header says so, or (cassettes
 * from before that label) when it carries a webhook's operationId, as
 * `flis certify` reads it (reporting/cassettes.ts). Undefined: API traffic.
 */
export function judgeDelivery(h: CassetteHeader, e: LocatedExchange): Violation[] | undefined {
  if (!isWebhookCassette(h) && !e.operationId?.startsWith('webhook')) return undefined;
  const ct = e.request.headers['content-type'];
  const text = decodeBody(e.request.body).toString('utf8');
  const verdict = validateDelivery(e.request.method, Array.isArray(ct) ? ct[0] : ct, text);
  return deliveryViolations(verdict.violations, e.operationId);
}

/** What became of one delivery: written (with what was redacted from it), or refused with the reason. */
export type DeliveryRecorded = { written: true; redacted: boolean } | { written: false; reason: string };

export class WebhookCassette {
  private readonly writer: CassetteWriter;
  private readonly redactor: Redactor;
  private readonly ids = webhookOperationIds();

  constructor(file: string, env: NodeJS.ProcessEnv) {
    this.writer = new CassetteWriter(file, {
      mode: 'truncate',
      header: cassetteHeader(null, null, { ...WEBHOOK_CASSETTE_LABELS }),
    });
    this.redactor = new Redactor(secretsFromEnv(env));
  }

  /**
   * A token in a delivery (a service echoing one) is redacted in every form the recorder knows, like a token in
   * recorded traffic. Should one still show, the writer's guard refuses the delivery: it is not written, and the
   * reason is returned rather than thrown, so the receiver keeps serving.
   */
  append(d: Delivery): DeliveryRecorded {
    const operationId = (d.type && this.ids.get(d.type)) ?? null;
    const violations = deliveryViolations(d.violations, operationId);
    const r = this.redactor;
    // A cassette holds no path a reader would refuse (recorder/path-escape.ts): such a delivery is not written.
    const way = pathEscape(d.path);
    if (way) return { written: false, reason: `its path could leave the base path (it has ${way})` };
    const path = r.text(d.path);
    const headers = Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k, r.text(v)]));
    const body = r.body(encodeBody(Buffer.from(d.text, 'utf8'), d.headers['content-type']));
    const redacted =
      path !== d.path ||
      JSON.stringify(headers) !== JSON.stringify(d.headers) ||
      (r.forms.length > 0 && r.forms.find(d.text) !== undefined);
    try {
      this.writer.append(
        {
          startedAt: d.receivedAt,
          operationId,
          request: { method: d.method, path, query: {}, headers, body },
          response: { status: 204, headers: {}, body: null, timing: { durationMs: 0, firstByteMs: 0 } },
          violations,
        },
        r.forms,
      );
    } catch (error) {
      if (!(error instanceof CassetteSecretError)) throw error;
      return { written: false, reason: error.message };
    }
    return { written: true, redacted };
  }

  close(): void {
    this.writer.close();
  }
}
