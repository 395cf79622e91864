/**
 * Each source folder says what it may import (docs/architecture.md), the way
 * Playwright checks its DEPS: recorder/ never imports suites/, mock/ imports
 * only schemas/, a suite never imports another suite, nor the plumbing of core/ (it takes what it needs of core/
 * through the front door, suites/lib/index.ts). Run in `npm test`; exits 1 naming every file:line that breaks a rule.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Folder → the folders of ours it may import (itself always allowed): a top folder, or one folder below it
 * (`suites/generators`: that one only). Only what some file imports is allowed:
 * `tests/docs/import-rules.test.ts` keeps this equal to the table of docs/architecture.md.
 */
export const ALLOWED: Record<string, string[]> = {
  errors: [],
  // What every part of the product uses (the HTTP client, redaction, observations, the failure record, curl,
  // polling, the suites' environment): below suites/, runner/, reporting/, regress/ and cli/.
  core: ['errors', 'specs'],
  // How flis reaches a deployment (proxy, CAs, client certificates, tokens): used by runner/, recorder/, cli/, bench/.
  net: ['errors'],
  schemas: [],
  specs: ['schemas'],
  mock: ['schemas'],
  suites: ['schemas', 'specs', 'webhooks', 'core'],
  recorder: ['schemas', 'specs', 'errors', 'net'],
  config: ['specs', 'errors'],
  // runner/differential.ts draws its inputs with the suites' generators; nothing else of suites/.
  runner: ['errors', 'specs', 'config', 'mock', 'core', 'suites/generators', 'recorder', 'reporting', 'net'],
  // reporting/ reads cassettes (recorder/) for flis certify and the drift report; the recorder never imports it.
  reporting: ['errors', 'schemas', 'specs', 'core', 'recorder'],
  // The webhook receiver: validates deliveries (schemas/) and writes cassettes (recorder/); the webhooks suite uses it.
  webhooks: ['schemas', 'specs', 'recorder'],
  // Replaying partners' cassettes against a release candidate, judged by the contract (flis regress, contract diff).
  regress: ['errors', 'specs', 'core', 'recorder', 'reporting', 'net'],
  // The certification registry: its server and database, and the client the commands reach it with.
  registry: ['errors', 'recorder', 'reporting'],
  cli: [
    'errors',
    'config',
    'mock',
    'core',
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
};

/**
 * Below the top folder: each folder of suites/ is one suite, and a suite shares code only through suites/lib/ and
 * suites/generators/, never by importing another suite, so a suite can be changed or dropped alone.
 */
export const SHARED_WITHIN: Record<string, string[]> = {
  suites: ['lib', 'generators'],
};

/**
 * Top folders a suite (`suites/<suite>/`, not its shared folders) may not import: core/ is the product's plumbing, and
 * a check takes what it needs of it through the front door, suites/lib/index.ts, so a change in core/ is seen there.
 */
export const PLUMBING_FOR_SUITES: readonly string[] = ['core'];

export interface Violation {
  file: string;
  line: number;
  from: string;
  to: string;
  specifier: string;
  /** The folder one below `to` that was reached (`generators` of `suites/generators/x.ts`), if any. */
  sub?: string | undefined;
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

/** `to` is a file of an allowed folder: a whole top folder, or the one folder below it that is named. */
function allows(allowed: string[], to: string[]): boolean {
  return allowed.includes(to[0] ?? '') || (to.length > 2 && allowed.includes(`${to[0]}/${to[1]}`));
}

/** A suite's own file (`suites/<suite>/…`) importing the plumbing below suites/lib/ (PLUMBING_FOR_SUITES). */
function bypassesFrontDoor(from: string[], to: string[]): boolean {
  const shared = SHARED_WITHIN[from[0] ?? ''];
  if (from[0] !== 'suites' || !shared || from.length < 3 || shared.includes(from[1]!)) return false;
  return PLUMBING_FOR_SUITES.includes(to[0] ?? '');
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
    if (to[0] !== from[0] && !allows(allowed, to))
      out.push({ ...where, from: from[0]!, to: to[0]!, sub: to.length > 2 ? to[1] : undefined });
    else if (crossesWithin(from, to)) out.push({ ...where, from: `${from[0]}/${from[1]}`, to: `${to[0]}/${to[1]}` });
    else if (bypassesFrontDoor(from, to)) out.push({ ...where, from: `${from[0]}/${from[1]}`, to: to[0]! });
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
  if (sub !== undefined)
    return `${from}/ and ${SHARED_WITHIN[top!]?.map((s) => `${top}/${s}/`).join(', ')}; core/ through ${top}/lib/index.ts`;
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
