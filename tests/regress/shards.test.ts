/**
 * `flis regress --shard I/N` splits the partners across CI machines and `flis merge` joins the shards' folders into
 * the report an unsharded run gives; a partner is named by the header's `partner` field, its label, or its file.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CommandIo } from '../../cli/command.ts';
import { mergeCommand } from '../../cli/commands/merge.ts';
import { shardOption as parseShard } from '../../cli/args.ts';
import { findPartners, shardOf } from '../../regress/partners.ts';
import type { RegressReport } from '../../regress/types.ts';
import { recordPartners } from '../../bench/partner-clients.ts';
import { regress, tempDir, verdicts } from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());

describe('shards', () => {
  let cassettes = '';
  before(async () => {
    cassettes = await recordPartners(join(tmp.dir, 'c'), 9);
  });

  it('shards split the partners without overlap, and flis merge gives the unsharded verdicts', async () => {
    const args = ['--cassettes', cassettes, '--mock-fault', 'invoice-bad-created-timestamp'];
    const whole = await regress(args, join(tmp.dir, 'whole'));
    const s1 = await regress([...args, '--shard', '1/2'], join(tmp.dir, 's1'));
    const s2 = await regress([...args, '--shard', '2/2'], join(tmp.dir, 's2'));
    const names = (r: RegressReport) => r.partners.map((p) => p.partner);
    assert.deepEqual([...names(s1.report), ...names(s2.report)].sort(), names(whole.report));
    assert.equal(s1.report.shard, '1/2');
    const out: string[] = [];
    const io: CommandIo = { out: (l) => out.push(l), err: (l) => out.push(l), env: {}, stopped: new Promise(() => {}) };
    const merged = join(tmp.dir, 'merged');
    const code = await mergeCommand.run(['--report-dir', merged, join(tmp.dir, 's1'), join(tmp.dir, 's2')], io);
    const report = JSON.parse(readFileSync(join(merged, 'regress.json'), 'utf8')) as RegressReport;
    assert.deepEqual(verdicts(report), verdicts(whole.report));
    assert.deepEqual(report.totals, whole.report.totals);
    assert.equal(code, 1, out.join('\n'));
    assert.match(
      readFileSync(join(merged, 'junit.xml'), 'utf8'),
      /<testcase classname="billing-reader" name="getInvoice"><failure/,
    );
  });

  it('shardOf covers every item once, for any N', () => {
    const items = Array.from({ length: 7 }, (_, i) => i);
    for (const n of [1, 2, 3, 7, 9]) {
      const all = Array.from({ length: n }, (_, i) => shardOf(items, parseShard(`${i + 1}/${n}`))).flat();
      assert.deepEqual(all, items, `N=${n}`);
    }
  });

  it("a partner is named by the header's partner field, else its partner label, else its file name", () => {
    const dir = join(tmp.dir, 'names');
    mkdirSync(dir);
    const text = readFileSync(join(cassettes, 'offer-writer.yaml'), 'utf8');
    writeFileSync(join(dir, 'a.yaml'), text.replace(/^format: 1$/m, 'format: 1\npartner: acme-freight'));
    copyFileSync(join(cassettes, 'billing-reader.yaml'), join(dir, 'b.yaml'));
    writeFileSync(join(dir, 'carrier-x.yaml'), text.replace(/^ {2}partner: .*\n/m, ''));
    assert.deepEqual(
      findPartners(dir).map((p) => p.partner),
      ['acme-freight', 'billing-reader', 'carrier-x'],
    );
  });
});
