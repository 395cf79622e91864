/**
 * A check stopped by --check-timeout judged nothing: reporting/outcomes.ts reads it as inconclusive, never as a
 * failure of the deployment (docs/throttling.md). A check that failed on its own stays failed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readRunOutcomes } from '../../reporting/outcomes.ts';

const dir = mkdtempSync(join(tmpdir(), 'flis-timed-out-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function spec(id: string, status: string, resultStatus: string, runtime: { type: string; description: string }[] = []) {
  return {
    id,
    title: `${id} · a check · spec 4`,
    tests: [
      {
        projectName: 'contract',
        status,
        annotations: [{ type: 'check', description: id }],
        results: [
          { status: resultStatus, annotations: runtime, errors: [{ message: 'Test timeout of 1000ms exceeded.' }] },
        ],
      },
    ],
  };
}

test('a timed-out check is inconclusive; a failed one stays failed', () => {
  const file = join(dir, 'results.json');
  const report = {
    suites: [{ specs: [spec('slow', 'unexpected', 'timedOut'), spec('broken', 'unexpected', 'failed')] }],
  };
  writeFileSync(file, JSON.stringify(report));
  const { outcomes } = readRunOutcomes(file);
  const byId = Object.fromEntries(outcomes.map((o) => [o.id, o]));
  assert.equal(byId.slow?.status, 'skipped');
  assert.equal(byId.slow?.skipKind, 'inconclusive');
  assert.equal(byId.slow?.skipReason, 'inconclusive: the check was stopped by the check timeout (--check-timeout)');
  assert.equal(byId.broken?.status, 'failed');
});

test('a timed-out check gives the reason it recorded: which limit stopped it', () => {
  const file = join(dir, 'results-reason.json');
  const reason = 'the check got no answer for 2m (--check-timeout)';
  const report = {
    suites: [{ specs: [spec('quiet', 'unexpected', 'timedOut', [{ type: 'inconclusive', description: reason }])] }],
  };
  writeFileSync(file, JSON.stringify(report));
  const [quiet] = readRunOutcomes(file).outcomes;
  assert.equal(quiet?.status, 'skipped');
  assert.equal(quiet?.skipKind, 'inconclusive');
  assert.equal(quiet?.skipReason, `inconclusive: ${reason}`);
});
