/**
 * An invoice in the world: the billing groups the list names for it (`billingGroupIds`, spec 2.6), and the two views
 * of it that embed them: GET /invoices/{id} (`billingGroups`) and the snapshot (`billingGroupDetails`). Invoices are
 * not written through the interface, so the model is what the list showed, and every view must name the same groups.
 *
 * The fields inside those embedded objects are not shown (spec 2.7), so an element is compared only by an `id` that is
 * a billing group the world knows (listed, or named by another invoice): an element naming a group this invoice's
 * list entry does not name is another invoice's group. Elements without such an id, their order, how many there are
 * and what else they carry are left open. A GET by id that answers another invoice is record-identity's; a shape
 * that breaks spec 2.6 is response-schema's (the check is blocked by either).
 */
import { operationById } from '../../../specs/contract.ts';
import { RECORD_IDENTITY } from '../check-blocked.ts';
import type { CheckContext } from '../check-test.ts';
import type { Step } from './step.ts';
import { type Exchange, is2xx } from '../exchange.ts';
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

const VIEWS = [
  { operationId: 'getInvoice', path: '/invoices', field: 'billingGroups', schema: 'invoice' },
  {
    operationId: 'getInvoiceBillingGroupDetailsSnapshot',
    path: '/invoicesBillingGroupDetailsSnapshot',
    field: 'billingGroupDetails',
    schema: 'invoice-snapshot',
  },
] as const;

export class InvoiceRecord implements WorldRecord {
  readonly label: string;

  /** `knownGroups`: every billing group id the world knows, shared by all its invoices (it grows as they are read). */
  constructor(
    readonly id: string,
    readonly billingGroupIds: readonly string[],
    private readonly knownGroups: ReadonlySet<string>,
  ) {
    this.label = `invoice ${id}`;
  }

  async diverges(ctx: CheckContext, step: Step): Promise<Divergence | undefined> {
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

  private judge(ctx: CheckContext, view: (typeof VIEWS)[number], x: Exchange, step: Step): Divergence | undefined {
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
    const named = new Set(this.billingGroupIds);
    const foreign = idsIn(x.response.body, view.field).filter((id) => this.knownGroups.has(id) && !named.has(id));
    if (foreign.length === 0) return undefined;
    return {
      owner: VIEW_CONSISTENCY,
      clause: 'spec 2.6',
      message: `GET ${view.path}/${this.id} (${step}) carries ${view.field} of billing group(s) ${foreign.join(', ')}, which GET /invoices does not name for ${this.label} (it names ${this.billingGroupIds.join(', ') || 'none'}): one invoice, the same groups in every view`,
      pointer: `/${view.field}`,
      exchanges: [x],
    };
  }
}
