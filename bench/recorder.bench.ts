/**
 * The recorder benchmark (not a timed test), in three parts, every phase
 * bounded in time or count and all traffic on loopback:
 *  1. Throughput and latency, measured side by side in one run, against a
 *     minimal fast node:http upstream (bench-child.ts `upstream`): direct,
 *     through `flis record`, through `flis replay` of the cassette just
 *     recorded (and how long replay took to listen on it), through talkback
 *     recording and talkback playback; the ratios against their targets.
 *  2. Cassette scale: a 10,000-exchange cassette (~48 MB) and a ~1 GB one,
 *     generated in a temp dir and deleted after: lint time and peak RSS, replay
 *     listening time and peak RSS while serving.
 *  3. The recorder's memory over many recorded exchanges.
 *
 *   node --import tsx bench/recorder.bench.ts [--duration S] [--warmup S] [--connections N] [--exchanges N]
 *        [--scale-exchanges N] [--big-mb N] [--phase-timeout S] [--skip throughput,scale,memory]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannonModule from 'autocannon';
import { startMock } from '../mock/server.ts';
import { encodeBody } from '../recorder/body.ts';
import { exchangeDocument, headerDocument } from '../recorder/cassette-yaml.ts';
import { cassetteHeader } from '../recorder/header.ts';

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
    'scale-exchanges': { type: 'string' },
    'big-mb': { type: 'string' },
    'phase-timeout': { type: 'string' },
    skip: { type: 'string' },
  },
});
const DURATION_S = Number(values.duration ?? 10);
const WARMUP_S = Number(values.warmup ?? 5);
const CONNECTIONS = Number(values.connections ?? 10);
const MEMORY_EXCHANGES = Number(values.exchanges ?? 50_000);
const SCALE_EXCHANGES = Number(values['scale-exchanges'] ?? 10_000);
const BIG_MB = Number(values['big-mb'] ?? 1024);
/** No phase of part 2 runs longer than this: a slower one is reported as not finished, and killed. */
const PHASE_TIMEOUT_MS = Number(values['phase-timeout'] ?? 300) * 1000;
const SKIP = new Set((values.skip ?? '').split(',').filter(Boolean));
const TOKEN = 'bench-token-6f1d0c2a9b7e4d3f8a5c';
const CHILD = fileURLToPath(new URL('./bench-child.ts', import.meta.url));
const SCALE_CHILD = fileURLToPath(new URL('./scale-child.ts', import.meta.url));
const PATHS = ['/invoices?limit=5', '/offers', '/billingGroups'];
const MB = 1024 * 1024;

interface Sample {
  rss: number;
  heapUsed: number;
  written: number;
  cpuMicros: number;
  maxRss: number;
  readyMs: number;
}

interface Child {
  baseUrl: string;
  proc: ChildProcess;
  /** From spawn to listening (node and tsx start-up included). */
  startMs: number;
  mem(): Promise<Sample>;
  stop(): Promise<void>;
}

