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
import { billingSequenceBends } from './billing-sequences.ts';
import { billingStatusBends } from './billing-status.ts';
import { combinedBends } from './combined.ts';
import { edgeBends } from './edges.ts';
import { identityBends } from './identity.ts';
import { FaultLayer, type Bend } from './layer.ts';
import { listBends } from './lists.ts';
import { offerEdgeBends } from './offer-edges.ts';
import { offerWriteBends } from './offer-writes.ts';
import { readAndTimeBends } from './reads-and-time.ts';
import { readBends } from './reads.ts';
import { recordBends } from './records.ts';
import { servedBends } from './served.ts';
import { shapeBends } from './shapes.ts';
import { viewBends } from './views-both-ways.ts';
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
  billingSequences: billingSequenceBends,
  views: viewBends,
  combined: combinedBends,
  edges: edgeBends,
  records: recordBends,
  readsAndTime: readAndTimeBends,
  offerEdges: offerEdgeBends,
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
  ...faultAreas.billingSequences,
  ...faultAreas.views,
  ...faultAreas.combined,
  ...faultAreas.edges,
  ...faultAreas.records,
  ...faultAreas.readsAndTime,
  ...faultAreas.offerEdges,
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
