/**
 * Undoing what an interrupted run wrote. A test's own cleanup (suites/lib/cleanup.ts) undoes its writes when
 * the test ends; a run stopped by a signal ends its tests early, so the runner looks for what the run left:
 * every write of the suites carries the run id (offer ids, forced statuses, section 4.3 record ids), so offers whose
 * id carries it and are not cancelled are cancelled, forced billing-group statuses that carry it are removed, and
 * section 4.3 records whose id carries it are deleted where a collection lists them (children before their parents),
 * the same requests the suites' cleanup sends (DELETE on the offer, spec 3 rule 4; DELETE of the status, spec 3 rule
 * 2; DELETE of the record). Some records outlive the test that wrote them (durable-state leaves them for its audit),
 * so an interrupted run may leave them between two tests.
 */
import { Agent } from 'undici';
import { type Operation, operationById } from '../specs/contract.ts';
import { statusOf } from '../suites/lib/cleanup.ts';
import { FlisClient } from '../suites/lib/client.ts';
import { DEFAULT_VISIBILITY_TIMEOUT_MS } from '../suites/lib/suite-env.ts';
import type { Target } from '../suites/lib/target.ts';
import { recordsOf } from '../suites/lib/listed-records.ts';
import { wholeListQuery } from '../suites/lib/whole-list.ts';
import { recordKey } from '../suites/lib/world/catalogue-record.ts';
import { type RecordGroup, recordGroups } from '../suites/lib/world/record-groups.ts';

export interface UndoResult {
  offersCancelled: string[];
  statusesRemoved: string[];
  /** The paths of the section 4.3 records deleted. */
  recordsDeleted: string[];
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

/** The id a listed record of `group` carries: its `id`, or the field named for its path's last parameter. */
function idOfListed(group: RecordGroup, r: Record<string, unknown>): string | undefined {
  const own = group.params.at(-1);
  const id = r.id ?? (own ? r[own] : undefined);
  return typeof id === 'string' ? id : undefined;
}

/**
 * The run's records of every group a collection lists, deepest groups first: a child group's collection is read under
 * each parent of the run that its parent group's collection lists.
 */
async function undoRecords(api: FlisClient, runId: string, out: UndoResult): Promise<void> {
  const groups = recordGroups().filter((g) => g.collection !== undefined && g.del !== undefined);
  const found = new Map<string, Record<string, string>[]>();
  const valuesOf = async (g: RecordGroup): Promise<Record<string, string>[]> => {
    const known = found.get(g.template);
    if (known) return known;
    const coll = g.collection as Operation;
    const parent = g.parent ? groups.find((p) => p.template === g.parent) : undefined;
    const parents = coll.pathParams.length === 0 ? [{}] : parent ? await valuesOf(parent) : [];
    const values: Record<string, string>[] = [];
    for (const p of parents) {
      const params = Object.fromEntries(coll.pathParams.map((name) => [name, p[name] ?? '']));
      const listed = await api.op(coll, { params });
      for (const r of recordsOf(listed.response.body)) {
        const id = idOfListed(g, r);
        if (id?.includes(runId)) values.push({ ...params, [g.params.at(-1) ?? 'id']: id });
      }
    }
    found.set(g.template, values);
    return values;
  };
  for (const g of [...groups].sort((a, b) => b.params.length - a.params.length)) {
    for (const values of await valuesOf(g)) {
      const path = recordKey(g.template, values);
      const x = await api.op(g.del as Operation, { params: values });
      if (is2xx(x.response.status) || x.response.status === 404) out.recordsDeleted.push(path);
      else out.leftBehind.push(`${path}: DELETE answered ${x.response.status}`);
    }
  }
}

/** Never throws: what it could not undo is in `leftBehind`. */
export async function undoRunWrites(
  target: Pick<Target, 'baseUrl' | 'token' | 'deployment' | 'runId'>,
): Promise<UndoResult> {
  const out: UndoResult = { offersCancelled: [], statusesRemoved: [], recordsDeleted: [], leftBehind: [] };
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
  for (const step of [undoOffers, undoStatuses, undoRecords]) {
    try {
      await step(api, target.runId, out);
    } catch (error) {
      out.leftBehind.push(`${step.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  await agent.close();
  return out;
}
