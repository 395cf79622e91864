/**
 * The one way to write a check: `test(...checkTest(meta, body))`. It labels the
 * test with its check, clause, severity and operation (annotations, read by the
 * runner and the reports; clause and severity from the check's catalogue row),
 * skips write checks when writes are not allowed, gives the body a Cleanup that
 * undoes its writes whether it passed or not, sweeps every exchange for a 5xx
 * (no-5xx), turns a CheckBlocked into a skip annotated `blocked-by`,
 * attaches a CheckFailure record (docs/writing-a-check.md), and lets every
 * answer its client receives restart the check timeout (check-timeout.ts).
 *
 * Each spec calls `test(...checkTest(meta, body))` itself: Playwright records a
 * test's location as the line that called test(), so the report points at the
 * spec file and line of the check, not at this helper.
 */
import * as playwrightTest from '@playwright/test';
import type { TestDetails, TestInfo } from '@playwright/test';
import { Agent, type Dispatcher } from 'undici';
import type { Operation } from '../../specs/contract.ts';
import { CheckBlocked } from './check-blocked.ts';
import type { CheckContext } from './check-context.ts';
import type { CheckId } from './catalogue.ts';
import { Check, resolveMeta, type CheckMeta, type ResolvedMeta } from './check.ts';
import { CheckFailure, formatFailure, withoutFrames } from '../../core/check-failure.ts';
import { CheckTimeout } from './check-timeout.ts';
import { Cleanup } from './cleanup.ts';
import { FlisClient } from '../../core/client.ts';
import { expectNo5xxOnEvery, reportsA5xx } from './no-5xx.ts';
import { Observer, operationIdOf } from '../../core/observer.ts';
import { redactText, secretsWithDerived } from '../../core/redact.ts';
import { target } from '../../core/target.ts';

/**
 * The checks send with undici and open no browser, so they start from Playwright's root test type, without the
 * browser fixtures (`_setupArtifacts` and the context options it needs) that `test` sets up and tears down around
 * every test, each a step with a source-mapped stack capture: 12% of a run's CPU. `_baseTest` is in Playwright's
 * type declarations but not its documentation; should a release drop it, the full `test` serves, only slower.
 */
const base: playwrightTest.TestType<object, object> = playwrightTest._baseTest ?? playwrightTest.test;

/**
 * One connection pool per worker, not per test, kept alive between checks. Tests share no cookies or auth through
 * it: auth is chosen per call by FlisClient.
 */
export const test = base.extend<{ checkTimeout: CheckTimeout }, { workerDispatcher: Dispatcher; observer: Observer }>({
  // --check-timeout counts time without an answer (suites/lib/check-timeout.ts). A fixture, not the body: when the
  // timeout stops the body, only the teardown still runs, and it says which limit stopped the check.
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first parameter's pattern.
  checkTimeout: async ({}, use, testInfo) => {
    const clock = new CheckTimeout(testInfo, testInfo.project.timeout);
    await use(clock);
    clock.close();
    if (testInfo.status === 'timedOut')
      testInfo.annotations.push({ type: 'inconclusive', description: clock.stopReason() });
  },
  workerDispatcher: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first parameter's pattern.
    async ({}, use) => {
      const agent = new Agent({ keepAliveTimeout: 30_000 });
      await use(agent);
      await agent.close();
    },
    { scope: 'worker' },
  ],
  // The worker's traffic summary for the drift report, written once when the worker ends.
  observer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first parameter's pattern.
    async ({}, use) => {
      const observer = new Observer(target());
      await use(observer);
      observer.flush(process.env.FLIS_OBSERVATIONS_DIR);
    },
    { scope: 'worker' },
  ],
});

export interface CheckTestMeta<C extends CheckId = CheckId> extends CheckMeta<C> {
  /** The test title after the check id, e.g. "GET /offers". Defaults to the operation. */
  title?: string;
  /** True when the test writes to the target: skipped unless writes are allowed. */
  writes?: boolean;
}

export function checkTitle(meta: ResolvedMeta & Pick<CheckTestMeta, 'title'>): string {
  const subject =
    meta.title ??
    (meta.operation
      ? `${meta.operation.operationId} (${meta.operation.method.toUpperCase()} ${meta.operation.path})`
      : '');
  return `${meta.check} · ${subject} · ${meta.clause}`;
}

export function annotationsOf(meta: ResolvedMeta): { type: string; description: string }[] {
  const out = [
    { type: 'check', description: meta.check },
    { type: 'clause', description: meta.clause },
    { type: 'severity', description: meta.severity },
  ];
  const op: Operation | undefined = meta.operation;
  if (op) out.push({ type: 'operation', description: op.operationId }, { type: 'resource', description: op.tag });
  return [...out, ...allureLabels(meta)];
}

/**
 * Allure labels (allure-playwright turns `@allure.label.NAME` annotations into
 * labels): the report groups by resource group (epic), operation (feature) and
 * check (story), and can filter on the clause.
 */
