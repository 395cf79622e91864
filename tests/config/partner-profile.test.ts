/**
 * What a partner says its client integrates (flis certify --require-operations, --partner-profile): every name is
 * an operation of the contract, a mistyped one is answered with the closest, and a profile file is read as YAML or
 * JSON with its mistakes named by file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { operationsFromList, operationsFromProfile } from '../../config/partner-profile.ts';

const dir = mkdtempSync(join(tmpdir(), 'flis-profile-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('--require-operations takes operationIds, once each; a mistyped one gets the closest', () => {
  assert.deepEqual(operationsFromList('listOffers, upsertOffer,listOffers').operations, ['listOffers', 'upsertOffer']);
  assert.throws(
    () => operationsFromList('listOffers,upsertOffr'),
    (e: NodeJS.ErrnoException) =>
      e.code === 'FLIS_ERR_USAGE' && /'upsertOffr' is not an operation .*did you mean 'upsertOffer'\?/.test(e.message),
  );
  assert.throws(() => operationsFromList(' , '), /needs a comma-separated list/);
});

test('a partner profile names its operations in YAML or JSON; a bad one is named by file', () => {
  const yaml = join(dir, 'acme.yaml');
  writeFileSync(yaml, 'partner: Acme\noperations:\n  - listOffers\n  - getBatchRequestsStatus\n');
  assert.deepEqual(operationsFromProfile(yaml), {
    operations: ['listOffers', 'getBatchRequestsStatus'],
    source: `partner profile ${yaml}`,
  });
  const json = join(dir, 'acme.json');
  writeFileSync(json, JSON.stringify({ operations: ['listInvoices'] }));
  assert.deepEqual(operationsFromProfile(json).operations, ['listInvoices']);
  const empty = join(dir, 'empty.yaml');
  writeFileSync(empty, 'partner: Acme\n');
  assert.throws(
    () => operationsFromProfile(empty),
    (e: NodeJS.ErrnoException) => e.code === 'FLIS_ERR_CONFIG' && e.message.startsWith(`${empty}: expected`),
  );
  assert.throws(() => operationsFromProfile(join(dir, 'missing.yaml')), /cannot read it \(ENOENT\)/);
});
