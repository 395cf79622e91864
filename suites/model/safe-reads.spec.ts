/**
 * safe-reads (HTTP semantics, spec 1): a GET changes nothing a later GET shows (RFC 9110 9.2.1: GET is safe; spec 1:
 * clients read the resources). Every GET the contract lists that reads a record the run can make or find is read many
 * times, and what it changed is told from what time changed by a twin or a control (suites/model/twin-trial.ts,
 * control-trial.ts):
 * - offers: GET /offers/{offerId} and GET /offers, every documented field of spec 2.2 (queried, settled, status and
 *   canceled among them), in both views;
 * - section 4.3 records of every record group the run can write and read (suites/lib/world/record-groups.ts): the
 *   record as its GET by id and its collection show it;
 * - the integration status of a write: GET /bookings/requestsStatus/batch/{batchId} and …/booking/{bookingId};
 * - billing groups (the list, by id, the details; spec 2.4, 2.5) and invoices (the list, by id, the snapshot; spec
 *   2.6), which the run cannot write: one record read, a control not.
 * A list read must leave what the GET by id shows as it was, and the other way round: every trial compares every
 * view. A write that does not show is its owner's (offer-upsert, record-upsert, batch-status): the trial is blocked.
 * What the server may do is left open: change records with time (spec 3: transitions are not shown), stamp answers
 * with values of their own, give records values of their own.
 */
import { operationById } from '../../specs/contract.ts';
import { type CheckContext, checkTest, is2xx, skip, test } from '../lib/index.ts';
import { isForcedTag } from '../lib/forced-tag.ts';
import { mapBoundedInOrder } from '../lib/parallel.ts';
import { type RecordGroup, recordGroups } from '../lib/world/record-groups.ts';
import { WHOLE_BILLING_WINDOW, WHOLE_INVOICE_SINCE } from '../lib/whole-list.ts';
import { controlTrial, describeControlFinding, type ListedView } from './control-trial.ts';
import {
  GROUP_BY_ID,
  GROUP_DETAILS,
  GROUP_LISTED,
  groupsOfCustomer,
  INVOICE_BY_ID,
  INVOICE_IN_LIST,
  INVOICE_SNAPSHOT,
  invoicesSince,
} from './listed-views.ts';
import { OFFER_BY_ID, offerTwins } from './offer-twins.ts';
import { RecordRefused, recordTwins, writeParents } from './record-twins.ts';
import { BATCH_STATUS, statusTwins } from './status-twins.ts';
import { describeFinding, trial, type TrialOutcome, type Twins, type Written } from './twin-trial.ts';

type Owner = Parameters<CheckContext['check']['blocked']>[0];

/**
 * Runs a trial through each view; fails on the first confirmed finding. A write the view never shows blocks the test
 * by the view's owner, or (a view the spec does not promise, `undefined`) leaves that view unjudged.
 */
async function twinTrials<R extends Written>(
  ctx: CheckContext,
  twins: Twins<R>,
  ownerOf: (view: string) => Owner | undefined,
): Promise<string[]> {
  const unconfirmed: string[] = [];
  for (const view of twins.views) {
    const outcome = await trial(ctx, twins, view);
    if ('notVisible' in outcome) {
      if (view.schema) ctx.check.expectSchema(outcome.notVisible, view.schema, 'spec 4.1');
      // A list that may be cut into pages need not show the record on the page read: nothing to judge there.
      const owner = view.mayLeaveOut?.(outcome.notVisible) ? undefined : ownerOf(view.name);
      const why = `${outcome.record.label} was written but ${view.name} does not show it as written: nothing to read`;
      if (owner) ctx.check.blocked(owner, outcome.notVisible, why);
      unconfirmed.push(why);
      continue;
    }
    failOn(ctx, twins.what, view.name, outcome);
    unconfirmed.push(...outcome.unconfirmed.map((u) => `${u} (reading ${view.name})`));
  }
  return unconfirmed;
}

function failOn(ctx: CheckContext, what: string, view: string, outcome: TrialOutcome): void {
  const f = outcome.findings[0];
  if (f) ctx.check.fail(describeFinding(what, view, f), { exchanges: f.exchanges }, 'HTTP semantics');
}

/** Differences between twins that reading the twin did not reproduce: time or the server's own values, noted. */
function note(ctx: CheckContext, unconfirmed: readonly string[]): void {
  if (unconfirmed.length > 0)
    ctx.testInfo.annotations.push({
      type: 'note',
      description: `differences between twins that reading the twin did not reproduce (time, or values of the server's own): ${[...new Set(unconfirmed)].slice(0, 12).join('; ')}`,
    });
}

test(
  ...checkTest(
    {
      check: 'safe-reads',
      operation: operationById('getOffer'),
      title: 'GET /offers/{offerId} and GET /offers change no field of spec 2.2 a later GET shows',
      writes: true,
    },
    // A write GET by id never shows is offer-upsert's; one a window around it never lists, offer-listing's.
    async (ctx) =>
      note(
        ctx,
        await twinTrials(ctx, offerTwins(ctx), (view) =>
          view === OFFER_BY_ID.name ? 'offer-upsert' : 'offer-listing',
        ),
      ),
  ),
);

test(
  ...checkTest(
    {
      check: 'safe-reads',
      operation: operationById('getBatchRequestsStatus'),
      title: 'GET of the batch and booking status of a write changes nothing a later GET shows',
      writes: true,
    },
    // A batch's status is spec 1's (batch-status); whether a booking named by an offer has one is not shown.
    async (ctx) =>
      note(
        ctx,
        await twinTrials(ctx, statusTwins(ctx), (view) => (view === BATCH_STATUS.name ? 'batch-status' : undefined)),
      ),
  ),
);

