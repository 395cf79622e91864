/**
 * A partner's name is the partner's to choose (its cassette's header), and so is its cassette's file name: neither
 * can break a report. A name holding a line break, a heading, `<script>`, a table's `|` and a terminal escape
 * sequence stays on one line of the terminal, one row of contract-diff.md, and text (never markup) in regress.html
 * and junit.xml.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import type { CommandIo } from '../../cli/command.ts';
import { contractCommand } from '../../cli/commands/contract.ts';
import { recordPartners } from '../../bench/partner-clients.ts';
import { ROOT } from '../runner/helpers.ts';
import { regress, tempDir } from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());

const HOSTILE = 'evil\n# Owned <script>alert(1)</script> | x \u001b[2J\r!';
/** Written raw, any of these would add a line, a heading, markup or a terminal command. */
const RAW = /<script>|\u001b|\r/;

/** Every line a command printed is one line, with no control character (a line break, an escape sequence). */
function oneLineEach(lines: string[], what: string): void {
  for (const l of lines) assert.doesNotMatch(l, /[\u0000-\u001f]/, `${what}: ${JSON.stringify(l)}`);
}

describe('a partner name that could break a report', () => {
  let cassettes = '';
  before(async () => {
    cassettes = await recordPartners(join(tmp.dir, 'cassettes'), 5, ['billing-reader']);
    const file = join(cassettes, 'billing-reader.yaml');
    const text = readFileSync(file, 'utf8');
    assert.match(text, /^ {2}partner: billing-reader$/m);
    writeFileSync(file, text.replace(/^ {2}partner: billing-reader$/m, `  partner: ${JSON.stringify(HOSTILE)}`));
  });

  it('regress: one terminal line each, regress.html and junit.xml hold it as text', async () => {
    const r = await regress(
      ['--cassettes', cassettes, '--mock-fault', 'invoice-bad-created-timestamp'],
      join(tmp.dir, 'regress'),
    );
    assert.equal(r.code, 1, 'the partner is broken');
    assert.equal(r.report.partners[0]!.partner, HOSTILE, 'regress.json keeps the name as it is');
    oneLineEach([...r.out, ...r.err], 'flis regress');
    assert.ok(
      r.out.some((l) => l.startsWith('BROKEN evil\\n# Owned')),
      r.out.join('\n'),
    );
    const html = readFileSync(join(r.reportDir, 'regress.html'), 'utf8');
    assert.doesNotMatch(html, /<script>/);
    assert.match(html, /&lt;script&gt;/);
    const junit = readFileSync(join(r.reportDir, 'junit.xml'), 'utf8');
    // XML 1.0 allows no C0 control but tab, line feed and carriage return: one would make the file unreadable.
    assert.doesNotMatch(junit, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]|<script>/);
    assert.match(junit, /<testsuite name="evil&#10;# Owned &lt;script&gt;/);
  });

  it('contract diff: one terminal line each, one table row in contract-diff.md, no raw <script>', async () => {
    const doc = parse(readFileSync(join(ROOT, 'specs/openapi.bundled.yaml'), 'utf8'));
    delete doc.components.schemas.Invoice.properties.invoicedBy;
    const changed = join(tmp.dir, 'changed.yaml');
    writeFileSync(changed, stringify(doc));
    const out: string[] = [];
    const io: CommandIo = { out: (l) => out.push(l), err: (l) => out.push(l), env: {}, stopped: new Promise(() => {}) };
    const dir = join(tmp.dir, 'contract');
    mkdirSync(dir);
    const bundled = join(ROOT, 'specs/openapi.bundled.yaml');
    const code = await contractCommand.run(
      ['diff', bundled, changed, '--cassettes', cassettes, '--report-dir', dir],
      io,
    );
    assert.equal(code, 1, `the change touches the partner: ${out.join('\n')}`);
    oneLineEach(out, 'flis contract diff');
    const md = readFileSync(join(dir, 'contract-diff.md'), 'utf8');
    assert.doesNotMatch(md, RAW);
    assert.deepEqual(
      md.split('\n').filter((l) => l.startsWith('#')),
      ['# flis contract diff', '## Breaking for clients', '## Compatible and informational'],
      'no heading but the report own',
    );
    const rows = md.split('\n').filter((l) => l.startsWith('| response-field-removed'));
    assert.equal(rows.length, 1, md);
    assert.match(rows[0]!, /evil\\n# Owned &lt;script&gt;alert\(1\)&lt;\/script&gt; \\\| x \\u001b\\\[2J\\r!: /);
  });
});
