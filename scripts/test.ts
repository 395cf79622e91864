/**
 * `npm test`: the typecheck, the import rules, then every tests/**\/*.test.ts
 * under node's test runner. One command, so CI and a developer run the same thing.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) return name === 'fixtures' ? [] : testFiles(full);
      return name.endsWith('.test.ts') ? [full] : [];
    })
    .sort();
}

function step(title: string, command: string, args: string[]): void {
  console.log(`\n== ${title}`);
  const r = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`${title} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

const only = process.argv.slice(2);
const files = only.length ? only : testFiles(join(ROOT, 'tests')).map((f) => relative(ROOT, f));
step('typecheck (tsc --noEmit, strict)', process.execPath, [
  join(ROOT, 'node_modules/typescript/bin/tsc'),
  '-p',
  'tsconfig.json',
  '--noEmit',
]);
step('lint and format (biome ci)', process.execPath, [
  join(ROOT, 'node_modules/@biomejs/biome/bin/biome'),
  'ci',
  '--reporter=summary',
  '.',
]);
step('import rules (scripts/check-imports.ts)', process.execPath, ['--import', 'tsx', 'scripts/check-imports.ts']);
step(`tests (${files.length} files)`, process.execPath, [
  '--import',
  'tsx',
  '--test',
  '--test-reporter=spec',
  ...files,
]);
