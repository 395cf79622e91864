/**
 * The packed tool as a partner gets it: `npm pack` of this project (which runs the prepack build), the tarball
 * installed with `npm install` into an empty project, and its `flis` command run from there, never from the clone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { waitForOutput } from '../child-output.ts';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface Ran {
  code: number | null;
  /** Stdout and stderr as they came. */
  out: string;
  stdout: string;
}

/**
 * The environment of a partner's shell: ours without what `npm test` adds for its own package (npm would take
 * npm_config_local_prefix for the project to install into) and without any FLIS_ setting of the developer's. The
 * node running this test comes first on PATH, so npm and npx run the tool with it (Node 22 and 24 by hand).
 */
export function partnerEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    const npmRun = /^npm_(package_|lifecycle_|command$|config_local_prefix$|config_call$)/.test(name);
    if (!npmRun && name !== 'INIT_CWD' && !name.startsWith('FLIS_')) env[name] = value;
  }
  env.PATH = [dirname(process.execPath), process.env.PATH].join(delimiter);
  return { ...env, ...extra };
}

/** Runs a command to its end; the deadline only stops a hung install from holding `npm test`. */
export async function run(command: string, args: string[], cwd: string, env = partnerEnv()): Promise<Ran> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
  return collect(child)();
}

/** Gathers what a child prints; the returned function resolves once it has closed. */
function collect(child: ChildProcess): () => Promise<Ran> {
  let out = '';
  let stdout = '';
  child.stdout?.on('data', (b: Buffer) => {
    out += b.toString('utf8');
    stdout += b.toString('utf8');
  });
  child.stderr?.on('data', (b: Buffer) => (out += b.toString('utf8')));
  const closed = once(child, 'close') as Promise<[number | null]>;
  return async () => {
    const [code] = await closed;
    return { code, out, stdout };
  };
}

/** `npm pack` into `dir`: the tarball's path and the files it holds, as npm lists them. */
export async function pack(dir: string): Promise<{ tarball: string; files: string[] }> {
  const r = await run('npm', ['pack', '--json', '--pack-destination', dir], ROOT);
  if (r.code !== 0) throw new Error(`npm pack failed (exit ${r.code}):\n${r.out}`);
  // The prepack build prints its line before npm's JSON; npm's warnings go to stderr.
  const json = r.stdout.slice(r.stdout.search(/^\[/m));
  const [info] = JSON.parse(json.slice(0, json.lastIndexOf(']') + 1)) as {
    filename: string;
    files: { path: string }[];
  }[];
  if (!info) throw new Error(`npm pack printed no package:\n${r.out}`);
  return { tarball: join(dir, info.filename), files: info.files.map((f) => f.path) };
}

/** An empty project with the tarball installed, as `npm install <tarball>` leaves it. */
export async function installInto(project: string, tarball: string): Promise<void> {
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'partner', private: true })}\n`);
  // --prefer-offline: after `npm ci` every dependency is in npm's cache, so the registry is asked only for misses.
  const r = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
  if (r.code !== 0) throw new Error(`npm install of the tarball failed (exit ${r.code}):\n${r.out}`);
}

/** The installed `flis` (node_modules/.bin/flis, what npx runs) with its arguments. */
export function flis(project: string, args: string[], env?: NodeJS.ProcessEnv): Promise<Ran> {
  return run(process.execPath, [join(project, 'node_modules', '.bin', 'flis'), ...args], project, env);
}

export interface Served {
  child: ChildProcess;
  /** The first http://127.0.0.1:PORT... URL the command printed. */
  url: string;
  /** Ctrl-C, as a partner stops it; resolves with its exit code and everything it printed. */
  stop(): Promise<Ran>;
}

/** Starts an installed `flis` command that serves until stopped (mock, record, replay, show-report). */
export async function serve(project: string, args: string[], env: NodeJS.ProcessEnv, url: RegExp): Promise<Served> {
  const child = spawn(process.execPath, [join(project, 'node_modules', '.bin', 'flis'), ...args], {
    cwd: project,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ended = collect(child);
  const [found] = await waitForOutput(child, url, 60_000);
  return {
    child,
    url: found,
    stop() {
      child.kill('SIGINT');
      return ended();
    },
  };
}
