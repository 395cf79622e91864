/**
 * Ids the suites write: tagged with the run id (so anything left behind can be
 * found), distinct across tests, and the same when the same run is replayed
 * from a cassette (`flis run --cassette`), which must send the very requests
 * it recorded. So the unique part is derived from the test's stable id and a
 * per-test counter, not drawn at random.
 */
import { createHash } from 'node:crypto';
import { test } from '@playwright/test';
import { target } from '../../core/target.ts';

const perTest = new Map<string, number>();
let outsideTests = 0;

function testKey(): string {
  try {
    const info = test.info();
    return `${info.testId}/${info.retry}`;
  } catch {
    // Outside a Playwright test (a unit test of a fixture): a process counter is unique enough.
    return `process/${++outsideTests}`;
  }
}

export function freshId(kind: string, runId = target().runId): string {
  const key = testKey();
  const n = (perTest.get(key) ?? 0) + 1;
  perTest.set(key, n);
  const digest = createHash('sha256').update(`${runId}\n${key}\n${kind}\n${n}`).digest('hex').slice(0, 10);
  return `${runId}-${kind}-${digest}`;
}

/**
 * Ids for work done side by side within one test. freshId counts per test, so its ids would follow the order in
 * which concurrent requests happen to finish, and a replay must send the very ids it recorded. Here each scope (an
 * operation, a path template) counts its own, so an id depends only on its scope and the order within it.
 */
export function scopedIds(kind: string, runId = target().runId): (scope: string) => (name: string) => string {
  const base = freshId(kind, runId);
  const counters = new Map<string, number>();
  return (scope) => (name) => {
    const key = `${scope}\n${name}`;
    const n = (counters.get(key) ?? 0) + 1;
    counters.set(key, n);
    const digest = createHash('sha256').update(`${base}\n${key}\n${n}`).digest('hex').slice(0, 10);
    return `${runId}-${name}-${digest}`;
  };
}
