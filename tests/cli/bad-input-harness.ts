/**
 * A harness for table-driven tests of bad input to the `flis` command: each row runs the real CLI as a child
 * process in a sandbox folder of its own, and asserts what principle 8 promises of every bad input: exit 2,
 * exactly one line on stderr, no stack trace, and every file of the sandbox byte-identical afterwards.
 *
 * The API (stable; other test files copy and import it):
 *
 *   runFlis(args, { cwd?, env?, timeoutMs?, unprivileged? }): Promise<FlisResult>
 *       `node bin/flis.js ...args` with only PATH, HOME and `env` in its environment (no FLIS_* of the caller's);
 *       FlisResult = { code, signal, stdout, stderr, ms }. A child still running at the deadline (default
 *       60 s) is killed with SIGKILL and the promise rejects, naming the args and what it printed.
 *       `unprivileged`: run it without root's power to write anything (setpriv drops every capability), so
 *       read-only folders and files mean something; UNPRIVILEGED_SKIP says why that cannot be done here.
 *   makeSandbox(prefix?): Sandbox
 *       a fresh folder under the OS temp dir: { dir, path(...parts), write(rel, text|Buffer),
 *       mkdir(rel), readOnly(rel), remove(), trap }. readOnly chmods a folder to 0555; remove() undoes that first.
 *       `trap` is the row's Trap (below) inside checkBadInput, and throws outside it.
 *   startTrap(): Promise<Trap>
 *       a real HTTP server on 127.0.0.1 that stands for a deployment: it answers every request 200 `{}` and
 *       records each one as it came (method, the raw request target, the Authorization header). { baseUrl (ending
 *       in /apis/v0), token (a fresh one, for FLIS_TOKEN), requests, outside(), close() }; outside() lists the
 *       requests a server could read as outside /apis/v0 (WHATWG-resolved, or by recorder/path-escape.ts's rule).
 *   snapshotDir(dir): DirSnapshot
 *       every entry under dir (hidden ones too), by relative path: its type, mode and, for a file, the
 *       SHA-256 of its bytes; for a symlink, its target (never followed).
 *   diffSnapshots(before, after): string[]
 *       one line per entry added, removed or changed; empty when the two are identical.
 *   assertOneLineError(result, { code = 2, stderr?: RegExp, what? }): void
 *       the exit code, exactly one non-empty line on stderr, no stack trace, and the line matches `stderr`.
 *   hasStackTrace(text): boolean
 *   runBadInputTable(title, rows, { concurrency? }): void
 *       registers one node:test test per row. A row is a BadInputRow:
 *         { name, args: string[] | (sb) => string[], env?: Record<string,string> | (sb) => Record<string,string>,
 *           setup?: (sb) => void, cwd?: (sb) => string (default the sandbox), code? (default 2),
 *           stderr?: RegExp, skip?: string | false (a reason to skip the row), unprivileged?: boolean,
 *           timeoutMs?: number, also?: (result, sb) => void (more assertions, run before the sandbox goes) }
 *       setup runs first, then the sandbox is snapshotted, flis runs with the sandbox as its cwd, and the row
 *       fails unless the assertions above hold, the sandbox is byte-identical (naming every difference), and the
 *       row's trap got no request outside the base path (none at all carrying its token there).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { pathEscape } from '../../recorder/path-escape.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const FLIS = join(ROOT, 'bin', 'flis.js');

export interface FlisResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall time of the child, for messages only (never asserted: principle 7). */
  ms: number;
}

export interface RunFlisOptions {
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number | undefined;
  /** Without root's capabilities (setpriv), so that modes bind; see UNPRIVILEGED_SKIP. */
  unprivileged?: boolean | undefined;
}

/**
 * Root writes anything (CAP_DAC_OVERRIDE), so a read-only folder is met only without that power: as root, flis runs
 * under `setpriv --bounding-set=-all`. Another user is unprivileged already.
 */
const DROP_CAPS = ['setpriv', '--bounding-set=-all', '--'];
const IS_ROOT = process.getuid?.() === 0;

/** Why rows with `unprivileged` cannot run here, or false when they can. */
export const UNPRIVILEGED_SKIP: string | false =
  IS_ROOT && spawnSync(DROP_CAPS[0]!, [...DROP_CAPS.slice(1), process.execPath, '--version']).status !== 0
    ? 'running as root without setpriv (util-linux) to drop root capabilities: a read-only folder binds nobody here'
    : false;

