/**
 * Declares a Playwright test for one check. It labels the test with its check,
 * clause and operation (annotations, read by the runner and the reports), skips
 * write checks when writes are not allowed, and attaches a CheckFailure record.
 */
import { test as base, type APIRequestContext, type TestInfo } from '@playwright/test';
import type { Operation } from '../../specs/contract.ts';
import { Check, type CheckMeta } from './check.ts';
import { CheckFailure } from './check-failure.ts';
import { FlisClient } from './client.ts';
import { redactText } from './redact.ts';
import { target } from './target.ts';

/**
 * One HTTP context per worker, not per test: Playwright's test-scoped `request`
 * fixture costs tens of milliseconds to set up, more than the request itself
 * against a local deployment. Tests share no cookies or auth through it: auth
 * is chosen per call by FlisClient.
 */
export const test = base.extend<object, { workerRequest: APIRequestContext }>({
  workerRequest: [
    async ({ playwright }, use) => {
      const context = await playwright.request.newContext();
      await use(context);
      await context.dispose();
    },
    { scope: 'worker' },
  ],
});

export interface CheckTestMeta extends CheckMeta {
  /** The test title after the check id, e.g. "GET /offers". Defaults to the operation. */
  title?: string;
  /** True when the test writes to the target: skipped unless writes are allowed. */
  writes?: boolean;
}

export interface CheckContext {
  api: FlisClient;
  check: Check;
  testInfo: TestInfo;
}

export function checkTitle(meta: CheckTestMeta): string {
  const subject = meta.title ?? (meta.operation ? `${meta.operation.operationId} (${meta.operation.method.toUpperCase()} ${meta.operation.path})` : '');
  return `${meta.check} · ${subject} · ${meta.clause}`;
}

export function annotationsOf(meta: CheckMeta): { type: string; description: string }[] {
  const out = [{ type: 'check', description: meta.check }, { type: 'clause', description: meta.clause }];
  const op: Operation | undefined = meta.operation;
  if (op) out.push({ type: 'operation', description: op.operationId }, { type: 'resource', description: op.tag });
  return out;
}

export function checkTest(meta: CheckTestMeta, body: (ctx: CheckContext) => Promise<void>): void {
  test(checkTitle(meta), { tag: [`@${meta.check}`], annotation: annotationsOf(meta) }, async ({ workerRequest }, testInfo) => {
    const t = target();
    if (meta.writes && !t.allowWrites) {
      testInfo.annotations.push({ type: 'skipped-because', description: t.writesSkippedReason });
      test.skip(true, t.writesSkippedReason);
    }
    const api = new FlisClient(workerRequest, t);
    try {
      await body({ api, check: new Check(meta, [t.token]), testInfo });
    } catch (error) {
      // testInfo.skip() inside a body throws to stop the test; rewrapping it would turn a skip into a failure.
      if (testInfo.expectedStatus === 'skipped') throw error;
      if (error instanceof CheckFailure) {
        await testInfo.attach('flis-failure', { body: JSON.stringify(error.record, null, 2), contentType: 'application/json' });
        throw error;
      }
      // Anything else (a network error, a bug) still must not leak the token.
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new Error(redactText(message, [t.token]));
    }
  });
}
