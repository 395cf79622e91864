/**
 * Webhook deliveries recorded as a cassette (the recorder's format): each
 * delivery is one exchange whose request is the POST the service sent and
 * whose response is the receiver's 204, named by the webhook's operationId
 * in specs/openapi.yaml. The drift report reads such cassettes like any other
 * (`flis certify --cassette`, proposed schemas for the payloads not shown).
 */
import { encodeBody } from '../recorder/body.ts';
import type { Violation } from '../recorder/cassette-format.ts';
import { CassetteWriter } from '../recorder/cassette-writer.ts';
import { cassetteHeader } from '../recorder/header.ts';
import { formsOf, secretsFromEnv } from '../recorder/secrets.ts';
import { openapiDocument } from '../specs/contract.ts';
import type { Delivery } from './receiver.ts';

/** Webhook type → operationId of its entry under `webhooks:` in specs/openapi.yaml. */
export function webhookOperationIds(): Map<string, string> {
  const hooks = (openapiDocument().webhooks ?? {}) as Record<string, { post?: { operationId?: string } }>;
  return new Map(
    Object.entries(hooks).flatMap(([type, h]) =>
      h.post?.operationId ? [[type, h.post.operationId] as [string, string]] : [],
    ),
  );
}

export class WebhookCassette {
  private readonly writer: CassetteWriter;
  private readonly guard;
  private readonly ids = webhookOperationIds();

  constructor(file: string, env: NodeJS.ProcessEnv) {
    this.writer = new CassetteWriter(file, { mode: 'truncate', header: cassetteHeader(null, null) });
    // A token in a delivery (a service echoing one) stops the write instead of landing on disk.
    this.guard = formsOf(secretsFromEnv(env));
  }

  append(d: Delivery): void {
    const operationId = (d.type && this.ids.get(d.type)) ?? null;
    const violations: Violation[] = d.violations.map((v) => ({
      check: v.check,
      clause: v.clause,
      operationId,
      direction: 'request',
      pointer: v.pointer,
      message: v.message,
      ...(v.check === 'webhook-envelope' ? { schema: 'webhook-envelope' } : {}),
    }));
    this.writer.append(
      {
        startedAt: d.receivedAt,
        operationId,
        request: {
          method: d.method,
          path: d.path,
          query: {},
          headers: d.headers,
          body: encodeBody(Buffer.from(d.text, 'utf8'), d.headers['content-type']),
        },
        response: { status: 204, headers: {}, body: null, timing: { durationMs: 0, firstByteMs: 0 } },
        violations,
      },
      this.guard,
    );
  }

  close(): void {
    this.writer.close();
  }
}
