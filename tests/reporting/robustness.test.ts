/**
 * Does a client survive what the contract allows (flis certify --client-command)? Two clients written as partners
 * write them, real Node scripts using fetch against FLIS_BASE_URL (tests/reporting/fixtures/clients/): a robust one
 * survives every conformant variant of the embedded mock; a brittle one (assumes 200, takes the number in an id for
 * the id, never retries on 429) fails exactly the variants that break those assumptions.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runRobustness } from '../../cli/robustness.ts';
import { variantPresetNames } from '../../mock/variant.ts';
import { clientSaid, type RobustnessRow, VARIANT_FREEDOMS } from '../../reporting/robustness.ts';

const CLIENTS = join(import.meta.dirname, 'fixtures', 'clients');
const root = mkdtempSync(join(tmpdir(), 'flis-robustness-'));
let robust: RobustnessRow[];
let brittle: RobustnessRow[];

const clientCommand = (name: string) => `"${process.execPath}" "${join(CLIENTS, `${name}.mjs`)}"`;
const env = { PATH: process.env.PATH };

before(async () => {
  [robust, brittle] = await Promise.all([
    runRobustness({ command: clientCommand('robust'), reportDir: join(root, 'robust'), env }),
    runRobustness({ command: clientCommand('brittle'), reportDir: join(root, 'brittle'), env }),
  ]);
});
after(() => rmSync(root, { recursive: true, force: true }));

const byVariant = (rows: RobustnessRow[]) => Object.fromEntries(rows.map((r) => [r.variant, r]));
const log = (client: string, variant: string) =>
  readFileSync(join(root, client, 'robustness', `${variant}.log`), 'utf8');

describe('robustness: the client command against every conformant variant', () => {
  it('runs one row per variant `flis mock --help` lists, the plain mock first, each with the sentence that allows it', () => {
    assert.deepEqual(
      robust.map((r) => r.variant),
      ['default', ...variantPresetNames.filter((n) => n !== 'default')],
    );
    for (const name of variantPresetNames) assert.ok(VARIANT_FREEDOMS[name], `${name} is described`);
    for (const r of robust) assert.match(r.allowedBy, /spec \d/, r.variant);
  });

  it('a robust client survives every variant', () => {
    for (const r of robust)
      assert.ok(r.passed, `${r.variant}: ${r.verdict}; ${r.differences.join('; ')}\n${log('robust', r.variant)}`);
    const rows = byVariant(robust);
    assert.match(rows.throttled?.differences.join() ?? '', /answered 429 with Retry-After/);
  });

  it('a brittle client fails exactly the variants that break its assumptions, and each row says why', () => {
    const rows = byVariant(brittle);
    assert.ok(rows.default?.passed, `the plain mock: ${rows.default?.verdict}\n${log('brittle', 'default')}`);
    assert.deepEqual(
      brittle.filter((r) => !r.passed).map((r) => r.variant),
      ['different', 'throttled', 'open-choices', 'eventual', 'offer-versions'],
    );
    assert.match(log('brittle', 'different'), /expected 200, got 201/);
    assert.match(log('brittle', 'throttled'), /answered 429/);
    assert.match(log('brittle', 'eventual'), /expected 200, got 202/);
    assert.match(log('brittle', 'offer-versions'), /expected 200, got 201/);
    for (const r of brittle.filter((x) => !x.passed)) assert.match(r.verdict, /the command exited 1/);
  });

  it('a row it did not survive names where the client gave up: the first answer that differed, its last request, its own words', () => {
    const rows = byVariant(brittle);
    const different = rows.different?.gaveUp;
    assert.match(
      different?.firstDifference ?? '',
      /^exchange 1 \(different\.yaml:\d+\): POST \/offers answered 201, where the plain run's exchange 1 \(POST \/offers\) answered 200$/,
    );
    assert.match(different?.lastRequest ?? '', /^POST \/offers \(different\.yaml:\d+\), answered 201$/);
    assert.equal(different?.clientSaid, 'brittle client: expected 200, got 201');
    const throttled = rows.throttled?.gaveUp;
    assert.match(
      throttled?.firstDifference ?? '',
      /^exchange \d+ \(throttled\.yaml:\d+\): GET \/billingGroups answered 429, where the plain run's exchange \d+ \(GET \/billingGroups\) answered 200$/,
    );
    assert.equal(throttled?.clientSaid, 'brittle client: GET /billingGroups answered 429');
    for (const r of robust) assert.equal(r.gaveUp, undefined, `${r.variant} survived: nothing to say`);
    const line = clientSaid(`starting\nusing token tok-123\nError: token tok-123 refused\ndone\n`, ['tok-123']);
    assert.equal(line, 'Error: token [REDACTED] refused', 'the last line that reads like an error, the token redacted');
  });
});
