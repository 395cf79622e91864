/**
 * checkTest plus what every contract test shares: undo steps that run whether
 * the test passed or not (the suite restores what it changes), and the no-5xx
 * sweep: no request the suite sends may be answered 5xx, whatever the test was
 * about (HTTP semantics).
 */
import { matchOperation, operationById, type Operation } from '../../specs/contract.ts';
import { checkTest, type CheckContext, type CheckTestArgs, type CheckTestMeta } from '../lib/check-test.ts';

export { test } from '../lib/check-test.ts';
import { Check } from '../lib/check.ts';
import { CheckFailure } from '../lib/check-failure.ts';
import type { Exchange } from '../lib/exchange.ts';
import type { PollResult, Verdict } from '../lib/poll.ts';
import { pollVisible } from '../lib/property.ts';
import { target } from '../lib/target.ts';

type Undo = () => Promise<unknown>;

export class Cleanup {
  private readonly steps: { what: string; undo: Undo }[] = [];
  add(what: string, undo: Undo): void {
    this.steps.push({ what, undo });
  }
  /** Newest first, like a stack; a failed undo is reported, not thrown, so the others still run. */
  async run(): Promise<string[]> {
    const failed: string[] = [];
    for (const step of this.steps.reverse()) {
      try {
        await step.undo();
      } catch (error) {
        failed.push(`${step.what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return failed;
  }
}

export interface ContractContext extends CheckContext {
  cleanup: Cleanup;
  runId: string;
}

export const NO_5XX = { check: 'no-5xx', clause: 'HTTP semantics' } as const;

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
  new Check({ ...NO_5XX, ...(operation ? { operation } : {}) }, [target().token]).expectNo5xx(
    x,
    `${x.request.method} ${new URL(x.request.url).pathname}`,
  );
}

/**
 * A contract test, for `test(...contractTest(meta, body))`. A 5xx anywhere in the test is reported in preference to the
 * body's own failure: a server error usually is the cause of whatever else broke.
 */
export function contractTest(meta: CheckTestMeta, body: (ctx: ContractContext) => Promise<void>): CheckTestArgs {
  return checkTest(meta, async (ctx) => {
    const cleanup = new Cleanup();
    let failure: unknown;
    try {
      await body({ ...ctx, cleanup, runId: target().runId });
    } catch (error) {
      failure = error;
    }
    for (const problem of await cleanup.run())
      ctx.testInfo.annotations.push({ type: 'cleanup-failed', description: problem });
    // A no-5xx failure of the body itself already says what provoked the 5xx; keep it.
    if (!(failure instanceof CheckFailure && failure.record.check === NO_5XX.check))
      expectNo5xxOnEvery(ctx.api.exchanges);
    if (failure !== undefined) throw failure;
  });
}

/**
 * Poll with the visibility deadline (FLIS_VISIBILITY_TIMEOUT_MS, cut while a property shrinks): writes are
 * asynchronous (spec 1). The judge may answer 'impossible' to stop at once (suites/lib/poll.ts).
 */
export function untilVisible<T>(fn: () => Promise<T>, judge: (v: T) => boolean | Verdict): Promise<PollResult<T>> {
  return pollVisible(fn, judge);
}

/** Skip the running test (nothing to judge on this deployment), saying why. */
export function skipTest(ctx: ContractContext, reason: string): never {
  ctx.testInfo.skip(true, reason);
  throw new Error(`unreachable: the test was skipped (${reason})`);
}

export function is2xx(x: Exchange): boolean {
  return x.response.status >= 200 && x.response.status <= 299;
}
