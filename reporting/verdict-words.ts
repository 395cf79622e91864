/**
 * The words of a verdict, said the same in the certificate's banner, the run's
 * summary line, its last line and the README (docs/verdicts.md#the-words-of-a-verdict):
 *
 * - a **verdict**: CERTIFIED, CERTIFIED WITH ADVISORIES, PARTIAL, NOT CERTIFIED (and, for a partner's client
 *   given no traffic, NOT JUDGED);
 * - its **scope**: `the whole contract` or `partial — …` with why (operations not exercised, suites chosen, tests
 *   skipped, one shard);
 * - **not judged**: an operation a check ran on but could not judge (never passed, never narrowing the scope);
 * - **skipped**: a test that did not run its check (blocked by another check, inconclusive, not shown by the spec,
 *   or plainly skipped: writes not allowed, a suite not chosen).
 */
import type { Certificate, PartyStatus } from './certificate-types.ts';

export const VERDICT_WORDS: Record<PartyStatus, string> = {
  certified: 'CERTIFIED',
  'certified-with-advisories': 'CERTIFIED WITH ADVISORIES',
  partial: 'PARTIAL',
  'not-certified': 'NOT CERTIFIED',
  'not-judged': 'NOT JUDGED',
};

export function verdictWord(status: PartyStatus): string {
  return VERDICT_WORDS[status];
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

/** "the whole contract", or "partial — 40% of the operations exercised, only the suites billing, 12 tests skipped". */
export function scopePhrase(c: Certificate): string {
  if (c.verdict.scope === 'full') return 'the whole contract';
  const narrowing = c.verdict.skipped.filter((s) => s.kind !== 'not-shown').reduce((n, s) => n + s.tests, 0);
  return [
    `partial — ${c.coverage.percent}% of the operations exercised`,
    ...(c.run.suites === 'all' ? [] : [`only the suites ${c.run.suites.join(', ')}`]),
    ...(narrowing ? [`${plural(narrowing, 'test')} skipped`] : []),
    ...(c.run.shard ? [`shard ${c.run.shard}: merge the shards for the verdict`] : []),
    ...(c.parties?.client.status === 'not-judged' ? ['the client not judged'] : []),
  ].join(', ');
}
