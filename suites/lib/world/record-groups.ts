/**
 * The records of section 4.3 as the contract addresses them: a record group is a path template whose last segment is
 * a parameter and that has a PUT (spec 1: "a PUT to a path that carries the resource id creates or updates it"), with
 * the GET and DELETE the contract lists on the same template, the collection that lists its records (the GET at the
 * template without its last segment), and its parent group (the longest proper prefix that is a group itself). Derived
 * from specs/openapi.yaml, never hand-listed, so a group the contract adds is in the model at once.
 *
 * Bodies are not shown (spec 4.3), so nothing here assumes a field: a record is known by its path.
 */
import { operations, type Operation } from '../../../specs/contract.ts';

export interface RecordGroup {
  /** The item template, e.g. `/orders/{orderId}/attachment/{attachmentId}`. */
  readonly template: string;
  readonly params: readonly string[];
  readonly put: Operation;
  readonly get?: Operation;
  readonly del?: Operation;
  /** The GET that lists the group's records under one parent (`/orders`, `/bookings/{bookingId}/events`). */
  readonly collection?: Operation;
  /** The group whose template is the longest proper prefix of this one (an order for its attachments). */
  readonly parent?: string;
  /**
   * Spec 3 rule 5: DELETE on a booking event marks it canceled, it is not removed. Every other DELETE of 4.3 removes
   * the record or marks it, the server's choice (spec 1 says only that clients delete).
   */
  readonly deleteMarks: boolean;
  /** Writes to the collection that create records of this group (POST /customers, POST /customers/bulk). */
  readonly creates: readonly Operation[];
  /**
   * Templates that may address the same records (spec 9 rule 3 names one the other's replacement): a write to one
   * leaves the model of the others free.
   */
  readonly sameRecordsAs: readonly string[];
}

/**
 * Spec 9 rule 3: "GET, PUT and DELETE /fuel/deliveryRequests/{deliveryRequestId} (use
 * /fuel/bulkTankDeliveryRequests/{deliveryRequestId} instead)". The deprecated path names delivery requests of no
 * kind, so a server may serve every kind of delivery request under it: it is taken as possibly the same records as
 * each kind (which the kinds are to one another is shown: three paths, three resources).
 */
const MAY_BE_THE_SAME: Readonly<Record<string, readonly string[]>> = {
  '/fuel/deliveryRequests/{deliveryRequestId}': [
    '/fuel/bulkTankDeliveryRequests/{deliveryRequestId}',
    '/fuel/bulkTanklessDeliveryRequests/{deliveryRequestId}',
    '/fuel/packagedDeliveryRequests/{deliveryRequestId}',
  ],
};

function sameRecordsAs(template: string): string[] {
  const listed = MAY_BE_THE_SAME[template] ?? [];
  const listing = Object.entries(MAY_BE_THE_SAME)
    .filter(([, others]) => others.includes(template))
    .map(([key]) => key);
  return [...listed, ...listing];
}

/** Spec 3 rule 5: "DELETE on a booking event marks the event as canceled". */
const DELETE_MARKS = new Set(['/bookings/{bookingId}/events/{eventId}']);

const isParam = (segment: string): boolean => segment.startsWith('{');

function segments(template: string): string[] {
  return template.split('/').filter(Boolean);
}

function find(method: Operation['method'], path: string): Operation | undefined {
  return operations().find((o) => o.method === method && o.path === path);
}

/** The template without its last segment: where the contract lists the group's records, if it does. */
function collectionPath(template: string): string {
  return `/${segments(template).slice(0, -1).join('/')}`;
}

function groupOf(put: Operation): Omit<RecordGroup, 'parent'> {
  const t = put.path;
  const collection = find('get', collectionPath(t));
  const creates = operations().filter(
    (o) => o.method === 'post' && (o.path === collectionPath(t) || o.path === `${collectionPath(t)}/bulk`),
  );
  const get = find('get', t);
  const del = find('delete', t);
  return {
    template: t,
    params: put.pathParams,
    put,
    ...(get ? { get } : {}),
    ...(del ? { del } : {}),
    ...(collection && collection.pathParams.length === put.pathParams.length - 1 ? { collection } : {}),
    deleteMarks: DELETE_MARKS.has(t),
    creates,
    sameRecordsAs: sameRecordsAs(t),
  };
}

/**
 * A PUT is a record write when its last segment is a parameter, and no other parameter of its path has the same name
 * as the record's own (`/customerBookings/carrier/{customerBookingId}` is an action on the customer booking, not a
 * record of its own: see `actionTarget`). Documented groups (offers, spec 4.1) have models of their own.
 */
function isRecordWrite(op: Operation): boolean {
  const last = segments(op.path).at(-1) ?? '';
  return op.method === 'put' && !op.documented && isParam(last) && actionTarget(op) === undefined;
}

let cached: readonly RecordGroup[] | undefined;

/** Every record group of section 4.3, parents before children. */
export function recordGroups(): readonly RecordGroup[] {
  if (cached) return cached;
  const groups = operations()
    .filter(isRecordWrite)
    .map(groupOf)
    .sort((a, b) => a.params.length - b.params.length || a.template.localeCompare(b.template));
  cached = groups.map((g) => {
    const parent = groups
      .filter((p) => p !== g && g.template.startsWith(`${p.template}/`))
      .sort((a, b) => b.template.length - a.template.length)[0];
    return parent ? { ...g, parent: parent.template } : g;
  });
  return cached;
}

export function recordGroup(template: string): RecordGroup {
  const g = recordGroups().find((r) => r.template === template);
  if (!g) throw new Error(`no record group '${template}' in the contract`);
  return g;
}

/**
 * The record a write of `op` acts on besides a record of its own, when its path names one: a PUT whose path goes on
 * past a record's template (`/carrierBookings/{bookingId}/acceptance`, a transport order's milestones), or whose last
 * parameter names a record of another template (`/customerBookings/carrier/{customerBookingId}` names the customer
 * booking). What such an action does to the record it names is not shown (spec 4.3), so the model leaves that record
 * free after it.
 */
export function actionTarget(op: Operation): string | undefined {
  if (op.method !== 'put' && op.method !== 'post') return undefined;
  const own = segments(op.path);
  const last = own.at(-1) ?? '';
  if (!isParam(last)) return own.some(isParam) ? templateThroughLastParam(own) : undefined;
  const namesAnother = operations().find(
    (o) =>
      o.method === 'get' &&
      o.path !== op.path &&
      segments(o.path).at(-1) === last &&
      segments(o.path).length < own.length &&
      o.pathParams.length === op.pathParams.length,
  );
  return namesAnother?.path;
}

function templateThroughLastParam(segs: string[]): string | undefined {
  for (let i = segs.length - 1; i >= 0; i--) if (isParam(segs[i] ?? '')) return `/${segs.slice(0, i + 1).join('/')}`;
  return undefined;
}
