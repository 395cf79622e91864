/**
 * What the docs name is in the tree. Every path of the repository that README.md, docs/*.md or a comment of the
 * product's source names exists (a link resolved from its page); every `--flag` the docs name is one of flis's own
 * (its commands, the bench, `npm test`) or one of another tool's, listed below by tool; every FLIS_* name the docs
 * name is read or set somewhere in the tree. docs/benchmarks-archive.md is left out: it records what was true then.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../runner/helpers.ts';

const HISTORY = 'docs/benchmarks-archive.md';

const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)
    .filter((f) => f !== HISTORY),
];

/** What git ignores at the top (node_modules/, reports/, dist/, …): a run's output, no part of the repository. */
const IGNORED = new Set(
  readFileSync(join(ROOT, '.gitignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim().replace(/^\//, '').replace(/\/$/, ''))
    .filter((l) => l !== '' && !l.includes('*')),
);

/** The repository's top folders: a path the docs name starts with one of them. */
const TOPS = readdirSync(ROOT).filter(
  (n) => (!n.startsWith('.') || n === '.ci') && !IGNORED.has(n) && statSync(join(ROOT, n)).isDirectory(),
);

/** Folders whose files are flis's own code (its commands, the suites, the bench, `npm test`). */
const PRODUCT = TOPS.filter((t) => !['docs', 'tests', '.ci'].includes(t));

function files(dir: string, ext: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (d.name === 'node_modules' || d.name === 'fixtures') return [];
    const full = join(dir, d.name);
    return d.isDirectory() ? files(full, ext) : ext.test(d.name) ? [full] : [];
  });
}

const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** A path under a top folder; `<suite>`, `{id}` and `*` mark a pattern, not one path. */
const PATH = new RegExp(`(?<![\\w./-])((?:${TOPS.map((t) => t.replace('.', '\\.')).join('|')})/[\\w./<>{}*-]*)`, 'g');
const PATTERN = /[<>{}*]/;

/** A path into what git ignores below the top (tools/mutation/.node/, a tool's own install): made by a run. */
const ignoredBelowTop = (p: string) => [...IGNORED].some((i) => i.includes('/') && (p === i || p.startsWith(`${i}/`)));

function namedPaths(file: string): string[] {
  return [...text(file).matchAll(PATH)]
    .map((m) => m[1]!.replace(/[.,:;)]+$/, ''))
    .filter((p) => !PATTERN.test(p) && !ignoredBelowTop(p.replace(/\/$/, '')));
}

test('every path of the repository the docs name exists, and every link between pages leads to a file', () => {
  const missing: string[] = [];
  for (const doc of DOCS) {
    for (const p of namedPaths(doc)) if (!existsSync(join(ROOT, p))) missing.push(`${doc}: ${p}`);
    for (const m of text(doc).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      const link = m[1]!;
      const p = normalize(join(dirname(doc), link));
      // A web address, or ../shared/ beside the clone (the spec): not the repository's.
      if (/^[a-z]+:/.test(link) || p.startsWith('..')) continue;
      if (!existsSync(join(ROOT, p))) missing.push(`${doc}: link ${link}`);
    }
  }
  assert.deepEqual(missing, [], 'name the file as it is now, or drop the line');
});

test('every path of the repository a comment of the source names exists', () => {
  const missing = PRODUCT.flatMap((top) => files(join(ROOT, top), /\.(ts|mjs|js)$/))
    .map((f) => f.slice(ROOT.length + 1))
    .flatMap((f) =>
      namedPaths(f)
        .filter((p) => /\.\w+$/.test(p) && !existsSync(join(ROOT, p)))
        .map((p) => `${f}: ${p}`),
    );
  assert.deepEqual(missing, [], 'name the file as it is now');
});

/** The flags of other tools the docs show, by tool: each must be that tool's, never a flis flag gone stale. */
const OTHER_TOOLS: Record<string, readonly string[]> = {
  node: ['import', 'test'],
  npm: ['dry-run', 'no-save', 'no-package-lock', 'prefix'],
  'openapi-typescript': ['empty-objects-unknown', 'default-non-nullable'],
  'pg_dump, pg_restore': ['format', 'file', 'no-owner', 'dbname'],
};

test("every --flag the docs name is one of flis's own, or another tool's named in this test", () => {
  // npm run mutation's flags are tools/mutation's own.
  const ours = ['cli', 'config', 'net', 'bench', 'scripts', 'tools']
    .flatMap((top) => files(join(ROOT, top), /\.ts$/))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  const others = new Set(Object.values(OTHER_TOOLS).flat());
  const unknown = new Set<string>();
  for (const doc of DOCS)
    for (const m of text(doc).matchAll(/(?<![\w-])--([a-z][a-z0-9-]*[a-z0-9])/g)) {
      const flag = m[1]!;
      if (!others.has(flag) && !ours.includes(`'${flag}'`) && !ours.includes(`--${flag}`))
        unknown.add(`${doc}: --${flag}`);
    }
  assert.deepEqual([...unknown], [], 'no command of flis takes these flags');
});

test('every FLIS_* name the docs name is read or set somewhere in the tree', () => {
  const tree = [...TOPS.filter((t) => t !== 'docs'), '.ci']
    .flatMap((top) => files(join(ROOT, top), /\.(ts|mjs|js|yaml)$|^run$/))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  const unknown = new Set<string>();
  for (const doc of DOCS)
    for (const m of text(doc).matchAll(/\bFLIS_[A-Z0-9_]*[A-Z0-9]/g)) {
      // FLIS_PRODUCTION_N_TOKEN: N stands for a number (production-1..3).
      const name = new RegExp(`\\b${m[0].replace(/_N_/g, '_\\d+_')}\\b`);
      if (!name.test(tree)) unknown.add(`${doc}: ${m[0]}`);
    }
  assert.deepEqual([...unknown], [], 'nothing in the tree reads or sets these names');
});
