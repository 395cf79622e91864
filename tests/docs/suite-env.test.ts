/**
 * docs/architecture.md's environment contract is the code's: the FLIS_ variables the suites and playwright.config.ts
 * read are exactly those of its table, and the files of suites/ that read the environment themselves, rather than
 * through suites/lib/target.ts, are exactly those it names.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
const section = DOC.slice(DOC.indexOf('## Environment contract'), DOC.indexOf('## How a check reports'));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? files(full) : name.endsWith('.ts') ? [full] : [];
  });
}

const sources = [...files(join(ROOT, 'suites')), join(ROOT, 'playwright.config.ts')];

test('the table lists every FLIS_ variable the suites and playwright.config.ts read, and no other', () => {
  const read = new Set(sources.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/FLIS_[A-Z_]+/g)].map((m) => m[0])));
  const rows = section.split('\n').filter((l) => l.startsWith('| `FLIS_'));
  const listed = new Set(rows.flatMap((l) => [...(l.split('|')[1] ?? '').matchAll(/FLIS_[A-Z_]+/g)].map((m) => m[0])));
  assert.deepEqual(
    [...read].filter((v) => !listed.has(v)).map((v) => `docs/architecture.md: add a row for ${v}`),
    [],
  );
  assert.deepEqual(
    [...listed].filter((v) => !read.has(v)).map((v) => `docs/architecture.md: ${v} is read by no suite`),
    [],
  );
});

test('the files of suites/ that read the environment themselves are the ones the page names', () => {
  const readers = files(join(ROOT, 'suites'))
    .filter((f) => /process\.env\b/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(join(ROOT, 'suites', 'lib'), f))
    .filter((f) => f !== 'target.ts')
    .sort();
  const named = [...section.matchAll(/`([a-z-]+\.ts)` \(`FLIS_/g)].map((m) => m[1]!).sort();
  assert.deepEqual(readers, named, 'docs/architecture.md: the files that read process.env besides target.ts');
});