async function startChild(role: string, env: Record<string, string> = {}, timeoutMs = 30_000): Promise<Child> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD, role], {
    env: { ...process.env, ...env, FLIS_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let out = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${role} did not start within ${timeoutMs / 1000} s`));
    }, timeoutMs);
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
    startMs: performance.now() - t0,
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

/** Warm up, then load `box` (or the upstream directly) while measuring both processes' CPU time. */
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

const mb = (n: number): string => (n / MB).toFixed(1);
const verdict = (ok: boolean): string => (ok ? 'met' : 'MISSED');

/** Part 1: the same GET traffic direct, through each box, one after the other in this one run. */
async function throughput(tmp: string): Promise<void> {
  const up = await startChild('upstream');
  const results: Record<string, Phase> = {};
  try {
    console.error(`part 1: ${DURATION_S} s per phase after ${WARMUP_S} s warm-up, ${CONNECTIONS} connections`);
    results.direct = await measure(up, undefined);
    const bare = await startChild('bare-proxy', { BENCH_UPSTREAM: up.baseUrl });
    results.bare = await measure(up, bare);
    await bare.stop();
    const recorded = join(tmp, 'record.yaml');
    const rec = await startChild('record', { BENCH_UPSTREAM: up.baseUrl, BENCH_CASSETTE: recorded });
    results.record = await measure(up, rec);
    const written = (await rec.mem()).written;
    await rec.stop();
    const replay = await startChild('replay', { BENCH_CASSETTE: recorded }, PHASE_TIMEOUT_MS);
    const replayStartMs = replay.startMs;
    const replayReadyMs = (await replay.mem()).readyMs;
    results.replay = await measure(up, replay);
    await replay.stop();
    const tapes = join(tmp, 'talkback-tapes');
    const tb = await startChild('talkback', { BENCH_UPSTREAM: up.baseUrl, BENCH_CASSETTE: tapes });
    results.talkback = await measure(up, tb);
    await tb.stop();
    const tbp = await startChild('talkback-playback', { BENCH_UPSTREAM: up.baseUrl, BENCH_CASSETTE: tapes });
    results.playback = await measure(up, tbp);
    await tbp.stop();

    const d = results.direct!;
    console.log(
      `\nThroughput (requests/s, mean) and latency (ms) against the fast upstream, ${CONNECTIONS} connections, ${DURATION_S} s each, one run:\n`,
    );
    console.log(
      '| path | req/s | × direct | p50 | p90 | p99 | max | CPU µs/req of the box | CPU-bound × direct | errors+non-2xx |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const [name, label] of [
      ['direct', 'direct to the upstream'],
      ['bare', 'through a bare Node proxy (forwarding only: the floor)'],
      ['record', 'through flis record'],
      ['replay', 'through flis replay'],
      ['talkback', 'through talkback (recording)'],
      ['playback', 'through talkback (playback)'],
    ] as const)
      console.log(row(label, results[name]!, d));
    const rps = (k: string): number => results[k]!.r.requests.average;
    const cpu = (k: string): number => results[k]!.boxCpuUs;
    const recordRatio = rps('record') / rps('direct');
    const replayRatio = rps('replay') / rps('direct');
    const playbackRatio = rps('playback') / rps('direct');
    console.log(
      `\nrecord/direct ${recordRatio.toFixed(2)} (target ≥ 0.5: ${verdict(recordRatio >= 0.5)}); a bare Node proxy that only forwards: ${(rps('bare') / rps('direct')).toFixed(2)}`,
    );
    console.log(
      `replay/direct ${replayRatio.toFixed(2)} (target ≥ 1.5: ${verdict(replayRatio >= 1.5)}); talkback playback/direct ${playbackRatio.toFixed(2)} (replay above it: ${verdict(replayRatio > playbackRatio)})`,
    );
    console.log(
      `replay listening on the recorded cassette (${written} exchanges, ${mb(statSync(recorded).size)} MB): ${(replayReadyMs / 1000).toFixed(2)} s from start to listening (target ≤ 5 s: ${verdict(replayReadyMs <= 5000)}); ${(replayStartMs / 1000).toFixed(1)} s from spawn, node and tsx start-up included`,
    );
    console.log(
      `CPU-bound ratios (1 / CPU per request of the box): record/direct ${(cpu('direct') / cpu('record')).toFixed(2)}, replay/direct ${(cpu('direct') / cpu('replay')).toFixed(2)}, talkback playback/direct ${(cpu('direct') / cpu('playback')).toFixed(2)}`,
    );
  } finally {
    await up.stop();
  }
}

/** An exchange of a realistic size and shape: a page of the mock's billing groups, ~4.8 kB as written. */
async function exchangeTemplate(): Promise<string> {
  const mock = await startMock({ token: TOKEN });
  let groups: unknown[];
  try {
    const r = await fetch(`${mock.baseUrl}/billingGroups`, { headers: { authorization: `Bearer ${TOKEN}` } });
    groups = (await r.json()) as unknown[];
  } finally {
    await mock.close();
  }
  const page: unknown[] = [];
  for (const g of groups) {
    page.push(g);
    if (exchangeText(page).length >= 4600) break;
  }
  return exchangeText(page);
}

function exchangeText(page: unknown[]): string {
  const bytes = Buffer.from(JSON.stringify(page));
  return exchangeDocument({
    seq: 999_999_999,
    startedAt: '2026-01-01T00:00:00.000Z',
    operationId: 'listBillingGroups',
    request: {
      method: 'GET',
      path: '/billingGroups',
      query: { page: 'p-PAGE' },
      headers: { accept: 'application/json', authorization: 'Bearer [REDACTED]' },
      body: null,
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: encodeBody(bytes, 'application/json', bytes.length, false),
      timing: { durationMs: 3.2, firstByteMs: 2.9 },
    },
    violations: [],
  });
}

/** Writes a cassette of `count` exchanges (each a distinct request: page=p-<n>), 1,000 documents per write. */
function generateCassette(file: string, template: string, count: number): number {
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, headerDocument(cassetteHeader('bench', 'http://127.0.0.1:1/apis/v0')));
    for (let i = 1; i <= count; ) {
      const batch: string[] = [];
      for (const end = Math.min(count, i + 999); i <= end; i++)
        batch.push(template.replace('999999999', String(i)).replace('p-PAGE', `p-${i}`));
      writeSync(fd, batch.join(''));
    }
  } finally {
    closeSync(fd);
  }
  return statSync(file).size;
}

interface LintRun {
  ms: number;
  cpuMs: number;
  exchanges: number;
  findings: number;
  maxRss: number;
}

/** A `flis cassette` command's work (lint, scan, export-har, certify's traffic check) in a process of its own, killed at the phase timeout. */
function lintInChild(
  file: string,
  role: 'lint' | 'scan' | 'traffic' | 'export-har' = 'lint',
): Promise<LintRun | undefined> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', SCALE_CHILD, role, file], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, FLIS_TOKEN: TOKEN },
    });
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += String(c);
    });
    const timer = setTimeout(() => proc.kill('SIGKILL'), PHASE_TIMEOUT_MS);
    proc.once('exit', () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out) as LintRun);
      } catch {
        resolve(undefined);
      }
    });
  });
}

/** Replay of `file`: time to listening, then RSS (peak, and after a GC) once `requests` requests were served. */
async function replayScale(file: string, count: number, requests: number): Promise<string> {
  let child: Child;
  try {
    child = await startChild('replay', { BENCH_CASSETTE: file }, PHASE_TIMEOUT_MS);
  } catch (e) {
    return `replay: ${(e as Error).message}`;
  }
  try {
    const url = new URL(child.baseUrl);
    const r = await autocannon({
      url: url.origin,
      connections: CONNECTIONS,
      amount: requests,
      headers: { authorization: 'Bearer [REDACTED]', accept: 'application/json' },
      requests: [
        {
          method: 'GET',
          // Every request a different recorded exchange, spread over the whole file.
          setupRequest: (req: Record<string, unknown>) => ({
            ...req,
            path: `${url.pathname}/billingGroups?page=p-${1 + Math.floor(Math.random() * count)}`,
          }),
        },
      ],
    });
    const m = await child.mem();
    return `listening in ${(m.readyMs / 1000).toFixed(2)} s (${(child.startMs / 1000).toFixed(1)} s from spawn, node and tsx start-up included); served ${r.requests.total} requests (${r.non2xx} non-2xx) at ${Math.round(r.requests.average)} req/s; peak RSS ${mb(m.maxRss)} MB, RSS after GC ${mb(m.rss)} MB`;
  } finally {
    await child.stop();
  }
}

/** Part 2: cassettes of real size. */
async function scale(tmp: string): Promise<void> {
  console.error(`part 2: cassette scale (each phase at most ${PHASE_TIMEOUT_MS / 1000} s)`);
  const template = await exchangeTemplate();
  const lintLine = (run: LintRun | undefined, bytes: number, targetMs: number, targetRss: number): string =>
    run
      ? `lint ${run.exchanges} exchanges (${mb(bytes)} MB): ${(run.ms / 1000).toFixed(1)} s wall, ${(run.cpuMs / 1000).toFixed(1)} s CPU, peak RSS ${mb(run.maxRss)} MB, ${run.findings} findings (targets ≤ ${targetMs / 1000} s: ${verdict(run.ms <= targetMs)}, ≤ ${targetRss} MB: ${verdict(run.maxRss <= targetRss * MB)})`
      : `lint (${mb(bytes)} MB): not finished within ${PHASE_TIMEOUT_MS / 1000} s`;

  const mid = join(tmp, 'scale-10k.yaml');
  const midBytes = generateCassette(mid, template, SCALE_EXCHANGES);
  console.log(`\nCassette scale (generated: ${SCALE_EXCHANGES} exchanges, ${mb(midBytes)} MB):\n`);
  console.log(`- ${lintLine(await lintInChild(mid), midBytes, 10_000, 300)}`);
  const midReplay = await replayScale(mid, SCALE_EXCHANGES, 2_000);
  console.log(`- replay: ${midReplay}`);
  const startS = /listening in ([\d.]+) s/.exec(midReplay)?.[1];
  if (startS) console.log(`  (target listening ≤ 5 s: ${verdict(Number(startS) <= 5)})`);
  rmSync(mid, { force: true });

  if (BIG_MB > 0) {
    const big = join(tmp, 'scale-big.yaml');
    const perExchange = Buffer.byteLength(template);
    const count = Math.ceil((BIG_MB * MB) / perExchange);
    const bigBytes = generateCassette(big, template, count);
    console.log(`\nA ${mb(bigBytes)} MB cassette (${count} exchanges):\n`);
    console.log(`- ${lintLine(await lintInChild(big), bigBytes, PHASE_TIMEOUT_MS, 500)}`);
    for (const role of ['scan', 'traffic', 'export-har'] as const) {
      const run = await lintInChild(big, role);
      console.log(
        run
          ? `- ${role}: ${(run.ms / 1000).toFixed(1)} s wall, peak RSS ${mb(run.maxRss)} MB (target ≤ 500 MB: ${verdict(run.maxRss <= 500 * MB)})`
          : `- ${role}: not finished within ${PHASE_TIMEOUT_MS / 1000} s`,
      );
    }
    const bigReplay = await replayScale(big, count, 2_000);
    const peak = /peak RSS ([\d.]+) MB/.exec(bigReplay)?.[1];
    console.log(`- replay: ${bigReplay}${peak ? ` (target ≤ 500 MB: ${verdict(Number(peak) <= 500)})` : ''}`);
    rmSync(big, { force: true });
  }
}

/** Part 3: the recorder's heap over many exchanges. */
async function memory(tmp: string): Promise<void> {
  console.error(`\npart 3: recorder memory over ${MEMORY_EXCHANGES} exchanges`);
  const up = await startChild('upstream');
  try {
    const memRec = await startChild('record', { BENCH_UPSTREAM: up.baseUrl, BENCH_CASSETTE: join(tmp, 'memory.yaml') });
    const samples: Sample[] = [await memRec.mem()];
    const step = MEMORY_EXCHANGES / 10;
    for (let i = 0; i < 10; i++) {
      await load(memRec.baseUrl, { amount: step });
      samples.push(await memRec.mem());
    }
    await memRec.stop();
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
    await up.stop();
  }
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'flis-bench-'));
  try {
    if (!SKIP.has('throughput')) await throughput(tmp);
    if (!SKIP.has('scale')) await scale(tmp);
    if (!SKIP.has('memory')) await memory(tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
