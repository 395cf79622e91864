/**
 * The one way a check says it did not judge, `skip.<kind>(ctx, …)`. The reports tell the kinds apart by their
 * annotation and the prefix of their reason (reporting/outcomes.ts, reporting/skip-groups.ts), so each kind is said
 * one way:
 * - `skip.nothingToJudge`: this deployment gave the check nothing to judge (an empty list, a write it refused);
 *   reported as skipped, with the reason.
 * - `skip.notShown`: the spec shows no means to exercise it (annotation `not-shown`, "not shown: …").
 * - `skip.inconclusive`: another writer on a shared deployment disturbed it, or the deployment's rights (throttling
 *   past the wait cap, no answer in time) stopped it (annotation `inconclusive`, "inconclusive: …";
 *   docs/throttling.md). Never a failure.
 * - `skip.blockedBy`: something it depends on is broken in a way another check owns (one fault, one failure):
 *   annotation `blocked-by` = "<owner> on <operationId>: <reason>", "blocked by …" (suites/lib/check-blocked.ts).
 */
import type { TestInfo } from '@playwright/test';
import type { Exchange } from './exchange.ts';

/** What a skip needs of the check's context (a CheckContext, or anything that carries its testInfo). */
interface Skippable {
  testInfo: TestInfo;
}

function stop(testInfo: TestInfo, message: string, reason: string): never {
  testInfo.skip(true, message);
  throw new Error(`unreachable: the test was skipped (${reason})`);
}

/** What `blockedBy` needs of the check's context: its check (suites/lib/check.ts), whose ids type the owner. */
interface Blocker<Owner extends string> {
  blocked(owner: Owner, x: Exchange | undefined, reason: string): never;
}

/** Typed out so that TypeScript knows each call ends the test (a `never` call narrows only through a declared type). */
export interface Skip {
  nothingToJudge(ctx: Skippable, reason: string): never;
  notShown(ctx: Skippable, reason: string): never;
  inconclusive(ctx: Skippable, reason: string): never;
  blockedBy<Owner extends string>(
    ctx: { check: Blocker<Owner> },
    owner: NoInfer<Owner>,
    x: Exchange | undefined,
    reason: string,
  ): never;
}

export const skip: Skip = {
  /** Nothing on this deployment to judge: skipped, saying why. */
  nothingToJudge(ctx: Skippable, reason: string): never {
    return stop(ctx.testInfo, reason, reason);
  },

  /** The spec shows no means to exercise the check (e.g. no webhook subscription): no run could judge it. */
  notShown(ctx: Skippable, reason: string): never {
    ctx.testInfo.annotations.push({ type: 'not-shown', description: reason });
    return stop(ctx.testInfo, reason, reason);
  },

  /** Disturbed by another writer, or stopped by the deployment's rights: shown as inconclusive, never failed. */
  inconclusive(ctx: Skippable, reason: string): never {
    ctx.testInfo.annotations.push({ type: 'inconclusive', description: reason });
    return stop(ctx.testInfo, `inconclusive: ${reason}`, reason);
  },

  /**
   * `owner` (a check id) owns what is broken; `x` is the exchange that showed it (its operation names where), else
   * the check's own operation. Thrown as a CheckBlocked, which checkTest turns into the `blocked-by` skip.
   */
  blockedBy<Owner extends string>(
    ctx: { check: Blocker<Owner> },
    owner: NoInfer<Owner>,
    x: Exchange | undefined,
    reason: string,
  ): never {
    return ctx.check.blocked(owner, x, reason);
  },
};
