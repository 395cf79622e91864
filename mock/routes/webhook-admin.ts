/**
 * Mock-only admin endpoint, outside the contract and outside /apis/v0 (no
 * conformance check can mistake it for an operation): how a test subscribes a
 * receiver to the mock's webhooks, since spec 6 does not show a subscription
 * method. Bearer-token protected like everything else the mock serves.
 *
 *   GET    /__flis/webhooks               → {subscribers: [url, …]}
 *   PUT    /__flis/webhooks  {url}        → subscribe a loopback receiver
 *   DELETE /__flis/webhooks  {url}        → unsubscribe it
 */
import type { FastifyInstance } from 'fastify';
import type { MockContext } from '../context.ts';
import { invalidBody } from '../errors.ts';
import { requireObjectBody } from '../validation.ts';
import { loopbackUrl } from '../webhook-hub.ts';

export const WEBHOOK_ADMIN_PATH = '/__flis/webhooks';

function receiverOf(body: unknown): URL {
  const url = loopbackUrl(requireObjectBody(body).url);
  if (!url)
    throw invalidBody(
      'url must be an http(s) URL on a loopback address (127.0.0.0/8, ::1, localhost): the mock never posts off the machine',
    );
  return url;
}

export function webhookAdminRoutes(ctx: MockContext) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get(WEBHOOK_ADMIN_PATH, async () => ({ subscribers: ctx.webhooks.list() }));
    app.put(WEBHOOK_ADMIN_PATH, async (request) => {
      ctx.webhooks.subscribe(receiverOf(request.body));
      return { subscribers: ctx.webhooks.list() };
    });
    app.delete(WEBHOOK_ADMIN_PATH, async (request) => {
      const removed = ctx.webhooks.unsubscribe(receiverOf(request.body));
      return { removed, subscribers: ctx.webhooks.list() };
    });
  };
}