/** Groups the run can write a record of and read it back: carrier bookings are the deployment's (spec 4.3). */
function readableGroups(): RecordGroup[] {
  return recordGroups().filter(
    (g) => (g.get !== undefined || g.collection !== undefined) && !g.template.startsWith('/carrierBookings/'),
  );
}

test(
  ...checkTest(
    {
      check: 'safe-reads',
      title: 'GET of a section 4.3 record, by id or in its collection, changes nothing a later GET shows',
      writes: true,
    },
    async (ctx) => {
      const byTemplate = new Map(recordGroups().map((g) => [g.template, g]));
      const judged: string[] = [];
      const unconfirmed: string[] = [];
      // Each group's records are its own: the groups go side by side; a failure is that of the first group in order.
      await mapBoundedInOrder(readableGroups(), async (group) => {
        const parent = await writeParents(ctx, group, (t) => byTemplate.get(t));
        const twins = parent ? recordTwins(group, parent) : undefined;
        if (!twins) return;
        try {
          unconfirmed.push(...(await twinTrials(ctx, twins, () => 'record-upsert')));
          judged.push(group.template);
        } catch (error) {
          if (!(error instanceof RecordRefused)) throw error;
        }
      });
      if (judged.length === 0)
        skip.nothingToJudge(ctx, 'every PUT of a section 4.3 record was refused (request bodies are not shown)');
      note(ctx, unconfirmed);
    },
  ),
);

/** A status another run forced may change at any time: not compared (suites/lib/forced-tag.ts). */
const forced = (field: string, value: unknown): boolean => field === 'status' && isForcedTag(value);

interface Listed {
  id: string;
  customerId?: unknown;
  created?: unknown;
}

async function listed(ctx: CheckContext, view: ListedView): Promise<Listed[]> {
  const x = await view.read(ctx, '');
  if (!is2xx(x) || !Array.isArray(x.response.body)) return [];
  return x.response.body.filter(
    (e): e is Listed => typeof e === 'object' && e !== null && typeof (e as Listed).id === 'string',
  );
}

async function listedTrials(
  ctx: CheckContext,
  what: string,
  subject: string,
  control: string,
  trials: { view: ListedView; others: ListedView[] }[],
): Promise<void> {
  for (const { view, others } of trials) {
    const [f] = await controlTrial(ctx, view, others, subject, control, forced);
    if (f)
      ctx.check.fail(
        describeControlFinding(what, subject, control, view.name, f),
        { exchanges: f.exchanges },
        'HTTP semantics',
      );
  }
}

test(
  ...checkTest(
    {
      check: 'safe-reads',
      operation: operationById('getBillingGroupDetails'),
      title: 'GET of a billing group in the list, by id or its details changes no field a later GET shows',
    },
    async (ctx) => {
      const groups = await listed(ctx, GROUP_LISTED);
      // The first listed group: no check forces its status (suites/billing/groups.ts).
      const subject = groups[0];
      const control = groups.find((g) => g !== subject && g.customerId !== subject?.customerId) ?? groups[1];
      if (!subject || !control)
        skip.nothingToJudge(
          ctx,
          `GET /billingGroups?start=${WHOLE_BILLING_WINDOW.start}&end=${WHOLE_BILLING_WINDOW.end} lists fewer than two billing groups: no control to tell reads from time`,
        );
      const ofCustomer = typeof subject.customerId === 'string' && subject.customerId !== control.customerId;
      await listedTrials(ctx, 'billing group', subject.id, control.id, [
        { view: GROUP_BY_ID, others: [GROUP_LISTED, GROUP_DETAILS] },
        { view: GROUP_DETAILS, others: [GROUP_LISTED, GROUP_BY_ID] },
        // The list of the subject's customer lists the subject and not the control; the whole list would read both.
        ...(ofCustomer
          ? [{ view: groupsOfCustomer(subject.customerId as string), others: [GROUP_BY_ID, GROUP_DETAILS] }]
          : []),
      ]);
    },
  ),
);

const day = (v: unknown): string | undefined => (typeof v === 'string' ? v.slice(0, 10) : undefined);

test(
  ...checkTest(
    {
      check: 'safe-reads',
      operation: operationById('getInvoice'),
      title: 'GET of an invoice in the list, by id or its snapshot changes no field a later GET shows',
    },
    async (ctx) => {
      const invoices = (await listed(ctx, INVOICE_IN_LIST)).sort((a, b) =>
        String(a.created ?? '').localeCompare(String(b.created ?? '')),
      );
      const subject = invoices.at(-1);
      const control = invoices[0];
      if (!subject || !control || subject === control)
        skip.nothingToJudge(
          ctx,
          `GET /invoices?createdSince=${WHOLE_INVOICE_SINCE.createdSince} lists fewer than two invoices: no control to tell reads from time`,
        );
      const since = day(subject.created);
      const apart = since !== undefined && (day(control.created) ?? since) < since;
      await listedTrials(ctx, 'invoice', subject.id, control.id, [
        { view: INVOICE_BY_ID, others: [INVOICE_IN_LIST, INVOICE_SNAPSHOT] },
        { view: INVOICE_SNAPSHOT, others: [INVOICE_IN_LIST, INVOICE_BY_ID] },
        // Created since the subject's day: the list holds the subject, not the control created days before.
        ...(apart ? [{ view: invoicesSince(since), others: [INVOICE_BY_ID, INVOICE_SNAPSHOT] }] : []),
      ]);
    },
  ),
);
