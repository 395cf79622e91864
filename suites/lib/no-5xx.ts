/**
 * The no-5xx sweep: no request a check sends may be answered 5xx, whatever the
 * check is about (HTTP semantics: a server does not fail on a request it can
 * judge). checkTest runs it over every exchange of every test, after cleanup.
 */
import { secretsWithDerived } from '../../core/redact.ts';
import { matchOperation, operationById, type Operation } from '../../specs/contract.ts';
import type { ClauseId } from '../../specs/check-ids.ts';
import { Check, type CheckMeta } from './check.ts';
import { CheckFailure } from '../../core/check-failure.ts';
import type { Exchange } from '../../core/exchange.ts';
import { target } from '../../core/target.ts';

export const NO_5XX = { check: 'no-5xx' } as const satisfies CheckMeta;
/** The clause a 5xx breaks, whichever check meets it (Check.expectNo5xx). */
const HTTP_SEMANTICS = 'HTTP semantics' satisfies ClauseId;

function operationOf(x: Exchange): Operation | undefined {
  if (x.operationId) return operationById(x.operationId);
  const base = new URL(target().baseUrl).pathname.replace(/\/$/, '');
  return matchOperation(x.request.method, new URL(x.request.url).pathname.slice(base.length));
}

/** The first 5xx among the exchanges fails as no-5xx, naming the operation that answered it. */
export function expectNo5xxOnEvery(exchanges: readonly Exchange[]): void {
  const x = exchanges.find((e) => e.response.status >= 500);
  if (!x) return;
  const operation = operationOf(x);
  new Check({ ...NO_5XX, ...(operation ? { operation } : {}) }, secretsWithDerived([target().token])).expectNo5xx(
    x,
    `${x.request.method} ${new URL(x.request.url).pathname}`,
  );
}

/**
 * A failure that already judges a 5xx under HTTP semantics (no-5xx's own, a check's `expectNo5xx`,
 * bad-input-rejected's 5xx finding) says what provoked it in the check's words: the sweep keeps it rather than
 * replace it with the bare 5xx it found. Such a failure is always `contract`, as the 5xx is.
 */
export function reportsA5xx(failure: unknown): boolean {
  if (!(failure instanceof CheckFailure)) return false;
  return failure.record.check === NO_5XX.check || failure.record.clause === HTTP_SEMANTICS;
}
