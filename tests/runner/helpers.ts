/**
 * A loopback proxy in front of a target that records the method and path of every request arriving, so a
 * test can say what a run sent (read-only runs send no write method) and when it started writing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface Seen {
  method: string;
  path: string;
}

export interface CountingProxy {
  /** The proxy's base URL, ending in /apis/v0 like the target's. */
  baseUrl: string;
  seen: Seen[];
  close(): Promise<void>;
}

/**
 * `hold`: requests it picks are accepted and never answered (a deployment that stops answering). `delayMs`: every
 * other request is forwarded that long after it arrived (a deployment slow to answer, whatever the machine's load).
 */
export async function countingProxy(
  targetBaseUrl: string,
  { hold, delayMs = 0 }: { hold?: (req: IncomingMessage) => boolean; delayMs?: number } = {},
): Promise<CountingProxy> {
  const upstream = new URL(targetBaseUrl);
  const seen: Seen[] = [];
  const server: Server = createServer(async (req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '' });
    if (hold?.(req)) return;
    if (delayMs > 0) await new Promise((done) => setTimeout(done, delayMs));
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    seen,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export interface FlisProcess {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

/** `flis ARGS` as a child process, its output collected; `exited` resolves with its exit code. */
export function startFlis(args: string[], env: NodeJS.ProcessEnv): FlisProcess {
  const child = spawn(process.execPath, [join(ROOT, 'bin/flis.js'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (b: Buffer) => (text += b.toString('utf8')));
  child.stderr?.on('data', (b: Buffer) => (text += b.toString('utf8')));
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return { child, out: () => text, exited };
}

/** What a finished `flis run` left: its exit code, its output and its run.json. */
export interface FinishedRun {
  code: number | null;
  out: string;
  // biome-ignore lint/suspicious/noExplicitAny: run.json as the tests read it, field by field.
  summary: any;
}

/** `flis run --suite invoices` against `baseUrl` with `extra` flags, no progress, its reports in `reportDir`. */
export async function runInvoices(
  baseUrl: string,
  reportDir: string,
  token: string,
  extra: string[],
): Promise<FinishedRun> {
  const args = ['run', '--base-url', baseUrl, '--suite', 'invoices', ...extra, '--progress', 'none'];
  const run = startFlis([...args, '--report-dir', reportDir], { FLIS_TOKEN: token });
  const code = await run.exited;
  const summaryFile = join(reportDir, 'run.json');
  const summary = code === 0 || code === 1 ? JSON.parse(readFileSync(summaryFile, 'utf8')) : undefined;
  return { code, out: run.out(), summary };
}
