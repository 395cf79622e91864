/**
 * regress/ids.ts, an id shape a row: what shape an id has, and how the id map chains a recorded id onto the target's
 * (sent forward, read back, a change of shape reported once per place), tags an id the partner chose, and blocks a
 * request whose id the target never gave.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IdMap, type IdShape, idShape, idsIn, isIdKey } from '../../regress/ids.ts';

const SHAPES: { id: string; shape: IdShape }[] = [
  { id: '3f2b8c1e-9a4d-4e2f-8b1a-0c9d8e7f6a5b', shape: 'uuid' },
  { id: '3F2B8C1E-9A4D-4E2F-8B1A-0C9D8E7F6A5B', shape: 'uuid' },
  { id: '42', shape: 'numeric' },
  { id: '007', shape: 'numeric' },
  { id: 'off-1', shape: 'other' },
  { id: '3f2b8c1e9a4d4e2f8b1a0c9d8e7f6a5b', shape: 'other' },
  { id: '-1', shape: 'other' },
  { id: '4.2', shape: 'other' },
];

for (const { id, shape } of SHAPES)
  test(`idShape('${id}') is ${shape}`, () => {
    assert.equal(idShape(id), shape);
  });

const KEYS: { key: string; id: boolean }[] = [
  { key: 'id', id: true },
  { key: 'offerId', id: true },
  { key: 'billingGroupIds', id: true },
  { key: 'Id', id: false },
  { key: 'identity', id: false },
  { key: 'humanReadableId', id: true },
  { key: 'paid', id: false },
];

for (const { key, id } of KEYS)
  test(`isIdKey('${key}') is ${id}`, () => {
    assert.equal(isIdKey(key), id);
  });

const ORIGIN = { seq: 1, line: 10, operationId: 'createOffer' };

/** A recorded id chained onto the target's: a change of shape is reported, the same shape is not. */
const CHAINS: { recorded: string; now: string; formatChange: boolean }[] = [
  { recorded: 'off-1', now: 'off-9', formatChange: false },
  { recorded: '42', now: '43', formatChange: false },
  { recorded: '42', now: '3f2b8c1e-9a4d-4e2f-8b1a-0c9d8e7f6a5b', formatChange: true },
  { recorded: '3f2b8c1e-9a4d-4e2f-8b1a-0c9d8e7f6a5b', now: 'off-9', formatChange: true },
  { recorded: 'off-1', now: 'off-1', formatChange: false },
];

for (const c of CHAINS)
  test(`a recorded ${idShape(c.recorded)} id answered as a ${idShape(c.now)} one: sent forward, read back, ${c.formatChange ? 'a format change' : 'no format change'}`, () => {
    const ids = new IdMap('run1');
    const pairing = ids.pair({ id: c.recorded }, { id: c.now }, true, new Set());
    assert.deepEqual(pairing, { pairs: [{ pointer: '/id', recorded: c.recorded, now: c.now }], missing: [] });
    const changes = ids.commit(pairing, ORIGIN);
    assert.deepEqual(changes, c.formatChange ? [{ pointer: '/id', recorded: c.recorded, now: c.now }] : []);
    assert.equal(ids.forward(c.recorded), c.now);
    assert.equal(ids.backward(c.now), c.recorded);
  });

test('a list of recorded ids of one shape answered in another: one format change for the place, every id chained', () => {
  const ids = new IdMap('run1');
  const recorded = [{ id: '1' }, { id: '2' }];
  const now = [{ id: 'a1' }, { id: 'a2' }];
  const changes = ids.commit(ids.pair(recorded, now, true, new Set()), ORIGIN);
  assert.deepEqual(changes, [{ pointer: '/*/id', recorded: '1', now: 'a1' }]);
  assert.deepEqual([ids.forward('1'), ids.forward('2')], ['a1', 'a2']);
});

test('an id the target answers at another place is paired by value, not by place', () => {
  const ids = new IdMap('run1');
  const p = ids.pair({ id: 'off-1' }, { items: [{ offerId: 'off-1' }] }, true, new Set());
  assert.deepEqual(p.pairs, [{ pointer: '/id', recorded: 'off-1', now: 'off-1' }]);
});

test("an id the partner sent before is the partner's, not an answer's: it is not paired", () => {
  const ids = new IdMap('run1');
  assert.deepEqual(ids.pair({ id: 'mine' }, { id: 'theirs' }, true, new Set(['mine'])), { pairs: [], missing: [] });
});

const MISSING: { answer: unknown; ok: boolean; why: string }[] = [
  { answer: {}, ok: true, why: 'its answer has no /batchId' },
  { answer: { batchId: '' }, ok: true, why: 'its answer has no /batchId' },
  { answer: undefined, ok: false, why: 'its answer was not a success' },
];

for (const m of MISSING)
  test(`a recorded id the target did not give (${m.why}): a later request that uses it is blocked by its exchange`, () => {
    const ids = new IdMap('run1');
    ids.commit(ids.pair({ batchId: 'b-1' }, m.answer, m.ok, new Set()), ORIGIN);
    assert.deepEqual(ids.missing('b-1'), { origin: { ...ORIGIN, pointer: '/batchId' }, why: m.why });
    assert.equal(ids.forward('b-1'), 'b-1');
  });

const TAGS: { recorded: string; now: string }[] = [
  { recorded: 'my-offer', now: 'run1-my-offer' },
  { recorded: '42', now: 'run1-42' },
  { recorded: 'run1-already', now: 'run1-already' },
];

for (const t of TAGS)
  test(`an id the partner chose, '${t.recorded}', is written as '${t.now}' and read back as '${t.recorded}'`, () => {
    const ids = new IdMap('run1');
    assert.equal(ids.tag(t.recorded), t.now);
    assert.equal(ids.tag(t.recorded), t.now, 'tagged once');
    assert.equal(ids.forward(t.recorded), t.now);
    assert.equal(ids.backward(t.now), t.recorded);
  });

test('idsIn finds every string at an id key, arrays of ids included, and no empty one', () => {
  assert.deepEqual(idsIn({ id: 'a', billingGroupIds: ['g1', 'g2'], nested: { offerId: '' }, name: 'x' }), [
    { pointer: '/id', value: 'a' },
    { pointer: '/billingGroupIds/0', value: 'g1' },
    { pointer: '/billingGroupIds/1', value: 'g2' },
  ]);
});
