/**
 * flis diff: a conformant mock that chooses differently (201s, uuids, extra
 * fields) differs from the default one in nothing the contract pins; a mock
 * with a wrongly typed field and a missing field differs exactly there.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { diffCommand } from '../../cli/commands/diff.ts';
import { startMock, type MockOptions } from '../../mock/server.ts';
import { variantPresets } from '../../mock/variant.ts';
import { compareOperation } from '../../reporting/shape-diff.ts';
import type { Difference } from '../../reporting/shape-diff.ts';
import { runCommand } from './helpers.ts';

const TOKEN = 'diff-token-Hy5';
const root = mkdtempSync(join(tmpdir(), 'flis-diff-'));
after(() => rmSync(root, { recursive: true, force: true }));

async function diff(label: string, a: Omit<MockOptions, 'token'>, b: Omit<MockOptions, 'token'>) {
  const [ma, mb] = await Promise.all([startMock({ token: TOKEN, ...a }), startMock({ token: TOKEN, ...b })]);
  try {
    const env = {
      ...process.env,
      FLIS_MOCK_BASE_URL: ma.baseUrl,
      FLIS_MOCK_TOKEN: TOKEN,
      FLIS_SANDBOX_BASE_URL: mb.baseUrl,
      FLIS_SANDBOX_TOKEN: TOKEN,
    };
    const r = await runCommand(
      diffCommand,
      [
        '--deployment',
        'mock',
        '--deployment',
        'sandbox',
        '--seed',
        '9',
        '--runs',
        '2',
        '--report-dir',
        join(root, label),
      ],
      env,
    );
    const report = JSON.parse(readFileSync(join(root, label, 'diff.json'), 'utf8')) as { differences: Difference[] };
    return { ...r, differences: report.differences };
  } finally {
    await Promise.all([ma.close(), mb.close()]);
  }
}

describe('flis diff', () => {
  it('finds no difference between the default mock and the conformant "different" variant (writes included)', async () => {
    const r = await diff('open', {}, { variant: variantPresets.different });
    assert.deepEqual(r.differences, []);
    assert.equal(r.code, 0, r.out);
  });

  it('reports a wrongly typed field and a missing documented field, per operation and path', async () => {
    const r = await diff('faulty', {}, { faults: ['offer-quantity-as-string', 'billing-group-missing-status'] });
    assert.equal(r.code, 1);
    const has = (op: string, kind: string, path: string) =>
      r.differences.some((d) => d.operationId === op && d.kind === kind && d.path === path);
    assert.ok(has('listOffers', 'field-type', '/*/quantity'), JSON.stringify(r.differences, null, 1));
    assert.ok(has('listBillingGroups', 'field-presence', '/*/status'));
    assert.match(r.out, /DIFFERS listOffers field-type \/\*\/quantity: mock number, sandbox string/);
  });

  it('counts a 2xx against a 4xx as a difference, 200 against 201 as open', () => {
    const pair = (a: number, b: number) => [
      { operationId: 'x', request: 'PUT /x', a: { status: a }, b: { status: b } },
    ];
    assert.equal(compareOperation('x', undefined, pair(200, 201)).length, 0);
    assert.equal(compareOperation('x', undefined, pair(200, 400))[0]?.kind, 'status');
  });
});
