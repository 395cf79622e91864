/**
 * The two parties' verdicts (reporting/parties.ts): a client is judged on its
 * traffic and on what the partner says it integrates; a cassette too short
 * for its claim is not certified and says what is missing; a certificate
 * without client traffic does not certify the client.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClientUsage } from '../../reporting/client-usage.ts';
import { clientParty, overallStatus } from '../../reporting/parties.ts';
import { VERDICT_WORDS } from '../../reporting/verdict-words.ts';

function usage(ops: string[], exchanges = ops.length): ClientUsage {
  return {
    exchanges,
    operationsUsed: ops,
    operationsNotUsed: [],
    operationsTotal: 125,
    unknownRequests: [],
    requestFields: { sent: [], notSent: [] },
    flows: [],
  };
}

test('a cassette with fewer exchanges than the operations it claims is not certified, and names what is missing', () => {
  const claim = { operations: ['listOffers', 'upsertOffer', 'getOffer'], source: '--require-operations' };
  const p = clientParty(usage(['listOffers']), [], claim);
  assert.equal(p.status, 'not-certified');
  assert.match(p.reasons.join(), /1 exchange cannot cover the 3 operations claimed .*missing upsertOffer, getOffer/);
  assert.deepEqual(p.required?.missing, ['upsertOffer', 'getOffer']);
});

test('a client whose traffic covers what it claims, with no violation, is certified', () => {
  const p = clientParty(usage(['listOffers', 'getOffer'], 9), [], {
    operations: ['listOffers'],
    source: '--require-operations',
  });
  assert.equal(p.status, 'certified');
  assert.match(
    p.reasons[0] ?? '',
    /9 exchanges, no violation; 2 of 125 operations used, every one of the 1 it integrates/,
  );
});

test('no client traffic: the client is not judged, and the certificate is at best partial', () => {
  const client = clientParty(undefined, [], undefined);
  assert.equal(client.status, 'not-judged');
  const service = {
    status: 'certified' as const,
    reasons: [],
    scope: 'full' as const,
    failures: 0,
    operationsExercised: [],
    operationsNotExercised: [],
    operationsTotal: 125,
  };
  assert.equal(overallStatus({ client, service }, 'certified'), 'partial');
  assert.equal(overallStatus({ client: { ...client, status: 'certified' }, service }, 'certified'), 'certified');
  assert.equal(
    overallStatus({ client: { ...client, status: 'not-certified' }, service }, 'certified'),
    'not-certified',
  );
});

test('one word per verdict, never a hyphenated spelling', () => {
  for (const word of Object.values(VERDICT_WORDS)) assert.doesNotMatch(word, /-/);
});
