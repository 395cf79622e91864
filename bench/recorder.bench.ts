/**
 * The recorder benchmark (not a timed test), in three parts, every phase
 * bounded in time or count and all traffic on loopback:
 *  1. CPU per request, measured side by side in one run against a minimal
 *     fast node:http upstream (bench-child.ts `upstream`): the same GETs of a
 *     14 kB JSON list through a bare Node proxy (the floor), `flis record` (on
 *     the same answer every time, and beside it on an answer new every time:
 *     the upstream numbers one field per request), `flis replay` of the
 *     cassette just recorded, talkback recording and talkback playback; the
 *     boxes compared (bare proxy and both records, replay and playback) run at
 *     once and are loaded in turns. CPU is the box's (all its threads, from
 *     /proc/PID/stat) from before the load to 2 s after it, so write-behind
 *     work is counted; on a shared 2-core machine throughput is not the measure.
 *     Then the recorder's CPU split by stage (FLIS_STAGE_TIMES=1, a run of its
 *     own so the timers do not weigh on the figures above), on the same answer
 *     and on an answer that is new every time.
 *  2. Cassette scale: a 10,000-exchange cassette (~48 MB) and a ~1 GB one,
 *     generated in a temp dir and deleted after: lint time and peak RSS, replay
 *     listening time and peak RSS while serving.
 *  3. The recorder's memory over many recorded exchanges.
 *
 *   node --import tsx bench/recorder.bench.ts [--only cpu|scale|memory,...] [--skip cpu,scale,memory]
 *        [--requests N] [--rounds N] [--warmup N] [--connections N] [--exchanges N]
 *        [--scale-exchanges N] [--big-mb N] [--phase-timeout S] [--cpu-prof DIR]
 *   (--cpu-prof DIR: part 1 ends with a CPU profile of `flis record` on new answers, over the measured load only,
 *   written to DIR and summarised.)
 *   (`npm run bench -- --only cpu` runs part 1 alone, about 3 minutes.)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannonModule from 'autocannon';
import { startMock } from '../mock/server.ts';
import { encodeBody } from '../recorder/body.ts';
import { exchangeDocument, headerDocument } from '../recorder/cassette-yaml.ts';
import { cassetteHeader } from '../recorder/header.ts';
import { type Stage, stageNames } from '../recorder/stage-times.ts';

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
    requests: { type: 'string' },
    rounds: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    exchanges: { type: 'string' },
    'scale-exchanges': { type: 'string' },
    'big-mb': { type: 'string' },
    'phase-timeout': { type: 'string' },
    'cpu-prof': { type: 'string' },
    skip: { type: 'string' },
    only: { type: 'string' },
  },
});
/** Requests per box in part 1, sent in ROUNDS turns, and before them to warm the box up (JIT, the pool, caches). */
const REQUESTS = Number(values.requests ?? 20_000);
const ROUNDS = Number(values.rounds ?? 4);
const WARMUP = Number(values.warmup ?? 3_000);
const CONNECTIONS = Number(values.connections ?? 10);
const MEMORY_EXCHANGES = Number(values.exchanges ?? 50_000);
const SCALE_EXCHANGES = Number(values['scale-exchanges'] ?? 10_000);
const BIG_MB = Number(values['big-mb'] ?? 1024);
/** No phase of part 2 runs longer than this: a slower one is reported as not finished, and killed. */
const PHASE_TIMEOUT_MS = Number(values['phase-timeout'] ?? 300) * 1000;
const PARTS = ['cpu', 'scale', 'memory'] as const;
/** Part names as given; `throughput` is part 1's old name. */
const parts = (list: string): Set<string> =>
  new Set(
    list
      .split(',')
      .filter(Boolean)
      .map((p) => (p === 'throughput' ? 'cpu' : p)),
  );
const ONLY = parts(values.only ?? PARTS.join(','));
const SKIP = parts(values.skip ?? '');
const runs = (part: (typeof PARTS)[number]): boolean => ONLY.has(part) && !SKIP.has(part);
/** Part 1's GET: a list of offers, 14 kB of JSON. */
const CPU_PATH = '/offers';
/** The same list with one field numbered per request by the upstream (bench-child.ts): new bytes every time, same size. */
const FRESH_PATH = `${CPU_PATH}?fresh=1`;
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
  stages: Record<Stage, number>;
}

