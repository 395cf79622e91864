/**
 * The recorder benchmark (not a timed test): throughput and latency
 * percentiles direct to the embedded mock, through the recording proxy,
 * through replay, and through talkback recording the same traffic, as ratios
 * measured in one run; then the recorder's memory over 100,000 exchanges.
 * All traffic is on loopback; every phase is bounded in time or count.
 *
 *   node --import tsx bench/recorder.bench.ts [--duration S] [--connections N] [--exchanges N]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannonModule from 'autocannon';
import { startRecorder } from '../recorder/proxy.ts';

const autocannon = autocannonModule as unknown as (opts: Record<string, unknown>) => Promise<CannonResult> & { stop?: () => void };

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  throughput: { average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

const { values } = parseArgs({ options: { duration: { type: 'string' }, connections: { type: 'string' }, exchanges: { type: 'string' } } });
const DURATION_S = Number(values.duration ?? 10);
const CONNECTIONS = Number(values.connections ?? 32);
const MEMORY_EXCHANGES = Number(values.exchanges ?? 100_000);
const TOKEN = 'bench-token-6f1d0c2a9b7e4d3f8a5c';
const CHILD = fileURLToPath(new URL('./bench-child.ts', import.meta.url));
const PATHS = ['/invoices?limit=5', '/customers', '/billingGroups'];

interface Child {
  baseUrl: string;
  proc: ChildProcess;
  mem(): Promise<{ rss: number; heapUsed: number; written: number }>;
  stop(): Promise<void>;
}

async function startChild(role: string, env: Record<string, string> = {}): Promise<Child> {
  const proc = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD, role], {
    env: { ...process.env, ...env, FLIS_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let out = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${role} did not start within 30 s`)), 30_000);
    proc.stdout!.on('data', (c: Buffer) => {
      out += String(c);
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, nl));
      }
    });
    proc.once('exit', (code) => reject(new Error(`${role} exited with ${code} before starting`)));
  });
  return {
    baseUrl,
    proc,
    mem: () => new Promise((resolve) => {
      proc.once('message', (m) => resolve(m as { rss: number; heapUsed: number; written: number }));
      proc.send({ type: 'mem' });
    }),
    stop: () => new Promise((resolve) => {
      if (proc.exitCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    }),
  };
}

async function load(baseUrl: string, opts: { duration?: number; amount?: number } = {}): Promise<CannonResult> {
  const url = new URL(baseUrl);
  return autocannon({
    url: url.origin,
    connections: CONNECTIONS,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration ?? DURATION_S }),
    headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' },
    requests: PATHS.map((p) => ({ method: 'GET', path: `${url.pathname}${p}` })),
  });
}

function row(name: string, r: CannonResult, direct: CannonResult): string {
  const ratio = (r.requests.average / direct.requests.average).toFixed(2);
  return `| ${name} | ${Math.round(r.requests.average)} | ${ratio}× | ${r.latency.p50} | ${r.latency.p90} | ${r.latency.p99} | ${r.latency.max} | ${r.non2xx + r.errors + r.timeouts} |`;
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'flis-bench-'));
  const mock = await startChild('mock');
  const results: Record<string, CannonResult> = {};
  try {
    // The replay cassette: one exchange per path (replay repeats the last answer of each).
    const small = join(tmp, 'replay.yaml');
    const seed = await startRecorder({ mode: 'record', cassette: small, upstream: { baseUrl: mock.baseUrl, deployment: 'embedded' }, env: { FLIS_TOKEN: TOKEN } });
    await load(seed.baseUrl, { amount: PATHS.length * CONNECTIONS });
    await seed.close();

    console.error(`warm-up and direct (${DURATION_S} s each, ${CONNECTIONS} connections, paths ${PATHS.join(', ')})`);
    await load(mock.baseUrl, { duration: 2 });
    results.direct = await load(mock.baseUrl);

    const rec = await startChild('record', { BENCH_UPSTREAM: mock.baseUrl, BENCH_CASSETTE: join(tmp, 'record.yaml') });
    await load(rec.baseUrl, { duration: 2 });
    results.record = await load(rec.baseUrl);
    await rec.stop();

    const replay = await startChild('replay', { BENCH_CASSETTE: small });
    await load(replay.baseUrl, { duration: 2 });
    results.replay = await load(replay.baseUrl);
    await replay.stop();

    const tb = await startChild('talkback', { BENCH_UPSTREAM: mock.baseUrl, BENCH_CASSETTE: join(tmp, 'talkback-tapes') });
    await load(tb.baseUrl, { duration: 2 });
    results.talkback = await load(tb.baseUrl);
    await tb.stop();

    const d = results.direct!;
    console.log(`\nThroughput (requests/s, mean) and latency (ms), ${CONNECTIONS} connections, ${DURATION_S} s each, one run:\n`);
    console.log('| path | req/s | × direct | p50 | p90 | p99 | max | errors+non-2xx |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const [name, label] of [['direct', 'direct to the mock'], ['record', 'through flis record'], ['replay', 'through flis replay'], ['talkback', 'through talkback (recording)']] as const) {
      console.log(row(label, results[name]!, d));
    }
    const rec2tb = results.record!.requests.average / results.talkback!.requests.average;
    console.log(`\nratios: record/direct ${(results.record!.requests.average / d.requests.average).toFixed(2)} (target ≥ 0.5), record/talkback ${rec2tb.toFixed(2)} (target ≥ 3), replay/direct ${(results.replay!.requests.average / d.requests.average).toFixed(2)} (target ≥ 0.8)`);

    console.error(`\nrecorder memory over ${MEMORY_EXCHANGES} exchanges`);
    const memRec = await startChild('record', { BENCH_UPSTREAM: mock.baseUrl, BENCH_CASSETTE: join(tmp, 'memory.yaml') });
    const samples: Array<{ rss: number; heapUsed: number; written: number }> = [await memRec.mem()];
    const step = MEMORY_EXCHANGES / 10;
    for (let i = 0; i < 10; i++) {
      await load(memRec.baseUrl, { amount: step });
      samples.push(await memRec.mem());
    }
    await memRec.stop();
    const mb = (n: number): string => (n / 1024 / 1024).toFixed(1);
    console.log(`\nRecorder memory after a full GC, every ${step} exchanges:\n`);
    console.log('| exchanges written | heap used (MB) | RSS (MB) |');
    console.log('|---|---|---|');
    for (const s of samples) console.log(`| ${s.written} | ${mb(s.heapUsed)} | ${mb(s.rss)} |`);
    const first = samples[1]!;
    const last = samples[samples.length - 1]!;
    console.log(`\nheap growth from ${first.written} to ${last.written} exchanges: ${mb(last.heapUsed - first.heapUsed)} MB`);
  } finally {
    await mock.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
