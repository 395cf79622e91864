/**
 * An invoice in the world: what the list shows of it (its documented fields and `billingGroupIds`, spec 2.6), and the
 * two views of it that embed its billing groups: GET /invoices/{id} (`billingGroups`) and the snapshot
 * (`billingGroupDetails`, "in place of billingGroups"). Invoices are not written through the interface, so the model
 * is what the list showed, and every view shows the same invoice, both ways:
 * - the documented fields the list and a single view both carry (invoiceDate, invoiceDueDate, invoicedBy, status,
 *   created, updated) are the same;
 * - an embedded object whose `id` is a billing group the world knows is one of the groups the list names, and, once
 *   a view has shown its invoice's groups by their ids (in this test), it shows every group the list names for an
 *   invoice that the whole billing list shows (a group that is not there cannot be embedded: invoice-references owns
 *   that).
 *
 * The fields inside those embedded objects are not shown (spec 2.7), so an element is compared only by its `id`;
 * elements without one, their order, their other fields and extra elements of no known group are left open. A view
 * that never showed an invoice's groups by id is judged on foreign groups only. A GET by id that answers another
 * invoice is record-identity's; a shape that breaks spec 2.6 is response-schema's (the check is blocked by either).
 */
import { operationById } from '../../../specs/contract.ts';
import { RECORD_IDENTITY } from '../check-blocked.ts';
import type { CheckContext } from '../check-context.ts';
import type { Step } from './step.ts';
import { type Exchange, is2xx } from '../../../core/exchange.ts';
import { sameValue } from './billing-groups.ts';
import { VIEW_CONSISTENCY, type Divergence, type WorldRecord } from './world.ts';

type Json = Record<string, unknown>;

/** The string ids of the objects of `body[field]`. */
function idsIn(body: unknown, field: string): string[] {
  const items = typeof body === 'object' && body !== null ? (body as Json)[field] : undefined;
  if (!Array.isArray(items)) return [];
  return items
    .map((i) => (typeof i === 'object' && i !== null ? (i as Json).id : undefined))
    .filter((id): id is string => typeof id === 'string');
}

/** The view's array of groups holds no object at all (absent, or empty). */
function emptyField(body: unknown, field: string): boolean {
  const items = typeof body === 'object' && body !== null ? (body as Json)[field] : undefined;
  return !Array.isArray(items) || items.length === 0;
}

const VIEWS = [
  { operationId: 'getInvoice', path: '/invoices', field: 'billingGroups', schema: 'invoice' },
  {
    operationId: 'getInvoiceBillingGroupDetailsSnapshot',
    path: '/invoicesBillingGroupDetailsSnapshot',
    field: 'billingGroupDetails',
    schema: 'invoice-snapshot',
  },
] as const;

type View = (typeof VIEWS)[number];

/** The documented fields of spec 2.6 the list and both single views carry. */
const SHARED_FIELDS = ['invoiceDate', 'invoiceDueDate', 'invoicedBy', 'status', 'created', 'updated'] as const;

/** A date-time is compared as the instant it names (spec 2: ISO 8601 in UTC, in whichever notation). */
function sameField(field: string, a: unknown, b: unknown): boolean {
  if ((field === 'created' || field === 'updated') && typeof a === 'string' && typeof b === 'string') {
    const [ma, mb] = [Date.parse(a), Date.parse(b)];
    if (Number.isFinite(ma) && Number.isFinite(mb)) return ma === mb;
  }
  return sameValue(a, b);
}

/** What a test's invoices have taught it, shared by all of them. */
export class InvoiceBook {
  /** Every billing group id the world knows: listed, or named by an invoice (it grows as they are read). */
  readonly knownGroups = new Set<string>();
  /** The groups the whole billing list shows: these exist, so an invoice naming one can embed it. */
  readonly listedGroups = new Set<string>();
  /** The views (their field) that showed an invoice's billing groups by their ids. */
  private readonly byId = new Set<string>();

  namesGroupsById(view: View): boolean {
    return this.byId.has(view.field);
  }

  learn(view: View): void {
    this.byId.add(view.field);
  }
}

