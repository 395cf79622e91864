/**
 * Builds the Fastify instance of one mock deployment: hooks first (errors,
 * the fault layer, auth, body parsing, variant decoration), then the route
 * plugins under the version prefix of spec 9 rule 2.
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
import { installFaults, type FaultSwitches } from './faults/install.ts';

export const API_PREFIX = '/apis/v0';

export interface AppOptions {
  token: string;
  context: MockContext;
  /** The drift switch (drift.ts): undocumented fields added, a documented one removed. */
  drift?: boolean;
  /** The fault switches that are on (faults.ts, webhook-faults.ts); mock/faults/ applies them. */
  switches?: FaultSwitches;
}

export interface BuiltApp {
  app: FastifyInstance;
  /** The prefix the interface is served under: API_PREFIX, unless a fault moved it. */
  prefix: string;
}

export async function buildApp({ token, context, drift = false, switches }: AppOptions): Promise<BuiltApp> {
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
  // Before auth and before any route: a fault may accept a token auth would refuse, or bend a route.
  const prefix = switches ? installFaults(app, { context, token, apiPrefix: API_PREFIX, ...switches }) : API_PREFIX;
  installAuth(app, token);
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
    { prefix: API_PREFIX },
  );
  return { app, prefix };
}
