/**
 * docs/architecture.md's environment contract is the code's: its table lists exactly the variables of
 * core/suite-env.ts with their defaults, the suites (with the core they run on) and playwright.config.ts read those
 * names and no other, the files of suites/ and core/ that read the environment themselves, rather than through
 * core/target.ts, are exactly those it names, and the variables the runner passes on from its own environment are the ones it lists.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { PLATFORM_ENV_NAMES } from '../../runner/run-suites.ts';
import { FROM_USER_ENV, SUITE_ENV_DEFAULTS, SUITE_ENV_NAMES } from '../../core/suite-env.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
const section = DOC.slice(DOC.indexOf('## Environment contract'), DOC.indexOf('## How a check reports'));
const MODULE = join(ROOT, 'core', 'suite-env.ts');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? files(full) : name.endsWith('.ts') ? [full] : [];
  });
}

/** variable → its default cell, from the rows of the table. */
const table = new Map(
  section
    .split('\n')
    .filter((l) => l.startsWith('| `FLIS_'))
    .map((l) => l.split('|').map((c) => c.trim()))
    .map(([, name = '', dflt = '']) => [name.replaceAll('`', ''), dflt] as const),
);

test('the table lists exactly the variables of core/suite-env.ts', () => {
  const names = new Set<string>(SUITE_ENV_NAMES);
  assert.deepEqual(
    [
      ...SUITE_ENV_NAMES.filter((v) => !table.has(v)).map((v) => `docs/architecture.md: add a row for ${v}`),
      ...[...table.keys()].filter((v) => !names.has(v)).map((v) => `docs/architecture.md: ${v} is no suite variable`),
    ],
    [],
  );
});

test("each row's default is the module's, and a variable without one shows —", () => {
  const wrong = SUITE_ENV_NAMES.flatMap((v) => {
    const want = String(SUITE_ENV_DEFAULTS[v] ?? '—');
    const cell = table.get(v);
    return cell === undefined || cell === want ? [] : [`docs/architecture.md: ${v}'s default is ${want}, not ${cell}`];
  });
  assert.deepEqual(wrong, []);
});

test('the suites, core/ and playwright.config.ts read the variables of core/suite-env.ts and no other', () => {
  const sources = [
    ...files(join(ROOT, 'suites')),
    ...files(join(ROOT, 'core')),
    join(ROOT, 'playwright.config.ts'),
  ].filter((f) => f !== MODULE);
  const read = new Set(sources.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/FLIS_[A-Z_]+/g)].map((m) => m[0])));
  const names = new Set<string>(SUITE_ENV_NAMES);
  assert.deepEqual(
    [
      ...[...read].filter((v) => !names.has(v)).map((v) => `core/suite-env.ts: add ${v}, which a suite reads`),
      ...SUITE_ENV_NAMES.filter((v) => !read.has(v)).map((v) => `core/suite-env.ts: ${v} is read by no suite`),
    ],
    [],
  );
});

test('the files of suites/ and core/ that read the environment themselves are the ones the page names', () => {
  const readers = [...files(join(ROOT, 'suites')), ...files(join(ROOT, 'core'))]
    .filter((f) => /process\.env\b/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(ROOT, f))
    .filter((f) => f !== 'core/target.ts')
    .sort();
  const named = [...section.matchAll(/`([a-z/-]+\.ts)`\s\(`FLIS_/g)].map((m) => m[1]!).sort();
  assert.deepEqual(readers, named, 'docs/architecture.md: the files that read process.env besides target.ts');
});

test("the page names every variable the runner passes on from its own environment, and says they're passed on", () => {
  const paragraph = section.slice(section.indexOf('`core/suite-env.ts` names'), section.indexOf('\n\n| variable'));
  const named = new Set([...paragraph.matchAll(/`([A-Za-z0-9_]+)`/g)].map((m) => m[1]!));
  assert.deepEqual(
    [...PLATFORM_ENV_NAMES, ...FROM_USER_ENV].filter((v) => !named.has(v)),
    [],
    'docs/architecture.md: the environment contract lists what the runner passes on from its own environment',
  );
  const platform = new Set<string>(PLATFORM_ENV_NAMES);
  const listed = paragraph.slice(
    paragraph.indexOf('(`PLATFORM_ENV_NAMES`)'),
    paragraph.indexOf('It sets `FORCE_COLOR`'),
  );
  assert.deepEqual(
    [...listed.matchAll(/`([A-Za-z0-9_]+)`/g)]
      .map((m) => m[1]!)
      .filter((v) => v !== 'PLATFORM_ENV_NAMES' && !platform.has(v)),
    [],
    'docs/architecture.md lists a platform variable runner/run-suites.ts does not pass',
  );
});
