/**
 * Installs the fault switches that are on. Every fault of faults.ts (and webhook-faults.ts) has one bend, listed in
 * an area module of this folder; a Record over the closed list, so a fault without a bend does not compile. Bends are
 * registered in the order they are listed here, which is the order they apply in where two bend the same thing.
 */
import type { FastifyInstance } from 'fastify';
import type { MockContext } from '../context.ts';
import type { FaultName, Faults } from '../faults.ts';
import type { WebhookFaultName } from '../webhook-faults.ts';
import { authBends } from './auth.ts';
import { eventBends } from './events.ts';
import { billingStatusBends } from './billing-status.ts';
import { identityBends } from './identity.ts';
import { FaultLayer, type Bend } from './layer.ts';
import { listBends } from './lists.ts';
import { offerWriteBends } from './offer-writes.ts';
import { readBends } from './reads.ts';
import { recordBends } from './records.ts';
import { servedBends } from './served.ts';
import { shapeBends } from './shapes.ts';
import { webhookBends } from './webhooks.ts';

/** The area modules, in the order their bends are registered. */
export const faultAreas = {
  auth: authBends,
  served: servedBends,
  shapes: shapeBends,
  offerWrites: offerWriteBends,
  reads: readBends,
  identity: identityBends,
  billingStatus: billingStatusBends,
  events: eventBends,
  records: recordBends,
  // Last: a list that ends up empty answers null, whatever the bends above left in it.
  lists: listBends,
} as const;

export const faultBends: Record<FaultName, Bend> = {
  ...faultAreas.auth,
  ...faultAreas.served,
  ...faultAreas.shapes,
  ...faultAreas.offerWrites,
  ...faultAreas.reads,
  ...faultAreas.identity,
  ...faultAreas.billingStatus,
  ...faultAreas.events,
  ...faultAreas.records,
  ...faultAreas.lists,
};

export const webhookFaultBends: Record<WebhookFaultName, Bend> = webhookBends;

export interface FaultSwitches {
  faults: Faults;
  webhookFaults: ReadonlySet<WebhookFaultName>;
}

export interface FaultInstall extends FaultSwitches {
  context: MockContext;
  token: string;
  apiPrefix: string;
}

/** Bends the app and its context for every switch that is on; answers the prefix the interface is served under. */
export function installFaults(app: FastifyInstance, opts: FaultInstall): string {
  const layer = new FaultLayer(opts.context, opts.token, opts.apiPrefix);
  let any = false;
  for (const [name, bend] of Object.entries(faultBends) as [FaultName, Bend][]) {
    if (!opts.faults.has(name)) continue;
    bend(layer);
    any = true;
  }
  for (const [name, bend] of Object.entries(webhookFaultBends) as [WebhookFaultName, Bend][]) {
    if (!opts.webhookFaults.has(name)) continue;
    bend(layer);
    any = true;
  }
  // The conformant mock runs without the layer: not one hook of it.
  if (any) layer.install(app);
  return layer.prefix;
}
