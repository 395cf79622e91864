/**
 * The import rules have one source, `ALLOWED` of scripts/check-imports.ts: docs/architecture.md's table must say the
 * same, every allowance must be used (but `net`, used by branches being merged), the rule below the top folder
 * (a suite never imports another suite) must hold, and `checkAll(root)` must judge the tree at `root`; the tree has no
 * import circle and no arrow up inside suites/, and both are found where they are.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { ALLOWED, arrowsUp, checkAll, importCircles } from '../../scripts/check-imports.ts';
import { ROOT } from '../runner/helpers.ts';

const DOC = 'docs/architecture.md';
/** Allowed though no file on this branch uses it yet. */
const UNUSED_ON_PURPOSE = new Set(['net']);

/** folder → its "may import" cell, from the table of docs/architecture.md. */
function documentedRules(): Map<string, string[] | 'everything'> {
  const text = readFileSync(join(ROOT, DOC), 'utf8');
  const rules = new Map<string, string[] | 'everything'>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').slice(1, -1);
    const folder = /^\s*`([a-z-]+)\/`\s*$/.exec(cells[0] ?? '')?.[1];
    if (!folder || cells.length < 3) continue;
    const cell = cells.at(-1)!.trim();
    if (cell.startsWith('everything')) rules.set(folder, 'everything');
    else
      rules.set(
        folder,
        [...cell.matchAll(/`([a-z-]+(?:\/[a-z-]+)?)\/`/g)].map((m) => m[1]!),
      );
  }
  return rules;
}

function cell(folders: string[]): string {
  return folders.length ? folders.map((f) => `\`${f}/\``).join(', ') : 'nothing of ours';
}

test(`${DOC}'s import table says what ALLOWED of scripts/check-imports.ts says`, () => {
  const documented = documentedRules();
  const problems: string[] = [];
  for (const [folder, allowed] of Object.entries(ALLOWED)) {
    const doc = documented.get(folder);
    if (doc === undefined)
      problems.push(`${DOC}: add a row for \`${folder}/\` whose "may import" is: ${cell(allowed)}`);
    else if (doc === 'everything' || [...doc].sort().join() !== [...allowed].sort().join())
      problems.push(`${DOC}: the "may import" of \`${folder}/\` must read: ${cell(allowed)}`);
  }
  for (const folder of documented.keys())
    if (!(folder in ALLOWED) && folder !== 'tests')
      problems.push(`${DOC}: \`${folder}/\` has no rule in ALLOWED: add it there, or drop its row`);
  assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
});

/** Which folders each folder's files import today, from the import specifiers of the tree. */
function usedEdges(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const folder of Object.keys(ALLOWED)) edges.set(folder, new Set());
  // checkAll with nothing allowed reports every import that leaves its folder.
  const saved = Object.fromEntries(Object.entries(ALLOWED).map(([k, v]) => [k, [...v]]));
  try {
    for (const k of Object.keys(ALLOWED)) ALLOWED[k] = [];
    for (const v of checkAll())
      if (!v.from.includes('/')) {
        edges.get(v.from)?.add(v.to);
        if (v.sub !== undefined) edges.get(v.from)?.add(`${v.to}/${v.sub}`);
      }
  } finally {
    for (const [k, v] of Object.entries(saved)) ALLOWED[k] = v;
  }
  return edges;
}

test('every allowance of ALLOWED is used by some import (but net/)', () => {
  const edges = usedEdges();
  const unused = Object.entries(ALLOWED).flatMap(([from, allowed]) =>
    allowed
      .filter((to) => !edges.get(from)?.has(to) && !UNUSED_ON_PURPOSE.has(to) && !UNUSED_ON_PURPOSE.has(from))
      .map((to) => `no file of ${from}/ imports ${to}/: drop '${to}' from ALLOWED.${from} (and from ${DOC})`),
  );
  assert.deepEqual(unused, []);
});

