/**
 * How a record of section 4.3 says it was deleted, where a DELETE marks it instead of removing it. Bodies are not
 * shown (spec 4.3) and spec 1 says only that clients delete, so a server may remove the record (a 4xx after) or keep
 * it and say so in a field of its choosing: a boolean named for a cancellation, deletion, removal, archiving or
 * voiding that is true, `active`/`enabled` false, a timestamp named for one of those, or a status or state word naming
 * one. A record that says none of these, and reads as it did before the DELETE, says nothing has happened.
 */
import { cancelledBy } from './cancelled.ts';

type Json = Record<string, unknown>;

const GONE_WORD = /cancel|delet|remov|archiv|void|revok|withdraw/i;

/** The fields by which the record says it is deleted or cancelled; none when it does not. */
export function goneBy(record: Json): string[] {
  const said = Object.entries(record)
    .filter(([key, value]) => {
      if (/^(active|enabled|live)$/i.test(key)) return value === false;
      if (!GONE_WORD.test(key)) return false;
      return value === true || (typeof value === 'string' && value !== '' && /At$|Date$|Time$/i.test(key));
    })
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  const word = Object.entries(record)
    .filter(([key, value]) => /^(status|state)$/i.test(key) && typeof value === 'string' && GONE_WORD.test(value))
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return [...new Set([...cancelledBy(record), ...said, ...word])];
}
