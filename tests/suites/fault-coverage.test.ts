/**
 * No behaviour change goes unseen: every fault switch of the mock is run by a fault test under tests/suites/, which
 * asserts the exact set of checks that fail on it (fault-owners.ts), and conformant-seeds.test.ts runs the clean mock
 * and its conformant variants. A fault added without a run would be a verdict nothing pins.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { faultNames } from '../../mock/faults.ts';
import { ROOT } from '../runner/helpers.ts';

test('every mock fault is run by a fault test under tests/suites/', () => {
  const dir = join(ROOT, 'tests', 'suites');
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
  assert.deepEqual(
    faultNames.filter((name) => !sources.includes(`'${name}'`)),
    [],
    'faults no test under tests/suites/ runs',
  );
});
