/**
 * Each source folder says what it may import (docs/architecture.md), the way
 * Playwright checks its DEPS: recorder/ never imports suites/, mock/ imports
 * only schemas/, a suite never imports another suite, nor the plumbing of core/, nor a file of suites/lib/ but its
 * front door, suites/lib/index.ts, or the world model's, suites/lib/world/index.ts. No file imports itself through a circle of imports, and inside
 * suites/ no two folders of one parent import each other (an arrow up). Run in `npm test`; exits 1 naming every
 * file:line that breaks a rule, and every circle.
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

/**
 * Top folders a suite (`suites/<suite>/`, not its shared folders) may not import: core/ is the product's plumbing, and
 * a check takes what it needs of it through the front door, suites/lib/index.ts, so a change in core/ is seen there.
 */
export const PLUMBING_FOR_SUITES: readonly string[] = ['core'];

/** The one file of suites/lib/ a suite imports: what a check author uses, in one place. */
export const FRONT_DOOR = 'suites/lib/index.ts';

/** The other door of suites/lib/ a suite may import: the world model's own (suites/lib/world/index.ts). */
export const BESIDE_THE_DOOR: readonly string[] = ['suites/lib/world/index.ts'];

export interface Violation {
  file: string;
  line: number;
  from: string;
  to: string;
  specifier: string;
  /** The folder one below `to` that was reached (`generators` of `suites/generators/date-time.ts`), if any. */
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

/**
 * A suite's own file (`suites/<suite>/…`) importing the plumbing below suites/lib/ (PLUMBING_FOR_SUITES), or a file of
 * suites/lib/ other than its front door (FRONT_DOOR, BESIDE_THE_DOOR).
 */
function bypassesFrontDoor(from: string[], to: string[]): boolean {
  const shared = SHARED_WITHIN[from[0] ?? ''];
  if (from[0] !== 'suites' || !shared || from.length < 3 || shared.includes(from[1]!)) return false;
  if (PLUMBING_FOR_SUITES.includes(to[0] ?? '')) return true;
  const path = to.join('/');
  return (
    to[0] === 'suites' && to[1] === 'lib' && path !== FRONT_DOOR && !BESIDE_THE_DOOR.some((d) => path.startsWith(d))
  );
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
    else if (bypassesFrontDoor(from, to))
      out.push({
        ...where,
        from: `${from[0]}/${from[1]}`,
        to: to[0] === 'suites' ? to.slice(0, -1).join('/') : to[0]!,
      });
  }
  return out;
}

function checkedFiles(root: string): string[] {
  return Object.keys(ALLOWED).flatMap((folder) => {
    try {
      return sourceFiles(join(root, folder));
    } catch {
      return [];
    }
  });
}

export function checkAll(root = ROOT): Violation[] {
  return checkedFiles(root).flatMap((file) => checkFile(file, root));
}

/** Each checked file (relative to root) → the files of ours it imports, type-only imports included. */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of checkedFiles(root)) {
    const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)]
      .map((m) => m[1] ?? m[2] ?? m[3])
      .filter((s): s is string => s?.startsWith('.') === true)
      .map((s) => relative(root, resolve(dirname(file), s)));
    graph.set(relative(root, file), targets);
  }
  return graph;
}

/**
 * The import circles of the tree: each a set of files that import one another round (Tarjan's strongly connected
 * components), type-only imports included, since a circle of types is the same knot for a reader. A type both sides
 * need gets a file of its own.
 */
export function importCircles(root = ROOT): string[][] {
  const graph = importGraph(root);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) circles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Top folders whose folders, at every depth, import one way only: of two folders of one parent, one is below. */
export const ONE_WAY_WITHIN: readonly string[] = ['suites'];

/** A folder's front door and its specs sit on top of it: what they import is never an arrow up. */
const ON_TOP = /(^|\/)index\.ts$|\.spec\.ts$/;

export interface ArrowUp {
  /** The folder whose two folders import each other (`.` is its own files). */
  parent: string;
  rooms: [string, string];
  /** One import each way, `file -> file`. */
  examples: [string, string];
}

/** Folders of one parent (or the parent's own files, `.`) that import each other, inside ONE_WAY_WITHIN. */
export function arrowsUp(root = ROOT): ArrowUp[] {
  const edges = new Map<string, string>();
  for (const [from, targets] of importGraph(root)) {
    if (!ONE_WAY_WITHIN.includes(from.split(sep)[0]!) || ON_TOP.test(from)) continue;
    const f = from.split(sep);
    for (const target of targets) {
      const t = target.split(sep);
      if (t[0] !== f[0]) continue;
      let i = 1;
      while (i < f.length - 1 && i < t.length - 1 && f[i] === t[i]) i++;
      const a = i < f.length - 1 ? f[i]! : '.';
      const b = i < t.length - 1 ? t[i]! : '.';
      if (a !== b) edges.set(`${f.slice(0, i).join('/')}\t${a}\t${b}`, `${from} -> ${target}`);
    }
  }
  const out: ArrowUp[] = [];
  for (const [key, example] of edges) {
    const [parent, a, b] = key.split('\t') as [string, string, string];
    const back = edges.get(`${parent}\t${b}\t${a}`);
    if (back && a < b) out.push({ parent, rooms: [a, b], examples: [example, back] });
  }
  return out;
}

/** What `from` may import, for the message. */
export function allowedFor(from: string): string {
  const [top, sub] = from.split('/');
  if (sub !== undefined)
    return `${from}/, ${top}/generators/, and ${top}/lib/ through ${FRONT_DOOR} (core/ too), or ${BESIDE_THE_DOOR.join(', ')}`;
  return ALLOWED[from]?.join(', ') || 'nothing of ours';
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const violations = checkAll();
  for (const v of violations)
    console.error(
      `${v.file}:${v.line}: ${v.from}/ may not import ${v.to}/ ('${v.specifier}'); allowed: ${allowedFor(v.from)}`,
    );
  const circles = importCircles();
  for (const c of circles)
    console.error(`import circle: ${c.join(', ')} import one another round; give what they share a file of its own`);
  const arrows = arrowsUp();
  for (const a of arrows)
    console.error(
      `arrow up in ${a.parent}/: ${a.rooms[0]} and ${a.rooms[1]} import each other (${a.examples.join('; ')})`,
    );
  const problems = violations.length + circles.length + arrows.length;
  console.log(
    problems
      ? `import rules: ${violations.length} violation(s), ${circles.length} circle(s), ${arrows.length} arrow(s) up`
      : 'import rules: ok',
  );
  process.exitCode = problems ? 1 : 0;
}
