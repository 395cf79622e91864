/**
 * The latency bench (issue 19), not a timed test: a full `flis run` against
 * the mock on loopback, and the same run through a proxy that holds every
 * request 100 ms (a wide-area round trip), side by side in one bench run, with
 * their ratio against the target (at most 3×). Each run gets a fresh mock and
 * the same seed; both go through `--base-url`, so they differ in the delay
 * alone. All traffic is on loopback.
 *
 *   node --import tsx bench/latency.bench.ts [--delay-ms 100] [--seed N]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startMock } from '../mock/server.ts';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const TOKEN = 'latency-bench-token-6d2f';
const TARGET_RATIO = 3;

// Not strict: `npm run bench -- ...` hands the recorder bench's options to this one too.
const { values } = parseArgs({
  options: { 'delay-ms': { type: 'string' }, seed: { type: 'string' } },
  strict: false,
  allowPositionals: true,
});
const delayMs = Number(values['delay-ms'] ?? 100);
const seed = Number(values.seed ?? 424242);

/** A proxy that holds every request `delay` ms before forwarding it: the round trip of a distant deployment. */
async function delayProxy(upstreamBaseUrl: string, delay: number): Promise<{ baseUrl: string; server: Server }> {
  const upstream = new URL(upstreamBaseUrl);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () =>
      setTimeout(() => {
        const forward = request(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
            agent,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.on('error', () => res.destroy());
        forward.end(Buffer.concat(chunks));
      }, delay),
    );
  });
  server.keepAliveTimeout = 120_000;
  server.listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${upstream.pathname}`, server };
}

interface RunFigure {
  label: string;
  seconds: number;
  verdict: string;
  requests: number;
  workers: string;
}

function flisRun(
  baseUrl: string,
  reportDir: string,
  distant: boolean,
): Promise<{ code: number | null; out: string; seconds: number }> {
  const started = performance.now();
  const args = ['bin/flis.js', 'run', '--base-url', baseUrl, '--allow-writes', '--seed', String(seed)];
  // The delaying proxy is on loopback, which a run never takes for distant by itself: --distant says it is.
  if (distant) args.push('--distant');
  const child = spawn(process.execPath, [...args, '--progress', 'none', '--report-dir', reportDir], {
    cwd: ROOT,
    env: { ...process.env, FLIS_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
  child.stderr.on('data', (b: Buffer) => (out += b.toString('utf8')));
  return new Promise((done) =>
    child.on('close', (code) => done({ code, out, seconds: (performance.now() - started) / 1000 })),
  );
}

async function measure(label: string, delay: number, dir: string): Promise<RunFigure> {
  const mock = await startMock({ token: TOKEN, port: 0 });
  const proxy = delay > 0 ? await delayProxy(mock.baseUrl, delay) : undefined;
  const reportDir = join(dir, label.replace(/\W+/g, '-'));
  try {
    const r = await flisRun(proxy?.baseUrl ?? mock.baseUrl, reportDir, proxy !== undefined);
    const verdict = /flis run: ([A-Z][A-Z-]+) \(/.exec(r.out);
    if (r.code !== 0) process.stderr.write(`${label}: flis run exited ${r.code}\n${r.out}\n`);
    const summary = JSON.parse(readFileSync(join(reportDir, 'run.json'), 'utf8')) as { network?: { requests: number } };
    const workers = /\((?:median round trip \d+ ms|--distant)\): (\d+) Playwright workers/.exec(r.out)?.[1] ?? '2';
    return {
      label,
      seconds: r.seconds,
      verdict: verdict?.[1] ?? '?',
      requests: summary.network?.requests ?? 0,
      workers,
    };
  } finally {
    if (proxy) {
      proxy.server.closeAllConnections();
      proxy.server.close();
    }
    await mock.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'flis-latency-bench-'));
try {
  const loopback = await measure('loopback', 0, dir);
  const distant = await measure(`${delayMs} ms per request`, delayMs, dir);
  const ratio = distant.seconds / loopback.seconds;
  console.log(`latency bench: one full flis run (seed ${seed}), each against a fresh embedded mock`);
  console.log('run                      seconds  requests  workers  verdict');
  for (const f of [loopback, distant])
    console.log(
      `${f.label.padEnd(24)} ${f.seconds.toFixed(1).padStart(7)}  ${String(f.requests).padStart(8)}  ${f.workers.padStart(7)}  ${f.verdict}`,
    );
  console.log(`ratio ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×): ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