function allureLabels(meta: ResolvedMeta): { type: string; description: string }[] {
  const op = meta.operation;
  return [
    { type: '@allure.label.epic', description: op?.tag ?? 'Whole contract' },
    {
      type: '@allure.label.feature',
      description: op ? `${op.operationId} (${op.method.toUpperCase()} ${op.path})` : 'all operations',
    },
    { type: '@allure.label.story', description: meta.check },
    { type: '@allure.label.clause', description: meta.clause },
  ];
}

/**
 * The operations a test actually called, attached as `flis-coverage`: the
 * certificate's matrix counts a check as run on every operation it exercised
 * (one auth-required test covers all 125), not only on the one it is named for.
 */
async function attachCoverage(api: FlisClient, testInfo: TestInfo): Promise<void> {
  const ids = new Set<string>();
  for (const x of api.exchanges) {
    const id = operationIdOf(x, api.target.baseUrl);
    if (id) ids.add(id);
  }
  await testInfo.attach('flis-coverage', {
    body: JSON.stringify({ operations: [...ids].sort() }),
    contentType: 'application/json',
  });
}

type Fixtures = { workerDispatcher: Dispatcher; observer: Observer; checkTimeout: CheckTimeout };

/** title, details and body of one check test, for `test(...checkTest(meta, body))`. */
export type CheckTestArgs = [string, TestDetails, (fixtures: Fixtures, testInfo: TestInfo) => Promise<void>];

/** A blocked check is skipped, saying which check owns the problem it met (docs/writing-a-check.md). */
function skipBlocked(testInfo: TestInfo, blocked: CheckBlocked): never {
  testInfo.annotations.push({ type: 'blocked-by', description: blocked.blockedBy });
  testInfo.skip(true, blocked.message);
  throw blocked;
}

/**
 * The body, then its cleanup, then the no-5xx sweep over every exchange of the test (cleanup's own included). A 5xx
 * anywhere is reported as no-5xx in preference to the body's own failure: a server error is usually the cause of
 * whatever else broke (a flow that met a 500 goes on to report a record that never showed up), a 5xx is a contract
 * failure whatever the check's severity, and one fault, one owner: no-5xx owns every 5xx. A failure that already
 * judges the 5xx itself is kept (reportsA5xx). A skipped test stays skipped (see the catch in checkTest).
 */
async function runChecked(ctx: CheckContext, body: (ctx: CheckContext) => Promise<void>): Promise<void> {
  let failure: unknown;
  try {
    await body(ctx);
  } catch (error) {
    failure = error;
  }
  await ctx.cleanup.run();
  if (!reportsA5xx(failure)) expectNo5xxOnEvery(ctx.api.exchanges);
  if (failure !== undefined) throw failure;
}

/** `C` is read from `meta.check` alone, so `meta.clauses` may only narrow that check's row. */
export function checkTest<C extends CheckId>(
  meta: CheckTestMeta<C>,
  body: (ctx: CheckContext) => Promise<void>,
): CheckTestArgs {
  const resolved = resolveMeta(meta);
  return [
    checkTitle({ ...resolved, ...(meta.title !== undefined ? { title: meta.title } : {}) }),
    { tag: [`@${meta.check}`], annotation: annotationsOf(resolved) },
    async ({ workerDispatcher, observer, checkTimeout }, testInfo) => {
      const t = target();
      if (meta.writes && !t.allowWrites) {
        testInfo.annotations.push({ type: 'skipped-because', description: t.writesSkippedReason });
        test.skip(true, t.writesSkippedReason);
      }
      const api = new FlisClient(workerDispatcher, t, () => checkTimeout.answered());
      const ctx: CheckContext = {
        api,
        check: new Check(resolved, secretsWithDerived([t.token])),
        testInfo,
        cleanup: new Cleanup(api, testInfo),
        runId: t.runId,
      };
      try {
        // One step per check: the report shows the check's time, and anything a body adds as steps finds its parent
        // at once (at the top level Playwright searches all of a test's earlier steps, quadratic in their number).
        await test.step(meta.check, () => runChecked(ctx, body));
      } catch (error) {
        // testInfo.skip() inside a body throws to stop the test; rewrapping it would turn a skip into a failure.
        if (testInfo.expectedStatus === 'skipped') throw error;
        if (error instanceof CheckBlocked) skipBlocked(testInfo, error);
        if (error instanceof CheckFailure) {
          await testInfo.attach('flis-failure', {
            body: JSON.stringify(error.record, null, 2),
            contentType: 'application/json',
          });
          // The same record as a person reads it (request, response, curl; token redacted), for the Allure report.
          await testInfo.attach('request-response', { body: formatFailure(error.record), contentType: 'text/plain' });
          throw withoutFrames(error);
        }
        // Anything else (a network error, a bug) still must not leak the token.
        const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        throw withoutFrames(new Error(redactText(message, secretsWithDerived([t.token]))));
      } finally {
        observer.add(api.exchanges);
        await attachCoverage(api, testInfo);
      }
    },
  ];
}
