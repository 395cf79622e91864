/**
 * regress/judge.ts, one class of change a row: a replayed answer against its recording (ids already read back in the
 * recorded ids), and the verdict and finding kinds the judge gives. What the contract leaves open is at most a
 * risk (changed); what breaks it, or breaks a partner that relied on the documented answer, is broken; ids, date-times
 * and a list's order are never counted.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { encodeBody } from '../../recorder/body.ts';
import type { RecordedRequest, RecordedResponse } from '../../recorder/cassette-format.ts';
import { type Answer, type FindingKind, judge, type Verdict, verdictOf } from '../../regress/judge.ts';
import { validate } from '../../schemas/registry.ts';
import { operationById } from '../../specs/contract.ts';
import { ROOT } from '../runner/helpers.ts';

type Json = Record<string, unknown>;

/** A billing group that meets its schema: every required field, a value of its type (spec 2.4). */
function billingGroup(id: string, over: Json = {}): Json {
  const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'billing-group.schema.json'), 'utf8')) as {
    properties: Record<string, { type: string | string[]; format?: string }>;
    required: string[];
  };
  const sample = ({ type, format }: { type: string | string[]; format?: string }): unknown => {
    const first = [type].flat()[0];
    if (format === 'date') return '2026-11-28';
    return first === 'number'
      ? 10
      : first === 'boolean'
        ? false
        : first === 'array'
          ? []
          : first === 'object'
            ? null
            : 'x';
  };
  const group: Json = Object.fromEntries(schema.required.map((k) => [k, sample(schema.properties[k]!)]));
  return { ...group, id, customerId: `customer-${id}`, ...over };
}

interface Row {
  change: string;
  operation: 'getBillingGroup' | 'listBillingGroups';
  recorded: Answer;
  now: Answer;
  verdict: Verdict;
  kinds: FindingKind[];
}

const g1 = billingGroup('g1');
const without = (o: Json, key: string): Json => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));
const ok = (body: unknown, status = 200): Answer => ({ status, body });

const ROWS: Row[] = [
  {
    change: 'the same answer',
    operation: 'getBillingGroup',
    recorded: ok(g1),
    now: ok(g1),
    verdict: 'unchanged',
    kinds: [],
  },
  {
    change: 'another success status of the same class (the exact code is not shown)',
    operation: 'getBillingGroup',
    recorded: ok(g1),
    now: ok(g1, 203),
    verdict: 'changed',
    kinds: ['status-code'],
  },
  {
    change: 'a success became a refusal',
    operation: 'getBillingGroup',
    recorded: ok(g1),
    now: ok(undefined, 404),
    verdict: 'broken',
    kinds: ['status'],
  },
  {
    change: 'a 5xx: the contract check owns it, one finding',
    operation: 'getBillingGroup',
    recorded: ok(g1),
    now: ok(undefined, 500),
    verdict: 'broken',
    kinds: ['contract'],
  },
  {
    change: "a documented field's value",
    operation: 'getBillingGroup',
    recorded: ok(g1),
    now: ok({ ...g1, priceTotal: 12 }),
    verdict: 'changed',
    kinds: ['value'],
  },
  {
    change: 'a documented field gone',
    operation: 'getBillingGroup',
    recorded: ok(g1),
    now: ok(without(g1, 'priceTotal')),
    verdict: 'broken',
    kinds: ['contract', 'documented-field-missing'],
  },
  {
    change: 'a documented field of another type',
    operation: 'getBillingGroup',
    recorded: ok(g1),
    now: ok({ ...g1, priceTotal: '10' }),
    verdict: 'broken',
    // The value differs as well (10 against "10"): shown beside the broken finding, as today.
    kinds: ['contract', 'field-type', 'value'],
  },
  {
    change: 'an undocumented field added',
    operation: 'getBillingGroup',
    recorded: ok(g1),
    now: ok({ ...g1, colour: 'blue' }),
    verdict: 'changed',
    kinds: ['field-added'],
  },
  {
    change: 'an undocumented field gone',
    operation: 'getBillingGroup',
    recorded: ok({ ...g1, colour: 'blue' }),
    now: ok(g1),
    verdict: 'changed',
    kinds: ['field-removed'],
  },
  {
    change: 'an id the target chose otherwise (the id map pairs ids, not the judge)',
    operation: 'getBillingGroup',
    recorded: ok(g1),
    now: ok({ ...g1, customerId: 'another-customer' }),
    verdict: 'unchanged',
    kinds: [],
  },
  {
    change: 'another date-time (a timestamp is never counted)',
    operation: 'getBillingGroup',
    recorded: ok({ ...g1, updatedAt: '2026-11-28T10:00:00Z' }),
    now: ok({ ...g1, updatedAt: '2026-11-28T10:00:05.123+01:00' }),
    verdict: 'unchanged',
    kinds: [],
  },
  {
    change: 'an error body of the same status (not shown, spec 7)',
    operation: 'getBillingGroup',
    recorded: ok({ message: 'no such group' }, 404),
    now: ok({ error: 'not found' }, 404),
    verdict: 'changed',
    kinds: ['error-body', 'error-body'],
  },
  {
    change: "a list's order (left open)",
    operation: 'listBillingGroups',
    recorded: ok([g1, billingGroup('g2')]),
    now: ok([billingGroup('g2'), g1]),
    verdict: 'unchanged',
    kinds: [],
  },
  {
    change: 'an item gone from a list',
    operation: 'listBillingGroups',
    recorded: ok([g1, billingGroup('g2')]),
    now: ok([g1]),
    verdict: 'changed',
    kinds: ['item-removed'],
  },
  {
    change: 'an item added to a list',
    operation: 'listBillingGroups',
    recorded: ok([g1]),
    now: ok([g1, billingGroup('g2')]),
    verdict: 'changed',
    kinds: ['item-added'],
  },
];

function judged(row: Row) {
  const op = operationById(row.operation);
  const bytes = row.now.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(row.now.body));
  const response: RecordedResponse = {
    status: row.now.status,
    headers: { 'content-type': 'application/json' },
    body: encodeBody(bytes, 'application/json'),
    timing: { durationMs: 0, firstByteMs: 0 },
  };
  const path = row.operation === 'getBillingGroup' ? '/billingGroups/g1' : '/billingGroups';
  const request: RecordedRequest = { method: 'GET', path, query: {}, headers: {}, body: null };
  return judge({ operation: op, recorded: row.recorded, response, request, now: row.now, recordedClean: true });
}

test('the billing group the rows start from meets its schema', () => {
  assert.deepEqual(validate('billing-group', g1).violations, []);
});

for (const row of ROWS)
  test(`${row.change}: ${row.verdict}${row.kinds.length ? ` (${row.kinds.join(', ')})` : ''}`, () => {
    const findings = judged(row);
    assert.deepEqual(
      { verdict: verdictOf(findings), kinds: findings.map((f) => f.kind).sort() },
      { verdict: row.verdict, kinds: [...row.kinds].sort() },
      JSON.stringify(findings, null, 1),
    );
  });
