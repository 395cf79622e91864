/**
 * Every check test points at its own spec file and line: Playwright records the
 * line that called test(), so each spec must call test(...checkTest(...)) itself
 * (a bare checkTest(...) call would either declare nothing or point at the helper).
 * The fault tests check the recorded locations in results.json of real runs.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { wrapCheckTests } from '../../scripts/wrap-check-tests.ts';

const SUITES = join(import.meta.dirname, '..', '..', 'suites');

function specFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? specFiles(join(dir, e.name)) : e.name.endsWith('.spec.ts') ? [join(dir, e.name)] : [],
  );
}

test('every spec file calls test() itself for each check', () => {
  const files = specFiles(SUITES);
  assert.ok(files.length > 20, `only ${files.length} spec files found`);
  const bare = files.filter((f) => wrapCheckTests(f, readFileSync(f, 'utf8')) !== readFileSync(f, 'utf8'));
  assert.deepEqual(bare, [], 'spec files with a bare checkTest/contractTest call (run scripts/wrap-check-tests.ts)');
});

test('the rewrite wraps a bare call and imports test, once', () => {
  const before =
    "import { checkTest } from '../lib/check-test.ts';\n\ncheckTest({ check: 'x', clause: 'y' }, async () => {});\n";
  const after = wrapCheckTests('x.spec.ts', before);
  assert.equal(
    after,
    "import { checkTest, test } from '../lib/check-test.ts';\n\ntest(...checkTest({ check: 'x', clause: 'y' }, async () => {}));\n",
  );
  assert.equal(wrapCheckTests('x.spec.ts', after), after);
});
