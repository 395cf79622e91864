/**
 * Replaying one failing property by its path, not only its seed (fast-check's `path`): `flis run --path ID:PATH`
 * (FLIS_PATH). ID names one checkProperty call, `<Playwright test id>.<its ordinal in the test>`, so the path
 * reaches that property alone: every other property of the run keeps to its seed, since fast-check refuses a path
 * its own generators cannot walk. A failure prints the ID and the path it failed at (check-failure.ts).
 */
import type { TestInfo } from '@playwright/test';

export interface ReplayPath {
  /** `<test id>.<ordinal>` of the property. */
  property: string;
  /** fast-check's path: the run, then the shrink steps, e.g. `3:1:0`. */
  path: string;
}

const FORMAT = /^([A-Za-z0-9_-]+\.[1-9]\d*):(\d+(?::\d+)*)$/;

/** Undefined when `text` is not `<test id>.<ordinal>:<path>`. */
export function parseReplayPath(text: string): ReplayPath | undefined {
  const m = FORMAT.exec(text.trim());
  return m ? { property: m[1]!, path: m[2]! } : undefined;
}

export function formatReplayPath(r: ReplayPath): string {
  return `${r.property}:${r.path}`;
}

const calls = new WeakMap<TestInfo, number>();

/** The id of the property a test is about to run: its test id and how many properties it ran before, plus one. */
export function nextPropertyId(testInfo: TestInfo): string {
  const n = (calls.get(testInfo) ?? 0) + 1;
  calls.set(testInfo, n);
  return `${testInfo.testId}.${n}`;
}

/** The path to replay for this property, when FLIS_PATH names it. */
export function replayPathOf(property: string, given: string | undefined): string | undefined {
  const r = given === undefined ? undefined : parseReplayPath(given);
  return r?.property === property ? r.path : undefined;
}
