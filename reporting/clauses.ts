/**
 * The clauses of the interface specification (shared/interface-spec.md), as
 * the certificate lists them: each with what it says in a few words and
 * whether there is anything on the wire to enforce. Checks cite clauses as
 * text ("spec 1, spec 2.3, spec 4.1", "spec 3 rules 1-2", "HTTP semantics;
 * spec 2.3"); citedClauses() splits such a citation into catalogue ids, the
 * inverse of specs/check-ids.ts `citation`, which writes a test's citation.
 */

export interface SpecClause {
  /** "spec 5 rule 2", the form the checks cite. */
  id: string;
  title: string;
  /**
   * rule: something a deployment or client does that a check can observe;
   * not-shown: the spec says the content is not shown, so nothing is enforced;
   * document: a property of the contract text itself, not observable on the wire.
   */
  kind: 'rule' | 'not-shown' | 'document';
  note?: string;
}

export const specClauses: readonly SpecClause[] = [
  {
    id: 'spec 1',
    title: 'What the service does: upserts by PUT, asynchronous offer writes with a batchId, billing groups, webhooks',
    kind: 'rule',
  },
  {
    id: 'spec 2',
    title: 'Identifiers are strings; timestamps are ISO 8601 date-times in UTC; dates are ISO 8601 dates',
    kind: 'rule',
  },
  { id: 'spec 2.1', title: 'Location object', kind: 'rule' },
  { id: 'spec 2.2', title: 'Offer (response shape)', kind: 'rule' },
  { id: 'spec 2.3', title: 'Offer write body', kind: 'rule' },
  { id: 'spec 2.4', title: 'Billing group', kind: 'rule' },
  { id: 'spec 2.5', title: 'Billing group details', kind: 'rule' },
  { id: 'spec 2.6', title: 'Invoice (list, single and snapshot forms)', kind: 'rule' },
  {
    id: 'spec 2.7',
    title: 'Other shapes: batch acknowledgement, bulk acknowledgement, status update item',
    kind: 'rule',
  },
  { id: 'spec 3', title: 'States: the values shown for offers and billing groups', kind: 'rule' },
  { id: 'spec 3 rule 1', title: 'PUT /billingGroups/{id}/status forces the status', kind: 'rule' },
  { id: 'spec 3 rule 2', title: 'DELETE /billingGroups/{id}/status removes a forced status', kind: 'rule' },
  {
    id: 'spec 3 rule 3',
    title: 'POST /billingGroups/bulkStatusUpdate forces, or with deleteStatus removes, statuses',
    kind: 'rule',
  },
  { id: 'spec 3 rule 4', title: 'Offers are cancelled through the cancel flag or DELETE', kind: 'rule' },
  { id: 'spec 3 rule 5', title: 'DELETE on a booking event or transport order marks events cancelled', kind: 'rule' },
  { id: 'spec 4', title: 'Every endpoint requires the bearer token; bodies are JSON', kind: 'rule' },
  { id: 'spec 4.1', title: 'Offers endpoints', kind: 'rule' },
  { id: 'spec 4.2', title: 'Billing groups and invoices endpoints', kind: 'rule' },
  { id: 'spec 4.3', title: 'Catalogue of other endpoints (method and path only)', kind: 'rule' },
  {
    id: 'spec 5 rule 1',
    title: "The security scheme is OAuth 2.0, named 'service_auth_application'",
    kind: 'document',
    note: 'stated in specs/openapi.yaml; a scheme name is not observable on the wire',
  },
  { id: 'spec 5 rule 2', title: 'Authorization: Bearer <token> on every request', kind: 'rule' },
  { id: 'spec 5 rule 3', title: 'Write requests with a body send Content-Type: application/json', kind: 'rule' },
  {
    id: 'spec 6',
    title: 'Webhooks: an HTTP POST carrying a payload and one of 8 types; BOOKING carries the full Booking entity',
    kind: 'rule',
  },
  { id: 'spec 6 rule 1', title: 'BOOKING fires when a booking is allocated to a carrier', kind: 'rule' },
  { id: 'spec 6 rule 2', title: 'BOOKING fires on an update while the carrier is allocated', kind: 'rule' },
  { id: 'spec 6 rule 3', title: 'FACT fires when a booking event is created or updated', kind: 'rule' },
  {
    id: 'spec 7',
    title: 'Errors: status codes, body shape and codes',
    kind: 'not-shown',
    note: 'not shown: any error answer is accepted',
  },
  {
    id: 'spec 8',
    title: 'Limits: rate, body size, bulk size, page size',
    kind: 'not-shown',
    note: 'not shown: nothing to enforce',
  },
  {
    id: 'spec 9 rule 1',
    title: 'The interface version is 1.0.0',
    kind: 'document',
    note: 'the version of specs/openapi.yaml; not observable on the wire',
  },
  {
    id: 'spec 9 rule 2',
    title: 'Every deployment path starts with /apis/v0',
    kind: 'rule',
    note: 'every check addresses the deployment under its /apis/v0 base URL',
  },
  { id: 'spec 9 rule 3', title: 'The 8 deprecated operations are still listed (served)', kind: 'rule' },
];

/** Clauses that are not spec clauses but that checks cite (a server answering 5xx to a request it can judge). */
export const BEYOND_SPEC = 'HTTP semantics';

/**
 * Splits a citation into clause ids: "spec 1, spec 2.3" → ["spec 1", "spec 2.3"];
 * "spec 3 rules 1-2" → ["spec 3 rule 1", "spec 3 rule 2"]; "HTTP semantics; spec 2.3"
 * → ["HTTP semantics", "spec 2.3"].
 */
export function citedClauses(citation: string): string[] {
  const out: string[] = [];
  for (const raw of citation
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter(Boolean)) {
    const range = raw.match(/^(spec [\d.]+) rules (\d+)\s*[-–]\s*(\d+)$/);
    if (range) {
      for (let n = Number(range[2]); n <= Number(range[3]); n++) out.push(`${range[1]} rule ${n}`);
      continue;
    }
    out.push(raw.replace(/\s+/g, ' '));
  }
  return [...new Set(out)];
}

/** A documented rule: a citation of the spec itself. A failure on one blocks certification. */
export function isSpecClause(id: string): boolean {
  return /^spec \d/.test(id);
}

/** Catalogue order for sorting citations that are not in the catalogue after those that are. */
export function clauseOrder(id: string): number {
  const i = specClauses.findIndex((c) => c.id === id);
  return i >= 0 ? i : specClauses.length;
}
