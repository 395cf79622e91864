/**
 * The contract check of one exchange: a body with many violations lists the
 * first few, each with its JSON pointer, rule and clause, and counts the rest
 * in one more entry; a large list is judged in slices with pauses between them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedRequest, RecordedResponse } from '../../recorder/cassette-format.ts';
import {
  checkExchange,
  checkExchangeInSlices,
  MAX_SCHEMA_VIOLATIONS,
  violationCount,
} from '../../recorder/contract-check.ts';
import { ITEMS_PER_SLICE, validate } from '../../schemas/registry.ts';

function listOffers(items: unknown[]): { request: RecordedRequest; response: RecordedResponse } {
  const text = JSON.stringify(items);
  return {
    request: { method: 'GET', path: '/offers', query: {}, headers: {}, body: null },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { encoding: 'json', value: items, size: Buffer.byteLength(text), truncated: false },
      timing: { durationMs: 1, firstByteMs: 1 },
    },
  };
}

const input = (items: unknown[]) => ({ ...listOffers(items), authorization: 'Bearer t', upstreamFailed: false });

describe('the contract check of a body with many violations', () => {
  const items = Array.from({ length: 50 }, () => ({}));
  const expected = validate('offer-list', items).violations;
  const { violations } = checkExchange(input(items));
  const schemaOnes = violations.filter((v) => v.check === 'response-schema');

  it(`lists the first ${MAX_SCHEMA_VIOLATIONS}, each with its pointer, rule and clause`, () => {
    const listed = schemaOnes.filter((v) => v.more === undefined);
    assert.equal(listed.length, MAX_SCHEMA_VIOLATIONS);
    assert.deepEqual(
      listed.map((v) => [v.pointer, v.schemaPath]),
      expected.slice(0, MAX_SCHEMA_VIOLATIONS).map((v) => [v.pointer, v.schemaPath]),
    );
    for (const v of listed) {
      assert.equal(v.clause, 'spec 4.1', `clause of ${v.message}`);
      assert.equal(v.operationId, 'listOffers');
      assert.match(v.message, /^\/0: must have required property '\w+'$/);
    }
  });

  it('counts the rest in one entry that says how many were not listed, at least', () => {
    const rest = schemaOnes.filter((v) => v.more !== undefined);
    assert.equal(rest.length, 1, 'one "and N more" entry');
    // The first item fills the cap; its other errors are counted, then each further invalid item once.
    const perItem = validate('offer', {}).violations.length;
    const more = perItem - MAX_SCHEMA_VIOLATIONS + (items.length - 1);
    assert.equal(rest[0]!.more, more);
    assert.equal(rest[0]!.atLeast, true);
    assert.match(rest[0]!.message, new RegExp(`^and at least ${more} more violation`));
    assert.equal(rest[0]!.pointer, '');
    assert.equal(rest[0]!.clause, 'spec 4.1');
    const counted = schemaOnes.reduce((n, v) => n + violationCount(v), 0);
    assert.ok(counted <= expected.length, `${counted} counted, ${expected.length} there`);
  });

  it('has no "more" entry when every violation is listed', () => {
    const few = checkExchange(input([{ ...{}, id: 7 }])).violations.filter((v) => v.check === 'response-schema');
    const all = validate('offer-list', [{ id: 7 }]).violations.length;
    assert.equal(few.filter((v) => v.more !== undefined).length, all > MAX_SCHEMA_VIOLATIONS ? 1 : 0);
    const one = checkExchange(input([])).violations.filter((v) => v.check === 'response-schema');
    assert.deepEqual(one, [], 'an empty list is valid');
  });
});

describe('the check of a large list, in slices', () => {
  it('pauses between slices of items and reaches the same verdict as the check at once', () => {
    const items = Array.from({ length: ITEMS_PER_SLICE * 4 + 3 }, (_, i) => (i % 2 ? {} : { id: i }));
    const steps = checkExchangeInSlices(input(items));
    let pauses = 0;
    let r = steps.next();
    while (!r.done) {
      pauses += 1;
      r = steps.next();
    }
    assert.equal(pauses, 4, 'one pause after each full slice of items');
    assert.deepEqual(r.value.violations, checkExchange(input(items)).violations);
  });
});