interface Child {
  baseUrl: string;
  proc: ChildProcess;
  /** From spawn to listening (node and tsx start-up included). */
  startMs: number;
  mem(): Promise<Sample>;
  /** Start, or stop and write to `file`, a CPU profile of the box (bench-child.ts); resolves once it is done. */
  profile(type: 'profile-start' | 'profile-stop', file?: string): Promise<void>;
  stop(): Promise<void>;
}

async function startChild(
  role: string,
  env: Record<string, string> = {},
  timeoutMs = 30_000,
  nodeArgs: string[] = [],
): Promise<Child> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, [...nodeArgs, '--expose-gc', '--import', 'tsx', CHILD, role], {
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
    profile: (type, file) =>
      new Promise((resolve) => {
        const onMessage = (m: { type?: string; done?: string }): void => {
          if (m.type !== 'profile' || m.done !== type) return;
          proc.off('message', onMessage);
          resolve();
        };
        proc.on('message', onMessage);
        proc.send({ type, file });
      }),
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

async function load(
  baseUrl: string,
  opts: { duration?: number; amount?: number; paths?: string[] } = {},
): Promise<CannonResult> {
  const url = new URL(baseUrl);
  return autocannon({
    url: url.origin,
    connections: CONNECTIONS,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration ?? 10 }),
    headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' },
    requests: (opts.paths ?? PATHS).map((p) => ({ method: 'GET', path: `${url.pathname}${p}` })),
  });
}

/** Clock ticks per second of /proc/PID/stat's times. */
const CLK_TCK = ((): number => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time of a process so far, all its threads, user and system, in µs (from /proc/PID/stat). */
function procCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) in parentheses; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLK_TCK;
}

