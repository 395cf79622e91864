/**
 * `npm run build`, run by `prepack`: the package's dist/, which the installed `flis` runs (bin/flis.js). tsc
 * compiles every source folder (tsconfig.build.json: all *.ts but tests/, bench/, scripts/ and fixtures) to
 * JavaScript with type declarations, rewriting the sources' `.ts` imports to `.js`; then every other file of those
 * folders but Markdown (the contract's YAML, the JSON Schemas: what the code reads beside itself at run time) is
 * copied into the same places. Which folders are source folders is read from what tsc emitted, so a new folder
 * needs no change here.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(ROOT, 'dist');

/**
 * Every file of a source folder but its code and its prose is one the code may read at run time from beside itself
 * (readFileSync of a path made from import.meta.url): today the contract's YAML and the JSON Schemas.
 */
const NOT_ASSETS = new Set(['.ts', '.md']);
/** Folders inside source folders that only the project's tests use. */
const NOT_SHIPPED = new Set(['fixtures', 'node_modules']);

function compile(): void {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed (exit ${r.status ?? r.signal})`);
}

function assets(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return NOT_SHIPPED.has(name) ? [] : assets(full);
    return NOT_ASSETS.has(extname(name)) || name.startsWith('.') ? [] : [full];
  });
}

/** Copies the assets of every folder tsc emitted code for; returns how many. */
function copyAssets(): number {
  const folders = readdirSync(DIST).filter((name) => statSync(join(DIST, name)).isDirectory());
  const files = folders.flatMap((folder) => assets(join(ROOT, folder)));
  for (const file of files) {
    const to = join(DIST, relative(ROOT, file));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(file, to);
  }
  return files.length;
}

export function build(): void {
  rmSync(DIST, { recursive: true, force: true });
  compile();
  const copied = copyAssets();
  if (!existsSync(join(DIST, 'cli', 'main.js'))) throw new Error('build: dist/cli/main.js was not made');
  console.log(`build: ${relative(ROOT, DIST)}/ compiled, ${copied} asset files copied`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) build();
