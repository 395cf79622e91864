/**
 * How a record of section 4.3 says it is cancelled. The spec shows no bodies there (spec 4.3), and spells it
 * "canceled" for booking events and "cancelled" for transport-order events (spec 3 rule 5), so a record says it by a
 * boolean field whose name says cancel, or a status or state naming a cancellation; a record with neither says nothing.
 */
type Json = Record<string, unknown>;

/** The fields by which the record says it is cancelled, e.g. `canceled: true`; none when it does not say so. */
export function cancelledBy(record: Json): string[] {
  return Object.entries(record)
    .filter(([key, value]) =>
      /cancel/i.test(key)
        ? value === true
        : /^(status|state)$/i.test(key) && typeof value === 'string' && /cancel/i.test(value),
    )
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
}
