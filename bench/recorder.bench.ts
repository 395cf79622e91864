/**
 * The recorder benchmark (not a timed test): throughput and latency
 * percentiles direct to the embedded mock, through the recording proxy,
 * through replay, and through talkback recording the same traffic, as ratios
 * measured in one run; then the recorder's memory over 100,000 exchanges.
 * All traffic is on loopback; every phase is bounded in time or count.
 *
 *   node --import tsx bench/recorder.bench.ts [--duration S] [--warmup S] [--connections N] [--exchanges N]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannonModule from 'autocannon';
import { startRecorder } from '../recorder/proxy.ts';

const autocannon = autocannonModule as unknown as (
  opts: Record<string, unknown>,
) => Promise<CannonResult> & { stop?: () => void };

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  throughput: { average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

const { values } = parseArgs({
  options: {
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    exchanges: { type: 'string' },
  },
});
const DURATION_S = Number(values.duration ?? 10);
const WARMUP_S = Number(values.warmup ?? 8);
const CONNECTIONS = Number(values.connections ?? 32);
const MEMORY_EXCHANGES = Number(values.exchanges ?? 100_000);
const TOKEN = 'bench-token-6f1d0c2a9b7e4d3f8a5c';
const CHILD = fileURLToPath(new URL('./bench-child.ts', import.meta.url));
const PATHS = ['/invoices?limit=5', '/customers', '/billingGroups'];

interface Sample {
  rss: number;
  heapUsed: number;
  written: number;
  cpuMicros: number;
}

interface Child {
  baseUrl: string;
  proc: ChildProcess;
  mem(): Promise<Sample>;
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
    mem: () =>
      new Promise((resolve) => {
        proc.once('message', (m) => resolve(m as Sample));
        proc.send({ type: 'mem' });
      }),
    stop: () =>
      new Promise((resolve) => {
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

interface Phase {
  r: CannonResult;
  /** CPU time per request of the process under test (the mock itself for "direct"), and of the mock. */
  boxCpuUs: number;
  mockCpuUs: number;
}

/** Warm up, then load `box` (or the mock directly) while measuring both processes' CPU time. */
async function measure(mock: Child, box: Child | undefined): Promise<Phase> {
  const target = box ?? mock;
  // A fresh process needs a few seconds (JIT, schema compilation, the pool filling up) before it is representative.
  await load(target.baseUrl, { duration: WARMUP_S });
  const m0 = await mock.mem();
  const b0 = box ? await box.mem() : m0;
  const r = await load(target.baseUrl);
  const m1 = await mock.mem();
  const b1 = box ? await box.mem() : m1;
  const n = Math.max(1, r.requests.total);
  return { r, boxCpuUs: (b1.cpuMicros - b0.cpuMicros) / n, mockCpuUs: box ? (m1.cpuMicros - m0.cpuMicros) / n : 0 };
}

function row(name: string, p: Phase, direct: Phase): string {
  const r = p.r;
  const ratio = (r.requests.average / direct.r.requests.average).toFixed(2);
  const cpuRatio = (direct.boxCpuUs / p.boxCpuUs).toFixed(2);
  return `| ${name} | ${Math.round(r.requests.average)} | ${ratio}× | ${r.latency.p50} | ${r.latency.p90} | ${r.latency.p99} | ${r.latency.max} | ${Math.round(p.boxCpuUs)} | ${cpuRatio}× | ${r.non2xx + r.errors + r.timeouts} |`;
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'flis-bench-'));
  const mock = await startChild('mock');
  const results: Record<string, Phase> = {};
  try {
    // The replay cassette: one exchange per path (replay repeats the last answer of each).
    const small = join(tmp, 'replay.yaml');
    const seed = await startRecorder({
      mode: 'record',
      cassette: small,
      upstream: { baseUrl: mock.baseUrl, deployment: 'embedded' },
      env: { FLIS_TOKEN: TOKEN },
    });
    await load(seed.baseUrl, { amount: PATHS.length * CONNECTIONS });
    await seed.close();

    console.error(`warm-up and direct (${DURATION_S} s each, ${CONNECTIONS} connections, paths ${PATHS.join(', ')})`);
    results.direct = await measure(mock, undefined);

    const rec = await startChild('record', { BENCH_UPSTREAM: mock.baseUrl, BENCH_CASSETTE: join(tmp, 'record.yaml') });
    results.record = await measure(mock, rec);
    await rec.stop();

    const replay = await startChild('replay', { BENCH_CASSETTE: small });
    results.replay = await measure(mock, replay);
    await replay.stop();

    const tb = await startChild('talkback', {
      BENCH_UPSTREAM: mock.baseUrl,
      BENCH_CASSETTE: join(tmp, 'talkback-tapes'),
    });
    results.talkback = await measure(mock, tb);
    await tb.stop();

    const d = results.direct!;
    console.log(
      `\nThroughput (requests/s, mean) and latency (ms), ${CONNECTIONS} connections, ${DURATION_S} s each, one run:\n`,
    );
    console.log(
      '| path | req/s | × direct | p50 | p90 | p99 | max | CPU µs/req of the box | CPU-bound × direct | errors+non-2xx |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const [name, label] of [
      ['direct', 'direct to the mock'],
      ['record', 'through flis record'],
      ['replay', 'through flis replay'],
      ['talkback', 'through talkback (recording)'],
    ] as const) {
      console.log(row(label, results[name]!, d));
    }
    const rps = (k: string): number => results[k]!.r.requests.average;
    const cpu = (k: string): number => results[k]!.boxCpuUs;
    console.log(
      `\nthroughput ratios: record/direct ${(rps('record') / rps('direct')).toFixed(2)} (target ≥ 0.5), record/talkback ${(rps('record') / rps('talkback')).toFixed(2)} (target ≥ 3), replay/direct ${(rps('replay') / rps('direct')).toFixed(2)} (target ≥ 0.8)`,
    );
    console.log(
      `CPU-bound ratios (1 / CPU per request; what a dedicated core would give): record/direct ${(cpu('direct') / cpu('record')).toFixed(2)}, record/talkback ${(cpu('talkback') / cpu('record')).toFixed(2)}, replay/direct ${(cpu('direct') / cpu('replay')).toFixed(2)}`,
    );
    console.log(
      `mock CPU per request through each box (µs): record ${Math.round(results.record!.mockCpuUs)}, talkback ${Math.round(results.talkback!.mockCpuUs)}`,
    );

    console.error(`\nrecorder memory over ${MEMORY_EXCHANGES} exchanges`);
    const memRec = await startChild('record', {
      BENCH_UPSTREAM: mock.baseUrl,
      BENCH_CASSETTE: join(tmp, 'memory.yaml'),
    });
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
    console.log(
      `\nheap growth from ${first.written} to ${last.written} exchanges: ${mb(last.heapUsed - first.heapUsed)} MB`,
    );
  } finally {
    await mock.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