const tree = mkdtempSync(join(tmpdir(), 'flis-import-rules-'));
after(() => rmSync(tree, { recursive: true, force: true }));

function write(file: string, text: string): void {
  mkdirSync(dirname(join(tree, file)), { recursive: true });
  writeFileSync(join(tree, file), text);
}

test('checkAll(root) judges the tree at root: a folder rule, a suite importing another suite, the plumbing or past the front door', () => {
  write('mock/server.ts', "import { x } from '../suites/lib/x.ts';\n");
  write('core/poll.ts', 'export const poll = 1;\n');
  write('suites/lib/x.ts', "export { poll } from '../../core/poll.ts';\nexport const x = 1;\n");
  write('suites/lib/index.ts', "export { poll, x } from './x.ts';\n");
  write('suites/lib/world/world.ts', "import { x } from '../x.ts';\nexport const w = x;\n");
  write('suites/generators/g.ts', 'export const g = 1;\n');
  write('suites/offers/api.ts', "import { x } from '../lib/index.ts';\nimport { g } from '../generators/g.ts';\n");
  write(
    'suites/billing/b.spec.ts',
    "import { x } from '../lib/index.ts';\n\nimport { api } from '../offers/api.ts';\n",
  );
  write('suites/records/r.spec.ts', "import { poll } from '../../core/poll.ts';\nimport { x } from '../lib/x.ts';\n");
  write('suites/model/m.spec.ts', "import { w } from '../lib/world/world.ts';\n");
  write('suites/model/n.spec.ts', "import { w } from '../lib/world/index.ts';\n");
  write('runner/d.ts', "import { g } from '../suites/generators/g.ts';\nimport { x } from '../suites/lib/x.ts';\n");
  const found = checkAll(tree).map((v) => `${v.file}:${v.line} ${v.from} -> ${v.to}`);
  assert.deepEqual(found.sort(), [
    'mock/server.ts:1 mock -> suites',
    'runner/d.ts:2 runner -> suites',
    'suites/billing/b.spec.ts:3 suites/billing -> suites/offers',
    'suites/model/m.spec.ts:1 suites/model -> suites/lib/world',
    'suites/records/r.spec.ts:1 suites/records -> core',
    'suites/records/r.spec.ts:2 suites/records -> suites/lib',
  ]);
});

test('the tree has no import circle and no arrow up inside suites/', () => {
  assert.deepEqual(importCircles(), [], 'give what the files of a circle share a file of its own');
  assert.deepEqual(arrowsUp(), [], 'of two folders of one parent inside suites/, one imports the other, never both');
});

test('importCircles and arrowsUp find them: a type circle, an arrow up, and a spec on top of its folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'flis-import-circles-'));
  try {
    const put = (file: string, text: string) => {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    };
    put('recorder/errors.ts', "import type { Holder } from './lock.ts';\nexport type E = Holder;\n");
    put('recorder/lock.ts', "import { type E } from './errors.ts';\nexport interface Holder { e?: E }\n");
    put('suites/lib/cleanup.ts', "import { wait } from './offers/visible.ts';\nexport const c = wait;\n");
    put('suites/lib/offers/visible.ts', "import { poll } from '../poll.ts';\nexport const wait = poll;\n");
    put('suites/lib/poll.ts', 'export const poll = 1;\n');
    put('suites/lib/index.ts', "export { wait } from './offers/visible.ts';\n");
    put('suites/lifecycle/lifecycle.spec.ts', "import { c } from './commands/create.ts';\nexport const s = c;\n");
    put('suites/lifecycle/commands/create.ts', "import { m } from '../model.ts';\nexport const c = m;\n");
    put('suites/lifecycle/model.ts', 'export const m = 1;\n');
    assert.deepEqual(importCircles(root), [['recorder/errors.ts', 'recorder/lock.ts']]);
    assert.deepEqual(
      arrowsUp(root).map((a) => `${a.parent}: ${a.rooms.join(' <-> ')}`),
      ['suites/lib: . <-> offers'],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
