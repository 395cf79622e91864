/**
 * Forced billing-group statuses the suite writes carry the run id. Billing
 * groups cannot be created through the interface, so runs that share a
 * deployment (partners on one sandbox, CI shards) force statuses on the same
 * listed groups. The forced status is a free string (spec 3 rule 1, spec 4.2),
 * so each run forces values that name it: a run can tell its own writes from
 * another run's, and a group that shows another run's value is in use.
 */
const PREFIX = 'flis-forced/';

/** A status value that names this run, e.g. `flis-forced/<run id>/claim`. */
export function forcedTag(runId: string, label: string): string {
  return `${PREFIX}${runId}/${label}`;
}

/** A status some run of this suite forced. */
export function isForcedTag(status: unknown): status is string {
  return typeof status === 'string' && status.startsWith(PREFIX);
}

/** A status another run of this suite forced: that run is using the group now. */
export function isForeignTag(status: unknown, runId: string): status is string {
  return isForcedTag(status) && !status.startsWith(`${PREFIX}${runId}/`);
}