export class InvoiceRecord implements WorldRecord {
  readonly label: string;
  readonly billingGroupIds: readonly string[];
  /** Judged before its views were known to name groups by id: worth comparing again once they are. */
  private blind = false;

  /** `entry`: the invoice as the list showed it (its `id` and `billingGroupIds` among the rest). */
  constructor(
    readonly id: string,
    private readonly entry: Json,
    private readonly book: InvoiceBook,
  ) {
    this.label = `invoice ${id}`;
    const named = entry.billingGroupIds;
    this.billingGroupIds = Array.isArray(named) ? named.filter((g): g is string => typeof g === 'string') : [];
  }

  /** Whether a later comparison may judge more: a view left the groups out before any view showed them by id. */
  judgedBlind(): boolean {
    return this.blind;
  }

  async diverges(ctx: CheckContext, step: Step): Promise<Divergence | undefined> {
    this.blind = false;
    const reads = await Promise.all(
      VIEWS.map(async (view) => ({
        view,
        x: await ctx.api.op(operationById(view.operationId), { params: { invoiceId: this.id } }),
      })),
    );
    for (const { view, x } of reads) {
      const d = this.judge(ctx, view, x, step);
      if (d) return d;
    }
    return undefined;
  }

  private judge(ctx: CheckContext, view: View, x: Exchange, step: Step): Divergence | undefined {
    const answered = (x.response.body as Json | undefined)?.id;
    if (!is2xx(x) || answered !== this.id)
      return {
        owner: RECORD_IDENTITY,
        clause: 'spec 4.2',
        message: `GET ${view.path}/${this.id} answered ${x.response.status}${is2xx(x) ? ` with id ${JSON.stringify(answered)}` : ''}, where the list shows ${this.label}`,
        exchanges: [x],
      };
    // A broken shape blocks the check by response-schema, which owns it.
    ctx.check.expectSchema(x, view.schema, 'spec 2.6');
    const body = x.response.body as Json;
    const field = SHARED_FIELDS.find((f) => f in this.entry && f in body && !sameField(f, this.entry[f], body[f]));
    if (field !== undefined)
      return {
        owner: VIEW_CONSISTENCY,
        clause: 'spec 2.6',
        message: `GET ${view.path}/${this.id} (${step}) shows ${field} ${JSON.stringify(body[field])}, where GET /invoices shows ${JSON.stringify(this.entry[field])} for ${this.label}: one invoice, the same documented fields in every view`,
        pointer: `/${field}`,
        exchanges: [x],
      };
    const named = new Set(this.billingGroupIds);
    const shown = idsIn(body, view.field);
    const foreign = shown.filter((id) => this.book.knownGroups.has(id) && !named.has(id));
    if (foreign.length > 0)
      return {
        owner: VIEW_CONSISTENCY,
        clause: 'spec 2.6',
        message: `GET ${view.path}/${this.id} (${step}) carries ${view.field} of billing group(s) ${foreign.join(', ')}, which GET /invoices does not name for ${this.label} (it names ${this.billingGroupIds.join(', ') || 'none'}): one invoice, the same groups in every view`,
        pointer: `/${view.field}`,
        exchanges: [x],
      };
    if (shown.some((id) => named.has(id))) this.book.learn(view);
    const existing = this.billingGroupIds.filter((id) => this.book.listedGroups.has(id));
    const missing = existing.filter((id) => !shown.includes(id));
    if (missing.length === 0) return undefined;
    // No object at all where the invoice names groups the list shows: whatever key a server names them by, none is there.
    if (!this.book.namesGroupsById(view) && !emptyField(body, view.field)) {
      this.blind = true;
      return undefined;
    }
    return {
      owner: VIEW_CONSISTENCY,
      clause: 'spec 2.6',
      message: `GET ${view.path}/${this.id} (${step}) leaves billing group(s) ${missing.join(', ')} out of ${view.field}, which GET /invoices names for ${this.label} and GET /billingGroups lists; ${emptyField(body, view.field) ? `its ${view.field} holds no object at all` : "this view shows invoices' billing groups by their ids elsewhere in this test"}: one invoice, the same groups in every view`,
      pointer: `/${view.field}`,
      exchanges: [x],
    };
  }
}
