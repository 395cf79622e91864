/** The suites are the folders of suites/ that hold *.spec.ts files (*.spec.js in the built package), run as one Playwright project. */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODE_EXT } from '../specs/tool-files.ts';

export const SUITES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'suites');
const NOT_SUITES = new Set(['lib', 'generators']);

export function suiteNames(dir = SUITES_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => !NOT_SUITES.has(name) && statSync(join(dir, name)).isDirectory())
    .filter((name) => readdirSync(join(dir, name)).some((f) => f.endsWith(`.spec${CODE_EXT}`)))
    .sort();
}

/** The one Playwright project every suite runs in (playwright.config.ts). */
export const SUITES_PROJECT = 'suites';

/**
 * Playwright's file filter for one suite: a regular expression (an argument written `/…/`) matching its folder's
 * absolute path, so a checkout that sits under some other `suites/contract/` folder matches nothing extra.
 */
export function suiteFileFilter(name: string, dir = SUITES_DIR): string {
  return `/${`${join(dir, name)}${sep}`.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/`;
}
