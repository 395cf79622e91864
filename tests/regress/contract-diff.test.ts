/**
 * `flis contract diff` of the bundled document against copies with one breaking change each names exactly the
 * partners whose recorded traffic uses what changed, with the exchange that shows it; the document against itself
 * has no change.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import type { CommandIo } from '../../cli/command.ts';
import { contractCommand } from '../../cli/commands/contract.ts';
import type { ContractDiffReport } from '../../regress/contract-report.ts';
import { ROOT } from '../runner/helpers.ts';
import { recordPartners } from '../../bench/partner-clients.ts';
import { tempDir } from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());

const BUNDLED = join(ROOT, 'specs/openapi.bundled.yaml');
// biome-ignore lint/suspicious/noExplicitAny: the test edits a parsed OpenAPI document in place.
type Doc = any;

async function contractDiff(
  args: string[],
  name: string,
): Promise<{ code: number; report: ContractDiffReport; out: string[] }> {
  const out: string[] = [];
  const io: CommandIo = { out: (l) => out.push(l), err: (l) => out.push(l), env: {}, stopped: new Promise(() => {}) };
  const dir = join(tmp.dir, `report-${name}`);
  const code = await contractCommand.run(['diff', ...args, '--report-dir', dir], io);
  const report = JSON.parse(readFileSync(join(dir, 'contract-diff.json'), 'utf8')) as ContractDiffReport;
  assert.match(readFileSync(join(dir, 'contract-diff.md'), 'utf8'), /^# flis contract diff/);
  return { code, report, out };
}

function copyWith(name: string, change: (d: Doc) => void): string {
  const doc = parse(readFileSync(BUNDLED, 'utf8')) as Doc;
  change(doc);
  const file = join(tmp.dir, `${name}.yaml`);
  writeFileSync(file, stringify(doc));
  return file;
}

const cases: { name: string; change: (d: Doc) => void; id: string; partners: string[] }[] = [
  {
    name: 'response field removed',
    change: (d) => {
      delete d.components.schemas.Invoice.properties.invoicedBy;
    },
    id: 'response-field-removed',
    partners: ['billing-reader'],
  },
  {
    name: 'request field made required',
    change: (d) => {
      d.components.schemas.OfferWrite.required = ['settled'];
    },
    id: 'request-field-became-required',
    partners: ['bulk-catalogue', 'offer-writer'],
  },
  {
    name: 'enum narrowed',
    change: (d) => {
      const p = d.paths['/billingGroups'].get.parameters.find((x: Doc) => x.name === 'inactive');
      p.schema = { type: 'boolean', enum: [true] };
    },
    id: 'parameter-enum-narrowed',
    partners: ['billing-reader'],
  },
  {
    name: 'operation removed',
    change: (d) => {
      delete d.paths['/products'].get;
    },
    id: 'operation-removed',
    partners: ['bulk-catalogue'],
  },
];

describe('flis contract diff', () => {
  let cassettes = '';
  before(async () => {
    cassettes = await recordPartners(join(tmp.dir, 'cassettes'), 8);
  });

  it('the bundled document against itself: no change, exit 0', async () => {
    const r = await contractDiff([BUNDLED, BUNDLED, '--cassettes', cassettes], 'same');
    assert.equal(r.code, 0);
    assert.deepEqual(r.report.changes, []);
  });

  for (const c of cases)
    it(`${c.name}: names exactly the partners that use it`, async () => {
      const r = await contractDiff([BUNDLED, copyWith(c.id, c.change), '--cassettes', cassettes], c.id);
      const breaking = r.report.changes.filter((x) => x.class === 'breaking');
      assert.ok(breaking.length > 0 && breaking.every((x) => x.id === c.id), JSON.stringify(breaking.map((x) => x.id)));
      const touched = [...new Set(breaking.flatMap((x) => (x.partners ?? []).map((p) => p.partner)))].sort();
      assert.deepEqual(touched, c.partners);
      for (const t of breaking.flatMap((x) => x.partners ?? [])) {
        const lines = readFileSync(t.file, 'utf8').split('\n');
        assert.match(lines[t.line - 1] ?? '', /^(---|seq: )/, `${t.file}:${t.line} starts an exchange`);
      }
      assert.equal(r.code, 1, 'a breaking change touches a partner');
    });

  it('without cassettes a breaking change exits 0, unless --fail-on breaking', async () => {
    const changed = copyWith('plain', cases[3]!.change);
    assert.equal((await contractDiff([BUNDLED, changed], 'plain')).code, 0);
    assert.equal((await contractDiff([BUNDLED, changed, '--fail-on', 'breaking'], 'fail-on')).code, 1);
  });

  it('a document that is not valid OpenAPI: one line with the validator first error and its pointer', async () => {
    const bad = copyWith('invalid', (d) => {
      delete d.info.title;
    });
    const io: CommandIo = { out: () => {}, err: () => {}, env: {}, stopped: new Promise(() => {}) };
    await assert.rejects(
      contractCommand.run(['diff', BUNDLED, bad, '--report-dir', join(tmp.dir, 'x')], io),
      (e: Error) => {
        assert.match(
          e.message,
          /invalid\.yaml: not a valid OpenAPI document: at \/info: must have required property 'title'/,
        );
        assert.ok(!e.message.includes('\n'));
        return true;
      },
    );
  });

  it('a recursive schema with one type change: one change, at the schema, with the operations it reaches', async () => {
    // Invoice holds invoices three ways (a tree of them), and the snapshot holds one: a walk that followed every
    // path down reported one change thousands of times.
    const recursive = (d: Doc) => {
      const invoice = { $ref: '#/components/schemas/Invoice' };
      Object.assign(d.components.schemas.Invoice.properties, {
        parent: invoice,
        children: { type: 'array', items: invoice },
        related: { type: 'array', items: invoice },
      });
      d.components.schemas.InvoiceSnapshot.properties.previous = invoice;
    };
    const old = copyWith('recursive-old', recursive);
    const changed = copyWith('recursive-new', (d) => {
      recursive(d);
      d.components.schemas.Invoice.properties.status = { type: 'integer' };
    });
    // Two partners read an invoice: one receives a status only three invoices down the tree, one no status at all.
    const dir = join(tmp.dir, 'recursive-cassettes');
    mkdirSync(dir);
    const deep = { id: 'inv-1', children: [{ related: [{ status: 'open' }] }] };
    writeFileSync(join(dir, 'deep.yaml'), invoiceCassette('deep-reader', deep));
    writeFileSync(join(dir, 'shallow.yaml'), invoiceCassette('shallow-reader', { id: 'inv-1' }));
    const r = await contractDiff([old, changed, '--cassettes', dir], 'recursive');
    const breaking = r.report.changes.filter((c) => c.class === 'breaking');
    assert.deepEqual(
      breaking.map((c) => [c.id, c.component, c.pointer, c.operations]),
      [['response-field-type-changed', 'Invoice', '/status', ['getInvoice', 'getInvoiceBillingGroupDetailsSnapshot']]],
    );
    assert.equal(r.out.filter((l) => l.startsWith('BREAKING')).length, 1, r.out.join('\n'));
    assert.deepEqual(
      breaking[0]!.partners?.map((t) => [t.partner, t.shows]),
      [['deep-reader', 'receives /children/*/related/*/status']],
    );
  });
});

/** A cassette of one partner's GET /invoices/inv-1, answered 200 with `body`. */
function invoiceCassette(partner: string, body: unknown): string {
  return `---
format: 1
kind: flis-cassette
recordedAt: "2026-01-01T00:00:00.000Z"
deployment: null
upstream: null
specVersion: "1.0.0"
tool:
  name: flis-conformance
  version: "0.1.0"
labels:
  partner: ${JSON.stringify(partner)}
...
---
seq: 1
request:
  method: GET
  path: /invoices/inv-1
  headers:
    authorization: "Bearer [REDACTED]"
response:
  status: 200
  headers:
    content-type: application/json
  body: ${JSON.stringify(body)}
  bodyEncoding: json
...
`;
}
