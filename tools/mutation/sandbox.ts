/**
 * The sandbox a mutation run works in: a copy of the checkout's sources in a fresh temporary folder, the files to
 * mutate replaced by their instrumented versions, node_modules linked to the checkout's own. Nothing of the
 * checkout is ever written; the sandbox is removed when the run ends.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What `flis run` does not need: never copied. */
const LEFT_OUT = new Set([
  'node_modules',
  '.git',
  'reports',
  'dist',
  'test-results',
  'playwright-report',
  'blob-report',
  '.flis-tmp',
  'tools',
  'tests',
  'bench',
  'docs',
]);

export interface Sandbox {
  dir: string;
  remove(): void;
}

export function makeSandbox(root: string, instrumented: ReadonlyMap<string, string>): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'flis-mutation-'));
  try {
    for (const name of readdirSync(root))
      if (!LEFT_OUT.has(name) && !name.startsWith('.')) cpSync(join(root, name), join(dir, name), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    for (const [file, content] of instrumented) writeFileSync(join(dir, file), content);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
