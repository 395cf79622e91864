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

const SUITES = join(import.meta.dirname, '..', '..', 'suites');

function specFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? specFiles(join(dir, e.name)) : e.name.endsWith('.spec.ts') ? [join(dir, e.name)] : [],
  );
}

/** Calls of checkTest in a spec's source that are not spread straight into test(...). */
function bareCheckTests(source: string): number {
  const calls = source.match(/\bcheckTest\(/g)?.length ?? 0;
  const spread = source.match(/\btest\(\s*\.\.\.checkTest\(/g)?.length ?? 0;
  return calls - spread;
}

test('every spec file calls test() itself for each check', () => {
  const files = specFiles(SUITES);
  assert.ok(files.length > 20, `only ${files.length} spec files found`);
  const bare = files.filter((f) => bareCheckTests(readFileSync(f, 'utf8')) !== 0);
  assert.deepEqual(bare, [], 'spec files with a checkTest call not written as test(...checkTest(meta, body))');
});

test('a bare call is found, a spread one is not', () => {
  const spread = "test(\n  ...checkTest({ check: 'x', clause: 'y' }, async () => {}),\n);\n";
  assert.equal(bareCheckTests(spread), 0);
  assert.equal(bareCheckTests(`${spread}checkTest({ check: 'x', clause: 'y' }, async () => {});\n`), 1);
});
