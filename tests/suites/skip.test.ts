/**
 * The one skip API of the checks (core/skip.ts): each kind leaves the annotation and reason the reports read
 * (reporting/outcomes.ts), so a skip said through it is reported as that kind, with the reason as given.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TestInfo } from '@playwright/test';

process.env.FLIS_GATEWAY_URL = 'http://127.0.0.1:9/apis/v0';
process.env.FLIS_TOKEN = 'skip-test-token';

const { skip } = await import('../../suites/lib/index.ts');
const { Check } = await import('../../suites/lib/check.ts');
const { CheckBlocked } = await import('../../suites/lib/check-blocked.ts');
const { readRunOutcomes } = await import('../../reporting/outcomes.ts');

class Skipped extends Error {}

/** The parts of Playwright's TestInfo a skip uses: its runtime annotations, and skip(), which throws to stop the test. */
function fakeInfo(): TestInfo & { skipMessage?: string } {
  const info = {
    annotations: [] as { type: string; description?: string }[],
    skipMessage: undefined as string | undefined,
    skip(condition: boolean, message: string) {
      if (!condition) return;
      info.skipMessage = message;
      info.annotations.push({ type: 'skip', description: message });
      throw new Skipped(message);
    },
  };
  return info as unknown as TestInfo & { skipMessage?: string };
}

/** How the reports read a skipped test that carries these runtime annotations. */
function reported(annotations: TestInfo['annotations']): { skipKind?: string; skipReason?: string } {
  const dir = mkdtempSync(join(tmpdir(), 'flis-skip-'));
  try {
    const file = join(dir, 'results.json');
    const spec = { id: 'x', title: 't', file: 'contract/t.spec.ts' };
    const result = { status: 'skipped', annotations };
    writeFileSync(
      file,
      JSON.stringify({
        suites: [{ specs: [{ ...spec, tests: [{ projectName: 'p', status: 'skipped', results: [result] }] }] }],
      }),
    );
    const [outcome] = readRunOutcomes(file).outcomes;
    return {
      ...(outcome?.skipKind ? { skipKind: outcome.skipKind } : {}),
      ...(outcome?.skipReason ? { skipReason: outcome.skipReason } : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const kinds = [
  { name: 'nothingToJudge', kind: 'skipped', prefix: '' },
  { name: 'notShown', kind: 'not-shown', prefix: 'not shown: ' },
  { name: 'inconclusive', kind: 'inconclusive', prefix: 'inconclusive: ' },
] as const;

for (const { name, kind, prefix } of kinds) {
  test(`skip.${name} is reported as ${kind}, with its reason`, () => {
    const testInfo = fakeInfo();
    assert.throws(() => skip[name]({ testInfo }, 'the list was empty'), Skipped, `skip.${name} did not stop the test`);
    assert.deepEqual(reported(testInfo.annotations), { skipKind: kind, skipReason: `${prefix}the list was empty` });
  });
}

test('skip.blockedBy throws the CheckBlocked that checkTest turns into a blocked-by skip', () => {
  const check = new Check({ check: 'offer-upsert' }, ['skip-test-token']);
  const error = (() => {
    try {
      skip.blockedBy({ check }, 'response-schema', undefined, 'priceStrategy outside the enum, token skip-test-token');
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  assert.ok(error instanceof CheckBlocked, `expected a CheckBlocked, got ${String(error)}`);
  assert.equal(error.blockedBy, 'response-schema on the flow: priceStrategy outside the enum, token [REDACTED]');
  assert.deepEqual(reported([{ type: 'blocked-by', description: error.blockedBy }]).skipKind, 'blocked');
});