export function runFlis(args: readonly string[], opts: RunFlisOptions = {}): Promise<FlisResult> {
  const started = Date.now();
  const deadline = opts.timeoutMs ?? 60_000;
  const argv =
    opts.unprivileged && IS_ROOT ? [...DROP_CAPS, process.execPath, FLIS, ...args] : [process.execPath, FLIS, ...args];
  return new Promise((done, fail) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: opts.cwd ?? ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(
        new Error(`flis ${args.join(' ')} still running after ${deadline} ms; stdout: ${stdout}\nstderr: ${stderr}`),
      );
    }, deadline);
    child.on('error', (e) => {
      clearTimeout(timer);
      fail(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

export interface Sandbox {
  dir: string;
  /** The row's stand-in deployment (startTrap); only inside checkBadInput. */
  readonly trap: Trap;
  path(...parts: string[]): string;
  write(rel: string, content: string | Buffer): string;
  mkdir(rel: string): string;
  /** chmod 0555: no entry can be added or removed (except by root, which ignores modes). */
  readOnly(rel: string): string;
  remove(): void;
}

export function makeSandbox(prefix = 'flis-bad-input-'): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const locked: string[] = [];
  const path = (...parts: string[]) => join(dir, ...parts);
  return {
    dir,
    get trap(): Trap {
      throw new Error('sb.trap exists only inside checkBadInput');
    },
    path,
    write(rel, content) {
      const file = path(rel);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
      return file;
    },
    mkdir(rel) {
      const d = path(rel);
      mkdirSync(d, { recursive: true });
      return d;
    },
    readOnly(rel) {
      const d = path(rel);
      chmodSync(d, 0o555);
      locked.push(d);
      return d;
    },
    remove() {
      for (const d of locked) chmodSync(d, 0o755);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Relative path → "dir 755", "file 644 <sha256>" or "link -> target". */
export type DirSnapshot = Map<string, string>;

export function snapshotDir(dir: string): DirSnapshot {
  const snap: DirSnapshot = new Map();
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const abs = join(dir, r);
      const st = lstatSync(abs);
      const mode = (st.mode & 0o7777).toString(8);
      if (st.isSymbolicLink()) snap.set(r, `link -> ${readlinkSync(abs)}`);
      else if (st.isDirectory()) {
        snap.set(r, `dir ${mode}`);
        walk(r);
      } else if (st.isFile())
        snap.set(r, `file ${mode} ${createHash('sha256').update(readFileSync(abs)).digest('hex')}`);
      else snap.set(r, `other ${mode}`);
    }
  };
  walk('');
  return snap;
}

export function diffSnapshots(before: DirSnapshot, after: DirSnapshot): string[] {
  const out: string[] = [];
  for (const [p, v] of before) {
    const now = after.get(p);
    if (now === undefined) out.push(`removed: ${p} (${v})`);
    else if (now !== v) out.push(`changed: ${p} (${v} → ${now})`);
  }
  for (const [p, v] of after) if (!before.has(p)) out.push(`added: ${p} (${v})`);
  return out;
}

/** A JavaScript stack frame, or Node's own report of an uncaught error. */
export function hasStackTrace(text: string): boolean {
  return /^\s+at .+(?::\d+:\d+\)?|\(native\)|\(<anonymous>\))\s*$/m.test(text) || /node:internal\//.test(text);
}

export function assertOneLineError(
  r: FlisResult,
  expect: { code?: number | undefined; stderr?: RegExp | undefined; what?: string } = {},
): void {
  const what = expect.what ?? 'flis';
  const shown = `stdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
  assert.ok(!hasStackTrace(r.stderr) && !hasStackTrace(r.stdout), `${what}: printed a stack trace\n${shown}`);
  assert.equal(
    r.code,
    expect.code ?? 2,
    `${what}: exit ${r.code} (signal ${r.signal}), not ${expect.code ?? 2}\n${shown}`,
  );
  const lines = r.stderr.replace(/\n$/, '').split('\n');
  assert.ok(
    lines.length === 1 && lines[0]!.trim() !== '',
    `${what}: ${lines.length} line(s) on stderr, not exactly one\n${shown}`,
  );
  if (expect.stderr) assert.match(r.stderr, expect.stderr, `${what}: the error line does not say what to fix`);
}

export interface BadInputRow {
  name: string;
  args: string[] | ((sb: Sandbox) => string[]);
  env?: Record<string, string> | ((sb: Sandbox) => Record<string, string>);
  setup?: (sb: Sandbox) => void;
  /** The child's working folder (default: the sandbox). */
  cwd?: (sb: Sandbox) => string;
  code?: number;
  stderr?: RegExp;
  /** A reason to skip this row here (e.g. UNPRIVILEGED_SKIP for a row about a read-only folder). */
  skip?: string | false;
  timeoutMs?: number;
  /** Run flis without root's capabilities (runFlis); give such rows `skip: UNPRIVILEGED_SKIP`. */
  unprivileged?: boolean;
  /** More assertions on the result (e.g. nothing was started), run while the sandbox still exists. */
  also?: (r: FlisResult, sb: Sandbox) => void;
}

/** A request as the trap received it. */
export interface Trapped {
  method: string;
  /** The request target as sent, never normalised. */
  url: string;
  authorization: string | undefined;
}

export interface Trap {
  baseUrl: string;
  token: string;
  requests: Trapped[];
  /** The requests whose target a server could read as outside /apis/v0. */
  outside(): Trapped[];
  close(): Promise<void>;
}

const BASE_PATH = '/apis/v0';

/** Whether a server could read a raw request target as outside the base path, by either reading of it. */
function leavesBase(target: string): boolean {
  const resolved = new URL(target, 'http://trap.invalid').pathname;
  const raw = target.replace(/[?#].*$/s, '');
  const under = (p: string) => p === BASE_PATH || p.startsWith(`${BASE_PATH}/`);
  return !under(resolved) || !under(raw) || pathEscape(raw) !== undefined;
}

export async function startTrap(): Promise<Trap> {
  const requests: Trapped[] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${BASE_PATH}`,
    token: `trap-token-${randomBytes(8).toString('hex')}`,
    requests,
    outside: () => requests.filter((r) => leavesBase(r.url)),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export async function checkBadInput(row: BadInputRow): Promise<FlisResult> {
  const trap = await startTrap();
  const sb = Object.defineProperty(makeSandbox(), 'trap', { value: trap }) as Sandbox;
  try {
    row.setup?.(sb);
    const before = snapshotDir(sb.dir);
    const args = typeof row.args === 'function' ? row.args(sb) : row.args;
    const env = typeof row.env === 'function' ? row.env(sb) : (row.env ?? {});
    const r = await runFlis(args, {
      cwd: row.cwd?.(sb) ?? sb.dir,
      env,
      timeoutMs: row.timeoutMs || undefined,
      unprivileged: row.unprivileged,
    });
    const what = `flis ${args.join(' ')} (${row.name})`;
    assertOneLineError(r, {
      what,
      code: row.code,
      stderr: row.stderr,
    });
    const changed = diffSnapshots(before, snapshotDir(sb.dir));
    assert.deepEqual(changed, [], `${what}: the user's files changed:\n${changed.join('\n')}`);
    const outside = trap.outside();
    assert.deepEqual(
      outside.filter((x) => x.authorization?.includes(trap.token)),
      [],
      `${what}: the token was sent outside ${BASE_PATH}`,
    );
    assert.deepEqual(outside, [], `${what}: requests were sent outside ${BASE_PATH}`);
    row.also?.(r, sb);
    return r;
  } finally {
    sb.remove();
    await trap.close();
  }
}

export function runBadInputTable(
  title: string,
  rows: readonly BadInputRow[],
  opts: { concurrency?: number } = {},
): void {
  test(title, { concurrency: opts.concurrency ?? 1 }, async (t) => {
    // Started together; the parent's concurrency decides how many run at once.
    await Promise.all(
      rows.map((row) =>
        t.test(row.name, row.skip ? { skip: row.skip } : {}, async () => {
          await checkBadInput(row);
        }),
      ),
    );
  });
}

/** Running as root, folder modes bind nobody: a reason to skip a row that cannot use `unprivileged`. */
export const ROOT_IGNORES_MODES: string | false = IS_ROOT
  ? 'running as root, which writes into read-only folders'
  : false;