interface Phase {
  requests: number;
  /** Requests per second while this box was loaded. */
  rps: number;
  errors: number;
  /** CPU time per request of the box, all threads, from before its first load to 2 s after the last (µs). */
  cpuUs: number;
  /** The box's own figures before and after (a full GC is taken before each, outside the CPU window). */
  before: Sample;
  after: Sample;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Warm each box up, then send REQUESTS GETs of `path` to each in ROUNDS turns, one box after the other, and take each
 * box's CPU time per request. Taking turns, the boxes compared meet the same moments of a shared machine's load.
 */
async function measure(boxes: Child[], path: string | string[] = CPU_PATH, profileTo?: string): Promise<Phase[]> {
  const pathOf = (i: number): string => (Array.isArray(path) ? path[i]! : path);
  for (const [i, box] of boxes.entries()) await load(box.baseUrl, { amount: WARMUP, paths: [pathOf(i)] });
  await sleep(1000);
  // The first box's profile covers the measured load and its write-behind work, not the start-up or the warm-up.
  if (profileTo) await boxes[0]!.profile('profile-start');
  const before: Sample[] = [];
  for (const box of boxes) before.push(await box.mem());
  const c0 = boxes.map((box) => procCpuMicros(box.proc.pid!));
  const sums = boxes.map(() => ({ requests: 0, ms: 0, errors: 0 }));
  for (let round = 0; round < ROUNDS; round += 1)
    for (const [i, box] of boxes.entries()) {
      const t0 = performance.now();
      const r = await load(box.baseUrl, { amount: Math.ceil(REQUESTS / ROUNDS), paths: [pathOf(i)] });
      sums[i]!.ms += performance.now() - t0;
      sums[i]!.requests += r.requests.total;
      sums[i]!.errors += r.non2xx + r.errors + r.timeouts;
    }
  // Write-behind work (and anything else the load left behind) is the box's cost too.
  await sleep(2000);
  const c1 = boxes.map((box) => procCpuMicros(box.proc.pid!));
  if (profileTo) await boxes[0]!.profile('profile-stop', profileTo);
  const after: Sample[] = [];
  for (const box of boxes) after.push(await box.mem());
  return boxes.map((_, i) => {
    const { requests, ms, errors } = sums[i]!;
    const n = Math.max(1, requests);
    return {
      requests,
      rps: (n * 1000) / ms,
      errors,
      cpuUs: (c1[i]! - c0[i]!) / n,
      before: before[i]!,
      after: after[i]!,
    };
  });
}

const mb = (n: number): string => (n / MB).toFixed(1);
const verdict = (ok: boolean): string => (ok ? 'met' : 'MISSED');

/** `box`'s stage totals over one measured load (FLIS_STAGE_TIMES=1), per exchange written. */
async function stageSplit(box: Child, path: string): Promise<{ phase: Phase; perExchange: Record<Stage, number> }> {
  const [phase] = (await measure([box], path)) as [Phase];
  const { before, after } = phase;
  const n = Math.max(1, after.written - before.written);
  const perExchange = Object.fromEntries(
    stageNames.map((st) => [st, ((after.stages[st] - before.stages[st]) * 1000) / n]),
  ) as Record<Stage, number>;
  return { phase, perExchange };
}

/** Part 1: the same GETs through each box, one after the other in this one run; CPU per request is the measure. */
async function cpuPerRequest(tmp: string): Promise<void> {
  const up = await startChild('upstream');
  const results: Record<string, Phase> = {};
  const env = { BENCH_UPSTREAM: up.baseUrl };
  const start = (role: string, extra: Record<string, string> = {}): Promise<Child> =>
    startChild(role, { ...env, ...extra }, PHASE_TIMEOUT_MS);
  /** Measure the named boxes side by side (taking turns), then stop them. */
  const sideBySide = async (boxes: Record<string, Child>, paths?: string[]): Promise<void> => {
    const phases = await measure(Object.values(boxes), paths);
    for (const [i, name] of Object.keys(boxes).entries()) results[name] = phases[i]!;
    for (const box of Object.values(boxes)) await box.stop();
  };
  try {
    console.error(
      `part 1: ${REQUESTS} GETs of ${CPU_PATH} per box (${ROUNDS} turns) after ${WARMUP} to warm up, ${CONNECTIONS} connections`,
    );
    const recorded = join(tmp, 'record.yaml');
    // Three at once, in turns: the bare proxy, `flis record` on the same answer every time, and `flis record` on an
    // answer it has never seen (the upstream numbers one field per request: same size, new bytes).
    await sideBySide(
      {
        bare: await start('bare-proxy'),
        record: await start('record', { BENCH_CASSETTE: recorded }),
        fresh: await start('record', { BENCH_CASSETTE: join(tmp, 'record-fresh.yaml') }),
      },
      [CPU_PATH, CPU_PATH, FRESH_PATH],
    );
    rmSync(join(tmp, 'record-fresh.yaml'), { force: true });
    const written = results.record!.after.written;
    const tapes = join(tmp, 'talkback-tapes');
    await sideBySide({ talkback: await start('talkback', { BENCH_CASSETTE: tapes }) });
    await sideBySide({
      replay: await start('replay', { BENCH_CASSETTE: recorded }),
      playback: await start('talkback-playback', { BENCH_CASSETTE: tapes }),
    });
    const replayReadyMs = results.replay!.after.readyMs;

    const cpu = (k: string): number => results[k]!.cpuUs;
    console.log(
      `\nCPU per request of the box (all threads, /proc/PID/stat, to 2 s after the load): ${REQUESTS} GETs of a 14 kB JSON list (${CPU_PATH}), ${CONNECTIONS} connections, one run:\n`,
    );
    console.log('| proxy | CPU per request | vs the bare proxy | throughput | errors+non-2xx |');
    console.log('|---|---|---|---|---|');
    for (const [name, label] of [
      ['bare', 'bare Node proxy (node:http in, undici Pool out, nothing recorded)'],
      ['record', '`flis record`, the same answer every time'],
      ['fresh', '`flis record`, a new answer every time'],
      ['talkback', 'talkback recording'],
      ['replay', '`flis replay`'],
      ['playback', 'talkback playback'],
    ] as const) {
      const p = results[name]!;
      console.log(
        `| ${label} | ${Math.round(p.cpuUs)} µs | ${(p.cpuUs / cpu('bare')).toFixed(2)} | ${Math.round(p.rps).toLocaleString('en')} req/s | ${p.errors} |`,
      );
    }
    const recordRatio = cpu('record') / cpu('bare');
    const freshRatio = cpu('fresh') / cpu('bare');
    const replayRatio = cpu('replay') / cpu('playback');
    console.log(
      `\nflis record / bare proxy: same answer ${recordRatio.toFixed(2)} (target ≤ 1.5: ${verdict(recordRatio <= 1.5)}) | new answer ${freshRatio.toFixed(2)} (target ≤ 1.5: ${verdict(freshRatio <= 1.5)}) | flis replay / talkback playback ${replayRatio.toFixed(2)} (target ≤ 1.0: ${verdict(replayRatio <= 1)})`,
    );
    console.log(
      `replay listening on the recorded cassette (${written} exchanges, ${mb(statSync(recorded).size)} MB): ${(replayReadyMs / 1000).toFixed(2)} s from start to listening (target ≤ 5 s: ${verdict(replayReadyMs <= 5000)})`,
    );
    await stages(tmp, env);
    if (values['cpu-prof']) await profile(tmp, env, values['cpu-prof']);
  } finally {
    await up.stop();
  }
}

/** The recorder's CPU by stage: on the same answer each time (as above), and on an answer new every time. */
async function stages(tmp: string, env: Record<string, string>): Promise<void> {
  const rows: Array<[string, Awaited<ReturnType<typeof stageSplit>>]> = [];
  for (const [label, path, file] of [
    ['the same 14 kB answer', CPU_PATH, 'stages-same.yaml'],
    ['a new 14 kB answer every time', FRESH_PATH, 'stages-fresh.yaml'],
  ] as const) {
    const box = await startChild('record', { ...env, BENCH_CASSETTE: join(tmp, file), FLIS_STAGE_TIMES: '1' });
    rows.push([label, await stageSplit(box, path)]);
    await box.stop();
    rmSync(join(tmp, file), { force: true });
  }
  console.log(
    '\n`flis record` by stage (CPU µs per exchange, FLIS_STAGE_TIMES=1, a run of its own with the timers on):\n',
  );
  console.log(`| answer | ${stageNames.join(' | ')} | stages in all | CPU per request |`);
  console.log(`|---|${stageNames.map(() => '---|').join('')}---|---|`);
  for (const [label, { phase, perExchange }] of rows) {
    const all = stageNames.reduce((sum, st) => sum + perExchange[st], 0);
    console.log(
      `| ${label} | ${stageNames.map((st) => perExchange[st].toFixed(1)).join(' | ')} | ${all.toFixed(1)} | ${Math.round(phase.cpuUs)} µs |`,
    );
  }
  console.log(
    '\n(The rest of CPU per request is the proxying itself, HTTP in and out, which the bare proxy also pays, and the timers: a getrusage(2) per stage, whose own cost is taken off each stage but not off CPU per request.)',
  );
}

/**
 * `flis record` under the new-answer load, CPU-profiled from the end of its warm-up to 2 s after its load (the
 * profile is written to `dir`), and the functions it spent its time in, by self time: which parts of the stages
 * above (and of the proxying) cost most.
 */
async function profile(tmp: string, env: Record<string, string>, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `record-new-answers-${Date.now()}.cpuprofile`);
  const box = await startChild('record', { ...env, BENCH_CASSETTE: join(tmp, 'profiled.yaml') }, PHASE_TIMEOUT_MS);
  const [phase] = (await measure([box], FRESH_PATH, file)) as [Phase];
  await box.stop();
  rmSync(join(tmp, 'profiled.yaml'), { force: true });
  if (!existsSync(file)) return console.log(`\n(no CPU profile was written to ${dir})`);
  console.log(
    `\n\`flis record\`, a new answer every time, by function (self time of the measured load, ${file}; ${Math.round(phase.cpuUs)} µs per request with the profiler on):\n`,
  );
  console.log('| function | where | self time | µs per request |');
  console.log('|---|---|---|---|');
  for (const { name, where, share, us } of topFunctions(file, 25, phase.requests))
    console.log(`| ${name} | ${where} | ${(share * 100).toFixed(1)}% | ${us.toFixed(1)} |`);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** The functions of a .cpuprofile with the most self time (idle left out), as shares of the busy time and per request. */
function topFunctions(
  file: string,
  n: number,
  requests: number,
): Array<{ name: string; where: string; share: number; us: number }> {
  const p = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(p.nodes.map((node) => [node.id, node]));
  const self = new Map<string, { name: string; where: string; us: number }>();
  let busy = 0;
  for (const [i, id] of p.samples.entries()) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const dt = p.timeDeltas[i + 1] ?? 0;
    busy += dt;
    const where = url ? `${url.replace(/^.*\/(node_modules\/)?/, '')}:${lineNumber + 1}` : '';
    const key = `${functionName}@${where}`;
    const name = functionName || '(anonymous)';
    // A regular expression's name is its source: its head says which one it is.
    const e = self.get(key) ?? { name: name.length > 60 ? `${name.slice(0, 57)}...` : name, where, us: 0 };
    e.us += dt;
    self.set(key, e);
  }
  return [...self.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, n)
    .map((e) => ({ name: e.name, where: e.where, share: e.us / Math.max(1, busy), us: e.us / Math.max(1, requests) }));
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
    if (runs('cpu')) await cpuPerRequest(tmp);
    if (runs('scale')) await scale(tmp);
    if (runs('memory')) await memory(tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
