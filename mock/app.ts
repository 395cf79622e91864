/**
 * Builds the Fastify instance of one mock deployment: hooks first (auth, body
 * parsing, errors, variant decoration), then the route plugins under the
 * version prefix of spec 9 rule 2.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { installAuth } from './auth.ts';
import { installThrottle } from './throttle.ts';
import type { MockContext } from './context.ts';
import { frameworkErrorAnswer, installErrorHandling } from './errors.ts';
import { installDrift } from './drift.ts';
import { installExtraFields, installRetrievalStamp } from './extra-fields.ts';
import { installJsonBody } from './json-body.ts';
import { billingGroupRoutes } from './routes/billing-groups.ts';
import { catalogueRoutesPlugin } from './routes/catalogue.ts';
import { invoiceRoutes } from './routes/invoices.ts';
import { offerRoutes } from './routes/offers.ts';
import { requestsStatusRoutes } from './routes/requests-status.ts';
import { webhookAdminRoutes } from './routes/webhook-admin.ts';
import { installWebhookTriggers } from './webhook-triggers.ts';

import type { Faults } from './faults.ts';

export const API_PREFIX = '/apis/v0';

/** The prefix the mock serves under: spec 9 rule 2's, or with the api-prefix-wrong fault another one. */
export function servedPrefix(faults: Faults): string {
  return faults.has('api-prefix-wrong') ? '/api/v0' : API_PREFIX;
}

export interface AppOptions {
  token: string;
  context: MockContext;
  /** The drift switch (drift.ts): undocumented fields added, a documented one removed. */
  drift?: boolean;
}

export async function buildApp({ token, context, drift = false }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // Request logs would carry headers; the mock logs nothing so a token never lands in a log.
    logger: false,
    // Suites tag ids with a run id; the router's default of 100 characters would turn long ids into 404s.
    routerOptions: { maxParamLength: 2000, ignoreTrailingSlash: true },
    // Keep-alive sockets of a test client must not hold close() open.
    forceCloseConnections: true,
    frameworkErrors: frameworkErrorAnswer,
  });
  installErrorHandling(app);
  if (context.variant.throttle) installThrottle(app, context.variant.throttle);
  installAuth(app, token, context.faults);
  installJsonBody(app, context.variant.lenientInput);
  if (context.variant.extraFields) installExtraFields(app);
  if (context.variant.stampsRetrieval) installRetrievalStamp(app);
  if (drift) installDrift(app);
  installWebhookTriggers(app, context);
  // Mock-only, outside /apis/v0 and the contract: how a test subscribes a webhook receiver.
  await app.register(webhookAdminRoutes(context));
  await app.register(
    async (api) => {
      await api.register(offerRoutes(context));
      await api.register(billingGroupRoutes(context));
      await api.register(invoiceRoutes(context));
      await api.register(requestsStatusRoutes(context));
      await api.register(catalogueRoutesPlugin(context));
    },
    { prefix: servedPrefix(context.faults) },
  );
  return app;
}
