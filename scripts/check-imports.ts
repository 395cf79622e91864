/**
 * Each source folder says what it may import (docs/architecture.md), the way
 * Playwright checks its DEPS: recorder/ never imports suites/, mock/ imports
 * only schemas/, a suite never imports another suite. Run in `npm test`; exits 1 naming every file:line that
 * breaks a rule.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Folder → the folders of ours it may import (itself always allowed). Only what some file imports is allowed:
 * `tests/docs/import-rules.test.ts` keeps this equal to the table of docs/architecture.md.
 */
export const ALLOWED: Record<string, string[]> = {
  errors: [],
  // How flis reaches a deployment (proxy, CAs, client certificates, tokens): used by runner/, recorder/, cli/, bench/.
  net: ['errors'],
  schemas: [],
  specs: ['schemas'],
  mock: ['schemas'],
  suites: ['schemas', 'specs', 'errors', 'webhooks'],
  recorder: ['schemas', 'specs', 'errors', 'net'],
  config: ['specs', 'errors'],
  runner: ['errors', 'specs', 'config', 'mock', 'suites', 'recorder', 'reporting', 'net'],
  // reporting/ reads cassettes (recorder/) for flis certify and the drift report; the recorder never imports it.
  reporting: ['errors', 'schemas', 'specs', 'suites', 'recorder'],
  // The webhook receiver: validates deliveries (schemas/) and writes cassettes (recorder/); the webhooks suite uses it.
  webhooks: ['schemas', 'specs', 'recorder'],
  // Replaying partners' cassettes against a release candidate, judged by the contract (flis regress, contract diff).
  regress: ['errors', 'specs', 'recorder', 'reporting', 'suites', 'net'],
  // The certification registry: its server and database, and the client the commands reach it with.
  registry: ['errors', 'recorder', 'reporting'],
  cli: [
    'errors',
    'config',
    'mock',
    'suites',
    'recorder',
    'runner',
    'reporting',
    'webhooks',
    'net',
    'regress',
    'registry',
  ],
  scripts: ['schemas', 'specs'],
  // The benchmark measures what the commands do (certify's cassette judgement is in reporting/); nothing imports it.
  bench: ['mock', 'recorder', 'reporting', 'net', 'regress'],
  // Development tools run apart from the package (npm run mutation): the catalogue, the clause list, owned paths,
  // and the mock's conformant variants (the code only a variant reaches is run against that variant).
  tools: ['errors', 'suites', 'reporting', 'mock'],
};

/**
 * Below the top folder: each folder of suites/ is one suite, and a suite shares code only through suites/lib/ and
 * suites/generators/, never by importing another suite, so a suite can be changed or dropped alone.
 */
export const SHARED_WITHIN: Record<string, string[]> = {
  suites: ['lib', 'generators'],
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

function parts(file: string, root: string): string[] {
  return relative(root, file).split(sep);
}

/** A file of `top/sub/…` importing `top/other/…`, where `top` has rules below it (SHARED_WITHIN). */
function crossesWithin(from: string[], to: string[]): boolean {
  const shared = SHARED_WITHIN[from[0] ?? ''];
  if (!shared || to[0] !== from[0] || to.length < 3 || from[1] === to[1]) return false;
  return !shared.includes(to[1]!);
}

export function checkFile(file: string, root = ROOT): Violation[] {
  const from = parts(file, root);
  const allowed = ALLOWED[from[0] ?? ''];
  if (!allowed) return [];
  const text = readFileSync(file, 'utf8');
  const out: Violation[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const specifier = m[1] ?? m[2] ?? m[3];
    if (!specifier?.startsWith('.')) continue;
    const to = parts(resolve(dirname(file), specifier), root);
    // The match may start on the whitespace before `import`: count lines up to the keyword itself.
    const line = text.slice(0, m.index + m[0].length - m[0].trimStart().length).split('\n').length;
    const where = { file: relative(root, file), line, specifier };
    if (to[0] !== from[0] && !allowed.includes(to[0] ?? '')) out.push({ ...where, from: from[0]!, to: to[0]! });
    else if (crossesWithin(from, to)) out.push({ ...where, from: `${from[0]}/${from[1]}`, to: `${to[0]}/${to[1]}` });
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
    .flatMap((file) => checkFile(file, root));
}

/** What `from` may import, for the message. */
export function allowedFor(from: string): string {
  const [top, sub] = from.split('/');
  if (sub !== undefined) return `${from}/ and ${SHARED_WITHIN[top!]?.map((s) => `${top}/${s}/`).join(', ')}`;
  return ALLOWED[from]?.join(', ') || 'nothing of ours';
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const violations = checkAll();
  for (const v of violations)
    console.error(
      `${v.file}:${v.line}: ${v.from}/ may not import ${v.to}/ ('${v.specifier}'); allowed: ${allowedFor(v.from)}`,
    );
  console.log(violations.length ? `import rules: ${violations.length} violation(s)` : 'import rules: ok');
  process.exitCode = violations.length ? 1 : 0;
}
