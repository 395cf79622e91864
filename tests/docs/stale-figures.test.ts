/**
 * Figures that change with every commit and that no test measures go stale
 * unseen (docs/install.md once gave 350 kB and 504 files for a package of
 * 427 kB and 582 files). The install guide names the command that prints the
 * package's size instead of a number.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../runner/helpers.ts';

test('docs/install.md states no package size or file count; it names the command that prints them', () => {
  const text = readFileSync(join(ROOT, 'docs/install.md'), 'utf8');
  const figures = text.match(/\b\d[\d.,]*\s*(?:kB|MB|GB|files|packages)\b/g) ?? [];
  assert.deepEqual(figures, [], 'a size nothing measures goes stale: name `npm pack --dry-run` instead');
  assert.match(text, /npm pack --dry-run/);
});
