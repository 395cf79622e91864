/**
 * `flis report` as Allure users expect it: the page carries the name given
 * with --name (the classic plugin reads its own `reportName`), and the
 * history is kept beside the report folder so the Trend widget has a point
 * per report from the second one on.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { reportCommand } from '../../cli/commands/report.ts';
import { embeddedJson, writeAllureResults } from './allure-fixtures.ts';
import { runCommand } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'flis-allure-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('flis report: name and history', () => {
  const reportDir = join(dir, 'reports');
  const index = join(reportDir, 'allure-report', 'index.html');
  const report = async () => {
    writeAllureResults(join(reportDir, 'allure-results'));
    const r = await runCommand(reportCommand, ['--report-dir', reportDir, '--name', 'Nightly <sandbox>']);
    assert.equal(r.code, 0, r.err);
    return readFileSync(index, 'utf8');
  };

  it('titles the page with --name', async () => {
    const html = await report();
    assert.match(html, /<title>Nightly &lt;sandbox&gt;<\/title>/);
    assert.equal(
      (embeddedJson(html, 'widgets/summary.json') as { reportName: string }).reportName,
      'Nightly <sandbox>',
    );
  });

  it('keeps the history in DIR/allure-history.jsonl: the second report trends over two runs', async () => {
    const html = await report();
    const lines = readFileSync(join(reportDir, 'allure-history.jsonl'), 'utf8').trim().split('\n');
    assert.equal(lines.length, 2, 'one history line per report');
    const trend = embeddedJson(html, 'widgets/history-trend.json') as { data: { passed: number; failed: number } }[];
    assert.equal(trend.length, 2, 'the Trend widget has a point per report');
    for (const point of trend) assert.deepEqual([point.data.passed, point.data.failed], [1, 1]);
  });
});
