/**
 * Undoing what an interrupted run wrote. A test's own cleanup (suites/lib/cleanup.ts) undoes its writes when
 * the test ends; a run stopped by a signal ends its tests early, so the runner looks for what the run left:
 * every write of the suites carries the run id (offer ids, forced statuses), so offers whose id carries it and
 * are not cancelled are cancelled, and forced billing-group statuses that carry it are removed, the same
 * requests the suites' cleanup sends (DELETE on the offer, spec 3 rule 4; DELETE of the status, spec 3 rule 2).
 */
import { Agent } from 'undici';
import { operationById } from '../specs/contract.ts';
import { statusOf } from '../suites/lib/cleanup.ts';
import { FlisClient } from '../suites/lib/client.ts';
import { DEFAULT_VISIBILITY_TIMEOUT_MS } from '../suites/lib/suite-env.ts';
import type { Target } from '../suites/lib/target.ts';
import { wholeListQuery } from '../suites/lib/whole-list.ts';

export interface UndoResult {
  offersCancelled: string[];
  statusesRemoved: string[];
  /** What could not be undone, one line each. */
  leftBehind: string[];
}

interface Listed {
  id?: unknown;
  canceled?: unknown;
  status?: unknown;
}

function listOf(body: unknown): Listed[] {
  return Array.isArray(body) ? body.filter((x): x is Listed => typeof x === 'object' && x !== null) : [];
}

function is2xx(status: number): boolean {
  return status >= 200 && status < 300;
}

async function undoOffers(api: FlisClient, runId: string, out: UndoResult): Promise<void> {
  const listed = await api.op(operationById('listOffers'), { query: wholeListQuery('listOffers') });
  for (const offer of listOf(listed.response.body)) {
    if (typeof offer.id !== 'string' || !offer.id.includes(runId) || offer.canceled === true) continue;
    const x = await api.op(operationById('deleteOffer'), { params: { offerId: offer.id } });
    if (is2xx(x.response.status) || x.response.status === 404) out.offersCancelled.push(offer.id);
    else out.leftBehind.push(`offer ${offer.id}: DELETE answered ${x.response.status}`);
  }
}

async function undoStatuses(api: FlisClient, runId: string, out: UndoResult): Promise<void> {
  const listed = await api.op(operationById('listBillingGroups'), { query: wholeListQuery('listBillingGroups') });
  for (const group of listOf(listed.response.body)) {
    const status = statusOf(group);
    if (typeof group.id !== 'string' || !status?.includes(runId)) continue;
    const x = await api.op(operationById('removeBillingGroupStatus'), { params: { billingGroupId: group.id } });
    if (is2xx(x.response.status)) out.statusesRemoved.push(group.id);
    else out.leftBehind.push(`billing group ${group.id}: removing the forced status answered ${x.response.status}`);
  }
}

/** Never throws: what it could not undo is in `leftBehind`. */
export async function undoRunWrites(
  target: Pick<Target, 'baseUrl' | 'token' | 'deployment' | 'runId'>,
): Promise<UndoResult> {
  const out: UndoResult = { offersCancelled: [], statusesRemoved: [], leftBehind: [] };
  const agent = new Agent();
  const api = new FlisClient(agent, {
    ...target,
    allowWrites: true,
    writesSkippedReason: '',
    seed: 0,
    runs: 1,
    explore: 1,
    visibilityTimeoutMs: DEFAULT_VISIBILITY_TIMEOUT_MS,
  });
  for (const step of [undoOffers, undoStatuses]) {
    try {
      await step(api, target.runId, out);
    } catch (error) {
      out.leftBehind.push(`${step.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  await agent.close();
  return out;
}
