/**
 * Each source folder says what it may import (docs/architecture.md), the way
 * Playwright checks its DEPS: recorder/ never imports suites/, mock/ imports
 * only schemas/. Run in `npm test`; exits 1 naming every file:line that breaks a rule.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Folder → the folders of ours it may import (itself always allowed). */
export const ALLOWED: Record<string, string[]> = {
  errors: [],
  // How flis reaches a deployment (proxy, CAs, client certificates, tokens): used by runner/, recorder/, cli/.
  net: ['errors'],
  schemas: [],
  specs: ['schemas'],
  mock: ['schemas'],
  suites: ['schemas', 'specs', 'errors', 'webhooks'],
  recorder: ['schemas', 'specs', 'errors', 'config', 'net'],
  config: ['specs', 'errors', 'schemas'],
  runner: ['errors', 'schemas', 'specs', 'config', 'mock', 'suites', 'recorder', 'reporting', 'webhooks', 'net'],
  // reporting/ reads cassettes (recorder/) for flis certify and the drift report; the recorder never imports it.
  reporting: ['errors', 'schemas', 'specs', 'config', 'suites', 'recorder'],
  // The webhook receiver: validates deliveries (schemas/) and writes cassettes (recorder/); the webhooks suite uses it.
  webhooks: ['errors', 'schemas', 'specs', 'recorder'],
  cli: ['errors', 'schemas', 'specs', 'config', 'mock', 'suites', 'recorder', 'runner', 'reporting', 'webhooks', 'net'],
  scripts: ['schemas', 'specs', 'errors'],
  // The benchmark measures what the commands do (certify's cassette judgement is in reporting/); nothing imports it.
  bench: ['errors', 'schemas', 'specs', 'config', 'mock', 'recorder', 'runner', 'reporting', 'net'],
};

export interface Violation {
  file: string;
  line: number;
  from: string;
  to: string;
  specifier: string;
}

const IMPORT =
  /(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name.startsWith('.')) return [];
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|js|mjs)$/.test(name) ? [full] : [];
  });
}

function topFolder(file: string): string {
  return relative(ROOT, file).split(sep)[0] ?? '';
}

export function checkFile(file: string): Violation[] {
  const from = topFolder(file);
  const allowed = ALLOWED[from];
  if (!allowed) return [];
  const text = readFileSync(file, 'utf8');
  const out: Violation[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const specifier = m[1] ?? m[2] ?? m[3];
    if (!specifier?.startsWith('.')) continue;
    const to = topFolder(resolve(dirname(file), specifier));
    if (to !== from && !allowed.includes(to)) {
      out.push({ file: relative(ROOT, file), line: text.slice(0, m.index).split('\n').length, from, to, specifier });
    }
  }
  return out;
}

export function checkAll(root = ROOT): Violation[] {
  return Object.keys(ALLOWED)
    .flatMap((folder) => {
      try {
        return sourceFiles(join(root, folder));
      } catch {
        return [];
      }
    })
    .flatMap(checkFile);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const violations = checkAll();
  for (const v of violations)
    console.error(
      `${v.file}:${v.line}: ${v.from}/ may not import ${v.to}/ ('${v.specifier}'); allowed: ${ALLOWED[v.from]?.join(', ') || 'nothing of ours'}`,
    );
  console.log(violations.length ? `import rules: ${violations.length} violation(s)` : 'import rules: ok');
  process.exitCode = violations.length ? 1 : 0;
}
