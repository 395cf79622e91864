/**
 * `flis regress` end to end: three partner clients recorded through the recorder in front of the embedded mock,
 * replayed against the embedded mock, a conformant variant, mock faults and a read-only target.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { recordPartners } from '../../bench/partner-clients.ts';
import { regress, tempDir, verdicts } from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());

describe('against the same mock, every partner is unchanged: no noise', () => {
  for (const seed of [1, 2, 3])
    it(`seed ${seed}`, async () => {
      const cassettes = await recordPartners(join(tmp.dir, `same-${seed}`), seed);
      const r = await regress(['--cassettes', cassettes], join(tmp.dir, `same-${seed}-report`));
      assert.deepEqual(
        verdicts(r.report),
        { 'billing-reader': 'unchanged', 'bulk-catalogue': 'unchanged', 'offer-writer': 'unchanged' },
        JSON.stringify(
          r.report.partners.flatMap((p) => p.notes),
          null,
          1,
        ),
      );
      assert.equal(r.code, 0);
      assert.equal(r.report.totals.exchanges, 16, 'every recorded exchange was replayed');
      assert.equal(r.report.totals.notReplayed, 0);
    });
});

describe('judging', () => {
  let cassettes = '';
  before(async () => {
    cassettes = await recordPartners(join(tmp.dir, 'judged'), 4);
  });

  it('a variant that changes only what the spec leaves open (201, extra fields, uuid ids): changed, none broken', async () => {
    const r = await regress(['--cassettes', cassettes, '--mock-variant', 'different'], join(tmp.dir, 'variant'));
    assert.deepEqual(verdicts(r.report), {
      'billing-reader': 'changed',
      'bulk-catalogue': 'changed',
      'offer-writer': 'changed',
    });
    assert.equal(r.code, 0, 'a change within the contract does not fail the run');
    const writer = r.report.partners.find((p) => p.partner === 'offer-writer')!;
    const create = writer.notes.find((n) => n.operationId === 'createOffer')!;
    const kinds = create.findings.map((f) => `${f.kind} ${f.pointer ?? ''} ${f.recorded}->${f.now}`);
    assert.ok(kinds.includes('status-code  200->201'), kinds.join('\n'));
    assert.ok(
      kinds.some((k) => k.startsWith('id-format /id ')),
      kinds.join('\n'),
    );
    assert.ok(
      kinds.some((k) => k.startsWith('field-added /')),
      kinds.join('\n'),
    );
    assert.equal(writer.blocked, 0, 'the uuid ids were chained into the later requests');
    const failOn = await regress(
      ['--cassettes', cassettes, '--mock-variant', 'different', '--fail-on', 'changed'],
      join(tmp.dir, 'variant-fail'),
    );
    assert.equal(failOn.code, 1, '--fail-on changed fails on a risk');
  });

  it('a mock fault breaks exactly the partners whose traffic uses the broken operation, each with the exchange', async () => {
    const r = await regress(['--cassettes', cassettes, '--mock-fault', 'ack-missing-batch-id'], join(tmp.dir, 'ack'));
    assert.deepEqual(verdicts(r.report), {
      'billing-reader': 'unchanged',
      'bulk-catalogue': 'unchanged',
      'offer-writer': 'broken',
    });
    assert.equal(r.code, 1);
    const writer = r.report.partners.find((p) => p.partner === 'offer-writer')!;
    const broken = writer.notes.filter((n) => n.outcome === 'broken');
    assert.deepEqual(
      broken.map((n) => n.operationId),
      ['upsertOffer'],
      'one fault, one broken exchange',
    );
    const put = broken[0]!;
    assert.match(put.cassette, /offer-writer\.yaml$/);
    const lines = readFileSync(put.cassette, 'utf8').split('\n');
    assert.match(lines[put.line - 1] ?? '', /^(---|seq: )/, `line ${put.line} starts the exchange`);
    assert.match(lines.slice(put.line - 1, put.line + 3).join('\n'), /PUT|upsertOffer/);
    assert.ok(
      put.findings.some((f) => f.kind === 'documented-field-missing' && f.pointer === '/batchId'),
      JSON.stringify(put.findings),
    );
    assert.match(put.curl ?? '', /^curl .*-X PUT .*\/offers\/flis-.*\$FLIS_TOKEN/);
    const blocked = writer.notes.find((n) => n.outcome === 'blocked')!;
    assert.equal(blocked.operationId, 'getBatchRequestsStatus');
    assert.equal(
      blocked.blockedBy?.line,
      put.line,
      'the poll is blocked by the write that should have given its batchId',
    );
    assert.ok(r.out.some((l) => l.startsWith('BROKEN offer-writer upsertOffer')));

    const inv = await regress(
      ['--cassettes', cassettes, '--mock-fault', 'invoice-bad-created-timestamp'],
      join(tmp.dir, 'invoice'),
    );
    assert.deepEqual(verdicts(inv.report), {
      'billing-reader': 'broken',
      'bulk-catalogue': 'unchanged',
      'offer-writer': 'unchanged',
    });
    const reader = inv.report.partners.find((p) => p.partner === 'billing-reader')!;
    assert.deepEqual(
      reader.operations.filter((c) => c.verdict === 'broken').map((c) => c.operation),
      ['getInvoice', 'listInvoices'],
    );
  });

  it('reports: the matrix in HTML, JUnit with one test case per partner and operation, no token anywhere', async () => {
    const token = 'run-token-Zx81Qw7rT5yU3iO9';
    let mock: RunningMock | undefined;
    try {
      mock = await startMock({ token, faults: ['ack-missing-batch-id'] });
      const r = await regress(
        ['--cassettes', cassettes, '--base-url', mock.baseUrl, '--allow-writes'],
        join(tmp.dir, 'reports'),
        { env: { FLIS_TOKEN: token } },
      );
      const html = readFileSync(join(r.reportDir, 'regress.html'), 'utf8');
      const junit = readFileSync(join(r.reportDir, 'junit.xml'), 'utf8');
      const json = readFileSync(join(r.reportDir, 'regress.json'), 'utf8');
      for (const [name, text] of [
        ['regress.html', html],
        ['junit.xml', junit],
        ['regress.json', json],
      ] as const)
        assert.ok(!text.includes(token), `${name} carries the run's token`);
      assert.match(html, /<table class="matrix">/);
      assert.match(html, /offer-writer\.yaml:\d+/);
      const cases = [...junit.matchAll(/<testcase classname="([^"]+)" name="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`);
      const expected = r.report.partners.flatMap((p) => p.operations.map((c) => `${p.partner} ${c.operation}`));
      assert.deepEqual(cases, expected);
      assert.match(junit, /<testcase classname="offer-writer" name="upsertOffer"><failure/);
    } finally {
      await mock?.close();
    }
  });

  it('a read-only target gets only the GETs; the report says how many were not replayed and why', async () => {
    const token = 'run-token-Ro5eW2qA8sD4fG6h';
    let mock: RunningMock | undefined;
    try {
      mock = await startMock({ token });
      const r = await regress(['--cassettes', cassettes, '--base-url', mock.baseUrl], join(tmp.dir, 'read-only'), {
        env: { FLIS_TOKEN: token },
      });
      const writer = r.report.partners.find((p) => p.partner === 'offer-writer')!;
      assert.equal(writer.notReplayed.count, 2, 'the PUT and the POST');
      assert.match(writer.notReplayed.reason ?? '', /read-only unless --allow-writes/);
      assert.equal(r.report.partners.find((p) => p.partner === 'billing-reader')!.verdict, 'unchanged');
      assert.equal(r.report.totals.notReplayed, 3);
      assert.equal(r.code, 0);
    } finally {
      await mock?.close();
    }
  });
});
