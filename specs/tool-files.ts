/**
 * Where the tool's own files are. flis runs two ways with one layout: from a clone, the TypeScript sources through
 * tsx (code root = the clone); installed from the package, the JavaScript that `npm pack` built into dist/ (code
 * root = dist/, beside the package's package.json). Below the code root both hold the same folders: specs/,
 * schemas/, suites/, playwright.config. Code that names a file of ours by path asks here.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True in the built package (this module is a .js file), false when the sources run. */
export const COMPILED = !import.meta.url.endsWith('.ts');

/** The extension of our code files where they run: playwright.config, the suites' *.spec files. */
export const CODE_EXT = COMPILED ? '.js' : '.ts';

/** The folder holding specs/, suites/, playwright.config: the clone, or the package's dist/. */
export const CODE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The folder holding package.json: the clone, or the installed package (node_modules/flis-conformance). */
export const PACKAGE_ROOT = COMPILED ? dirname(CODE_ROOT) : CODE_ROOT;

/**
 * The usual place for a package's derived files (the contract parsed once): node_modules/.cache/flis-conformance
 * of the node_modules that holds our dependencies. Installed, that is the partner's node_modules, not a
 * node_modules folder made inside the package.
 */
export const CACHE_DIR = join(
  basename(dirname(PACKAGE_ROOT)) === 'node_modules' ? dirname(PACKAGE_ROOT) : join(PACKAGE_ROOT, 'node_modules'),
  '.cache',
  'flis-conformance',
);

/** A code file by its path below the code root without extension, e.g. codeFile('playwright.config'). */
export function codeFile(path: string): string {
  return join(CODE_ROOT, `${path}${CODE_EXT}`);
}

let tool: { name: string; version: string } | undefined;

/** The tool's name and version, from its package.json: said in certificates, cassettes, HAR files and --version. */
export function toolPackage(): { name: string; version: string } {
  if (!tool) {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    tool = { name: pkg.name, version: pkg.version };
  }
  return tool;
}
