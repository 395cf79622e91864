/**
 * Why tests did not judge, grouped so a person reads one line per cause: nine tests blocked by the same broken
 * offer shape are "9 tests blocked by response-schema (getOffer: priceStrategy outside the enum)", not nine lines
 * that differ only in the offer id each test wrote. The verdict's reasons and the certificate's banner use it;
 * `verdict.skipped` keeps every reason as the tests gave it.
 */
import type { NotJudged, SkipKind } from './outcomes.ts';

export interface SkipLike {
  kind: SkipKind | string;
  reason: string;
  tests: number;
}

export interface SkipGroup {
  kind: string;
  /** "response-schema (getOffer: priceStrategy outside the enum)", "writes are not allowed …". */
  cause: string;
  tests: number;
}

/** What ajv says, as a person would say it of one field. */
const AJV_PHRASES: [RegExp, string][] = [
  [/ ?must be equal to one of the allowed values.*$/, ' outside the enum'],
  [/ ?must have required property '([^']+)'.*$/, ' missing $1'],
  [/ ?must match format "([^"]+)".*$/, ' not a $1'],
  [/ ?must be (number|integer|string|boolean|object|array|null)\b.*$/, ' not a $1'],
  [/ ?must NOT have additional properties.*$/, ' has undocumented properties'],
];

/** The cause of one blocked reason without what differs per test: request paths, ids, array indexes, schema files. */
export function blockedCause(detail: string): string {
  let text = detail
    .replace(/^(GET|PUT|POST|PATCH|DELETE|HEAD|OPTIONS) \S+: /, '')
    .replace(/\s*\([\w-]+\.schema\.json\)\s*$/, '')
    .trim();
  // "/0/priceStrategy must …" → "priceStrategy must …": the field, not where in a list it stood.
  text = text.replace(/^(?:\/[^/\s:]+)*\/([^/\s:]+):? /, (_, field: string) => `${field} `);
  for (const [pattern, phrase] of AJV_PHRASES) if (pattern.test(text)) return text.replace(pattern, phrase);
  // A check's own words for the same fault ('priceStrategy "Dynamic" is outside the enum of spec 2.2, …').
  const enumWords = /^(\w+) .*\boutside the enum\b/.exec(text);
  return enumWords ? `${enumWords[1]} outside the enum` : text;
}

/** "blocked by <check> on <operationId>: <detail>" → "<check> (<operationId>: <cause>)". */
function causeOf(s: SkipLike): string {
  const blocked = /^blocked by (\S+) on (\S+): (.*)$/s.exec(s.reason);
  if (s.kind === 'blocked' && blocked) return `${blocked[1]} (${blocked[2]}: ${blockedCause(blocked[3]!)})`;
  return s.reason
    .replace(/^blocked by /, '')
    .replace(/^inconclusive: /, '')
    .replace(/^not shown: /, '');
}

export function groupSkips(skipped: readonly SkipLike[]): SkipGroup[] {
  const groups = new Map<string, SkipGroup>();
  for (const s of skipped) {
    const cause = causeOf(s);
    const key = `${s.kind}\u0000${cause}`;
    const g = groups.get(key) ?? { kind: s.kind, cause, tests: 0 };
    g.tests += s.tests;
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => b.tests - a.tests || a.cause.localeCompare(b.cause));
}

export function tests(n: number): string {
  return `${n} test${n === 1 ? '' : 's'}`;
}

const VERB: Record<string, string> = {
  blocked: 'blocked by',
  inconclusive: 'inconclusive:',
  'not-shown': 'not exercisable through the interface:',
  skipped: 'skipped:',
};

/** One line: "9 tests blocked by response-schema (getOffer: priceStrategy outside the enum)". */
export function skipGroupLine(g: SkipGroup): string {
  return `${tests(g.tests)} ${VERB[g.kind] ?? `${g.kind}:`} ${g.cause}`;
}

/** Operations one check could not judge for one reason: one line however many operations share it. */
export interface NotJudgedGroup {
  check: string;
  reason: string;
  operations: string[];
}

/** Not-judged operations grouped by check and reason, the largest group first; an operation counts once per group. */
export function groupNotJudged(
  outcomes: readonly { check?: string | undefined; notJudged?: readonly NotJudged[] | undefined }[],
): NotJudgedGroup[] {
  const groups = new Map<string, NotJudgedGroup>();
  for (const o of outcomes)
    for (const n of o.notJudged ?? []) {
      const check = o.check ?? '(no check)';
      const key = `${check}\u0000${n.reason}`;
      const g = groups.get(key) ?? { check, reason: n.reason, operations: [] };
      if (!g.operations.includes(n.operation)) g.operations.push(n.operation);
      groups.set(key, g);
    }
  return [...groups.values()].sort(
    (a, b) => b.operations.length - a.operations.length || a.reason.localeCompare(b.reason),
  );
}

/** The operations not judged, each check-and-operation pair once. */
export function notJudgedCount(groups: readonly NotJudgedGroup[]): number {
  return new Set(groups.flatMap((g) => g.operations.map((op) => `${g.check}\u0000${op}`))).size;
}

function operations(n: number): string {
  return `${n} operation${n === 1 ? '' : 's'}`;
}

/** One line: "2 operations not judged by auth-required: <reason> (putCarrierBookingAcceptance, …)". */
export function notJudgedLine(g: NotJudgedGroup): string {
  return `${operations(g.operations.length)} not judged by ${g.check}: ${g.reason} (${g.operations.join(', ')})`;
}

/** The count line: how many operations were not judged, never counted as passed or refused. */
export function notJudgedSummary(groups: readonly NotJudgedGroup[]): string {
  return `${operations(notJudgedCount(groups))} not judged (neither passed nor refused: no request the check could judge them on)`;
}
