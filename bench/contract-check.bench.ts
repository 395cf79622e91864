/**
 * The contract check's cost by body size, valid or not (not a timed test):
 *  1. `flis cassette lint` of a cassette with one `GET /offers` whose answer is
 *     a list of offers, at several sizes, side by side in one run: valid offers
 *     (the mock's), offers each with two violations (quantity as a string, no
 *     status), and empty objects (~40 violations in 3 bytes: the densest list of
 *     offers there is). Each lint runs in a process of its own (this file with
 *     `--child`): CPU of the lint alone (the schemas compiled before), peak RSS.
 *     Targets: CPU per MB flat across sizes (linear), a 1 MB invalid body within
 *     2x a valid one, every body capped at 10 listed violations.
 *  2. Peak RSS of the whole `flis cassette lint FILE` on 100 MB single-line
 *     documents of six shapes (a response list, a request list, a text body, a
 *     base64 body, a line that is no cassette, one JSON object): target < 300 MB.
 *     With --compare-flis DIR, the same command of another checkout beside it.
 *  3. `flis record`: a small GET sent while a large invalid answer before it is
 *     judged: its latency, against the same GET with nothing being judged.
 *
 *   node --import tsx bench/contract-check.bench.ts [--sizes-kb 100,200,400,1024,4096] [--big-mb 100]
 *        [--phase-timeout S] [--check-parts size,memory,recorder] [--compare-flis DIR]
 *   (`npm run bench -- --only lint`)
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { startMock } from '../mock/server.ts';
import { headerDocument } from '../recorder/cassette-yaml.ts';
import { cassetteHeader } from '../recorder/header.ts';
import { lintCassette } from '../recorder/lint.ts';
import { startRecorder } from '../recorder/proxy.ts';

const { values } = parseArgs({
  options: {
    child: { type: 'string' },
    'sizes-kb': { type: 'string' },
    'big-mb': { type: 'string' },
    'phase-timeout': { type: 'string' },
    'check-parts': { type: 'string' },
    'compare-flis': { type: 'string' },
  },
  allowPositionals: true,
  // `npm run bench` hands every bench the options of all of them.
  strict: false,
}) as { values: Record<string, string | undefined> };

const KB = 1024;
const MB = 1024 * KB;
const TOKEN = 'bench-token-6f1d0c2a9b7e4d3f8a5c';
const SIZES_KB = (values['sizes-kb'] ?? '100,200,400,1024,4096').split(',').map(Number);
/** Which of the three parts run: `size`, `memory`, `recorder`. */
const CHECK_PARTS = new Set((values['check-parts'] ?? 'size,memory,recorder').split(','));
const BIG_MB = Number(values['big-mb'] ?? 100);
const PHASE_TIMEOUT_MS = Number(values['phase-timeout'] ?? 300) * 1000;
const SELF = fileURLToPath(import.meta.url);

type Kind = 'valid' | 'invalid' | 'empty';
const KINDS: Record<Kind, string> = {
  valid: 'valid offers',
  invalid: 'offers, 2 violations each',
  empty: 'empty objects, ~40 violations each',
};

interface Run {
  cpuMs: number;
  ms: number;
  maxRss: number;
  findings: number;
  /** Why the lint refused the file (a CassetteParseError's message, cut). */
  refused?: string;
  /** CPU of JSON.parse of the body alone (ms). */
  parseMs?: number;
  exit?: string;
}

/** Pairs of a large answer and a small GET in part 3; the medians are reported (one pair can meet a busy moment). */
const SHARE_REPEAT = 5;

/** Lints in the child: each run's CPU is measured; the least of them is reported (the others met a busy machine). */
const REPEAT = 3;

/** In the child: the schemas compiled (a lint of a small invalid cassette), then the lint measured alone. */
function child(file: string, warm: string): void {
  lintCassette(warm);
  let best: Run | undefined;
  for (let i = 0; i < REPEAT; i++) {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    let findings = 0;
    let refused: string | undefined;
    try {
      findings = lintCassette(file).findings.length;
    } catch (e) {
      refused = (e as Error).message.slice(0, 100);
    }
    const cpu = process.cpuUsage(cpu0);
    const run: Run = {
      ms: performance.now() - t0,
      cpuMs: (cpu.user + cpu.system) / 1000,
      maxRss: process.resourceUsage().maxRSS * 1024,
      findings,
      ...(refused ? { refused } : {}),
    };
    if (!best || run.cpuMs < best.cpuMs) best = run;
    // Peak memory is the first run's: later runs would only repeat it. One run is enough for a refused file.
    if (refused || statSync(file).size > 50 * MB) break;
  }
  best!.maxRss = process.resourceUsage().maxRSS * 1024;
  const parseMs = bodyParseMs(file);
  if (parseMs !== undefined) best!.parseMs = parseMs;
  process.stdout.write(`${JSON.stringify(best)}\n`);
}

/** CPU of JSON.parse of the cassette's body line alone, for comparison: the part of a lint no check can save. */
function bodyParseMs(file: string): number | undefined {
  if (statSync(file).size > 50 * MB) return undefined;
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf('\n  body: ');
  if (at < 0) return undefined;
  const line = text.slice(at + 9, text.indexOf('\n', at + 1));
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < REPEAT; i++) {
    const cpu0 = process.cpuUsage();
    JSON.parse(line);
    const cpu = process.cpuUsage(cpu0);
    best = Math.min(best, (cpu.user + cpu.system) / 1000);
  }
  return best;
}

function inChild(file: string, warm: string): Promise<Run> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', SELF, '--child', file, warm], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += String(c);
    });
    proc.stderr!.on('data', (c: Buffer) => {
      err += String(c);
    });
    const timer = setTimeout(() => proc.kill('SIGKILL'), PHASE_TIMEOUT_MS);
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out) as Run);
      } catch {
        const why =
          signal === 'SIGKILL' ? `not finished within ${PHASE_TIMEOUT_MS / 1000} s` : (err.split('\n')[0] ?? '');
        resolve({
          cpuMs: Number.NaN,
          ms: Number.NaN,
          maxRss: Number.NaN,
          findings: 0,
          exit: `${signal ?? code}: ${why}`,
        });
      }
    });
  });
}

async function mockOffer(): Promise<Record<string, unknown>> {
  const mock = await startMock({ token: TOKEN });
  try {
    const r = await fetch(`${mock.baseUrl}/offers`, { headers: { authorization: `Bearer ${TOKEN}` } });
    return ((await r.json()) as Array<Record<string, unknown>>)[0]!;
  } finally {
    await mock.close();
  }
}

/** A list of `kind` items of about `bytes` bytes of JSON. */
function listOf(kind: Kind, template: Record<string, unknown>, bytes: number): unknown[] {
  const items: unknown[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    let item: Record<string, unknown> = {};
    if (kind !== 'empty') {
      item = { ...template, id: `offer-${i}` };
      if (kind === 'invalid') {
        item.quantity = String(item.quantity);
        delete item.status;
      }
    }
    size += JSON.stringify(item).length + 1;
    items.push(item);
  }
  return items;
}

/**
 * A cassette of one `GET /offers` answered by `body` (a JSON text, or the scalar of `encoding`, written on one line as
 * the recorder does); with `requestBody`, a `POST /offers/bulk` sending it.
 */
function cassetteOf(
  file: string,
  body: string,
  o: { encoding?: 'json' | 'text' | 'base64'; path?: string; requestBody?: string } = {},
): number {
  const encoding = o.encoding ?? 'json';
  const request = o.requestBody
    ? [
        '  method: POST',
        '  path: /offers/bulk',
        '  query: {}',
        '  headers:',
        '    authorization: "Bearer [REDACTED]"',
        '    content-type: application/json',
      ]
    : [
        '  method: GET',
        `  path: ${o.path ?? '/offers'}`,
        '  query: {}',
        '  headers:',
        '    authorization: "Bearer [REDACTED]"',
      ];
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, headerDocument(cassetteHeader('bench', 'http://127.0.0.1:1/apis/v0')));
    writeSync(fd, ['---', 'seq: 1', 'startedAt: "2026-01-01T00:00:00.000Z"', 'request:', ...request, ''].join('\n'));
    if (o.requestBody) {
      writeSync(fd, '  body: ');
      writeSync(fd, o.requestBody);
      writeSync(fd, `\n  bodyEncoding: json\n  bodySize: ${Buffer.byteLength(o.requestBody)}\n`);
    }
    writeSync(
      fd,
      `response:\n  status: 200\n  headers:\n    content-type: ${encoding === 'json' ? 'application/json' : 'application/octet-stream'}\n  body: `,
    );
    writeSync(fd, body);
    writeSync(
      fd,
      `\n  bodyEncoding: ${encoding}\n  bodySize: ${encoding === 'json' ? Buffer.byteLength(body) : body.length}\n  timing:\n    durationMs: 1\n    firstByteMs: 1\nviolations: []\n...\n`,
    );
  } finally {
    closeSync(fd);
  }
  return statSync(file).size;
}

const mb = (n: number): string => (n / MB).toFixed(1);
const verdict = (ok: boolean): string => (ok ? 'met' : '**missed**');

async function lintBySize(tmp: string, template: Record<string, unknown>, warm: string): Promise<void> {
  console.log(
    `\n\`flis cassette lint\` of one \`GET /offers\` answer, by size and kind (CPU of the lint alone, the least of ${REPEAT} runs in a process of its own):\n`,
  );
  console.log(`| body | ${Object.values(KINDS).join(' | ')} |`);
  console.log(
    `|---|${Object.keys(KINDS)
      .map(() => '---|')
      .join('')}`,
  );
  const at1mb: Partial<Record<Kind, Run>> = {};
  const perMb: Record<Kind, number[]> = { valid: [], invalid: [], empty: [] };
  const sizesMb: Record<Kind, number[]> = { valid: [], invalid: [], empty: [] };
  for (const kb of SIZES_KB) {
    const cells: string[] = [];
    for (const kind of Object.keys(KINDS) as Kind[]) {
      const file = join(tmp, `${kind}-${kb}.yaml`);
      const body = JSON.stringify(listOf(kind, template, kb * KB));
      cassetteOf(file, body);
      const run = await inChild(file, warm);
      rmSync(file, { force: true });
      if (run.exit) {
        cells.push(run.exit);
        continue;
      }
      perMb[kind].push(run.cpuMs / (Buffer.byteLength(body) / MB));
      sizesMb[kind].push(Buffer.byteLength(body) / MB);
      if (kb === 1024) at1mb[kind] = run;
      const parse = run.parseMs !== undefined ? ` (JSON.parse of the body alone ${run.parseMs.toFixed(0)} ms)` : '';
      cells.push(`${run.cpuMs.toFixed(0)} ms CPU${parse}, ${mb(run.maxRss)} MB peak, ${run.findings} listed`);
    }
    console.log(`| ${kb} KB | ${cells.join(' | ')} |`);
  }
  // Growth between two sizes as an exponent: t ~ size^k, k = 1 linear, 2 quadratic (the fixed cost of an exchange
  // makes k < 1 at small sizes). Judged where both times are at least 10 ms: below that, a timer tick or a GC is
  // a large part of the figure.
  console.log(
    '\nGrowth of the CPU time between consecutive sizes, as an exponent k (time ~ size^k; 1 linear, 2 quadratic; judged where both times are ≥ 10 ms):\n',
  );
  for (const kind of Object.keys(KINDS) as Kind[]) {
    const t = perMb[kind].map((x, i) => x * sizesMb[kind][i]!);
    const ks: string[] = [];
    let worst = 0;
    for (let i = 1; i < t.length; i++) {
      const k = Math.log(t[i]! / t[i - 1]!) / Math.log(sizesMb[kind][i]! / sizesMb[kind][i - 1]!);
      const judged = t[i - 1]! >= 10;
      if (judged) worst = Math.max(worst, k);
      ks.push(judged ? k.toFixed(2) : `(${k.toFixed(2)})`);
    }
    console.log(`- ${KINDS[kind]}: k = ${ks.join(', ')} (target: linear, k ≤ 1.2: ${verdict(worst <= 1.2)})`);
  }
  const valid = at1mb.valid;
  if (SIZES_KB.includes(1024)) await wholeCommands(tmp, template);
  for (const kind of ['invalid', 'empty'] as const) {
    const bad = at1mb[kind];
    if (valid && bad)
      console.log(
        `- 1 MB ${KINDS[kind]} / valid: ${(bad.cpuMs / valid.cpuMs).toFixed(2)} (target ≤ 2: ${verdict(bad.cpuMs <= 2 * valid.cpuMs)})`,
      );
  }
}

const FLIS = fileURLToPath(new URL('../bin/flis.js', import.meta.url));

/** CPU (user + system) and peak RSS of a whole `flis cassette lint FILE`, start-up and compilation included. */
function wholeCommand(file: string, flis = FLIS): Promise<{ cpuMs: number; maxRss: number } | undefined> {
  return new Promise((resolve) => {
    const proc = spawn('/usr/bin/time', ['-f', 'BENCH %U %S %M', process.execPath, flis, 'cassette', 'lint', file], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    proc.stderr!.on('data', (c: Buffer) => {
      err += String(c);
    });
    proc.once('error', () => resolve(undefined));
    proc.once('exit', () => {
      const m = /BENCH ([\d.]+) ([\d.]+) (\d+)/.exec(err);
      resolve(m ? { cpuMs: (Number(m[1]) + Number(m[2])) * 1000, maxRss: Number(m[3]) * 1024 } : undefined);
    });
  });
}

/** The whole command at 1 MB, each kind: the least CPU of REPEAT runs, and the ratio of each invalid kind to valid. */
async function wholeCommands(tmp: string, template: Record<string, unknown>): Promise<void> {
  const best: Partial<Record<Kind, number>> = {};
  for (const kind of Object.keys(KINDS) as Kind[]) {
    const file = join(tmp, `whole-${kind}.yaml`);
    cassetteOf(file, JSON.stringify(listOf(kind, template, MB)));
    for (let i = 0; i < REPEAT; i++) {
      const run = await wholeCommand(file);
      if (run) best[kind] = Math.min(best[kind] ?? Number.POSITIVE_INFINITY, run.cpuMs);
    }
    rmSync(file, { force: true });
  }
  if (best.valid === undefined) {
    console.log('\n(the whole command was not measured: /usr/bin/time is missing)');
    return;
  }
  console.log(
    `\nThe whole \`flis cassette lint\` at 1 MB (start-up and the schemas' compilation included; the least CPU of ${REPEAT} runs): ${(Object.keys(KINDS) as Kind[]).map((k) => `${KINDS[k]} ${best[k]?.toFixed(0)} ms`).join(', ')}; ${(['invalid', 'empty'] as const).map((k) => `${k} / valid ${((best[k] ?? Number.NaN) / best.valid!).toFixed(2)}`).join(', ')}`,
  );
}

/** The 100 MB single-line documents of part 2, each a way a cassette holds one long line. */
const SHAPES = {
  'response-list': 'one GET /offers answered with a list of valid offers',
  'request-list': 'one POST /offers/bulk sending a list of valid offers (a bulk write)',
  text: 'one GET answered with a text body (a double-quoted scalar)',
  base64: 'one GET answered with a binary body (base64)',
  'no-cassette': 'a file of one line that is no cassette (refused)',
  object: 'one GET /invoices/x answered with one JSON object holding the list',
} as const;
type Shape = keyof typeof SHAPES;

/** A cassette (or not) of `shape`, about `bytes` long, on one line where it is long. */
function bigDocument(file: string, shape: Shape, template: Record<string, unknown>, bytes: number): number {
  if (shape === 'no-cassette') {
    const fd = openSync(file, 'w');
    const chunk = Buffer.alloc(4 * MB, 'x');
    for (let n = 0; n < bytes; n += chunk.length) writeSync(fd, chunk);
    closeSync(fd);
    return statSync(file).size;
  }
  const list = (): string => JSON.stringify(listOf('valid', template, bytes));
  if (shape === 'response-list') return cassetteOf(file, list());
  if (shape === 'object') return cassetteOf(file, `{"items":${list()}}`, { path: '/invoices/x' });
  if (shape === 'text') return cassetteOf(file, JSON.stringify('x'.repeat(bytes)), { encoding: 'text' });
  if (shape === 'base64')
    return cassetteOf(file, Buffer.alloc(Math.floor((bytes * 3) / 4), 7).toString('base64'), { encoding: 'base64' });
  return cassetteOf(file, '{"batchId":"b-1"}', { requestBody: list() });
}

/**
 * Part 2: the peak RSS of the whole `flis cassette lint FILE` (start-up included, as a user runs it) on each 100 MB
 * single-line document; with --compare-flis DIR, the same command of another checkout beside it (before and after
 * in one run).
 */
async function lintMemory(tmp: string, template: Record<string, unknown>): Promise<void> {
  if (BIG_MB <= 0) return;
  const others = values['compare-flis'] ? [['other', join(values['compare-flis'], 'bin', 'flis.js')] as const] : [];
  const runs = [['this', FLIS] as const, ...others];
  console.log(`
Peak RSS of the whole \`flis cassette lint FILE\` on ~${BIG_MB} MB single-line documents (target < 300 MB):\n`);
  console.log(`| document | ${runs.map(([name]) => `${name}: peak RSS, CPU`).join(' | ')} |`);
  console.log(`|---|${runs.map(() => '---|').join('')}`);
  for (const shape of Object.keys(SHAPES) as Shape[]) {
    const file = join(tmp, `big-${shape}.yaml`);
    const bytes = bigDocument(file, shape, template, BIG_MB * MB);
    const cells: string[] = [];
    for (const [, bin] of runs) {
      const run = await wholeCommand(file, bin);
      cells.push(
        run
          ? `${mb(run.maxRss)} MB${run.maxRss < 300 * MB ? '' : ' (**over**)'}, ${(run.cpuMs / 1000).toFixed(1)} s`
          : 'not measured',
      );
    }
    rmSync(file, { force: true });
    console.log(`| ${SHAPES[shape]}, ${mb(bytes)} MB | ${cells.join(' | ')} |`);
  }
}

/** Part 3: a small GET's latency through `flis record` while a large invalid answer before it is judged. */
async function recorderShare(tmp: string): Promise<void> {
  console.log(
    `\n\`flis record\`: latency of a small \`GET /invoices\` sent once a large invalid answer has come back (medians of ${SHARE_REPEAT} pairs):\n`,
  );
  const agent = new Agent({ connections: 4 });
  try {
    let body = '';
    const upstream = createServer((req, res) => {
      if (req.url?.includes('/offers')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(body);
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const port = (upstream.address() as { port: number }).port;
    const rec = await startRecorder({
      mode: 'record',
      cassette: join(tmp, 'share.yaml'),
      upstream: { baseUrl: `http://127.0.0.1:${port}/apis/v0`, deployment: null },
      env: { FLIS_TOKEN: TOKEN },
    });
    const get = async (path: string): Promise<number> => {
      const t0 = performance.now();
      const r = await request(`${rec.baseUrl}${path}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
        dispatcher: agent,
      });
      await r.body.text();
      return performance.now() - t0;
    };
    console.log(
      `| large answer before it | its own round trip | the small GET after it | the small GET, nothing judged | the event loop's longest turn while it is judged | the same in CPU time |`,
    );
    console.log('|---|---|---|---|---|---|');
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    for (const kb of [400, 1024]) {
      // Under the recorder's 1 MB body cap with the pair's marker: a body over it is kept cut and not judged.
      const list = listOf('empty', {}, kb * KB - 32);
      const rows: { large: number; small: number; idle: number; block: number; cpu: number }[] = [];
      for (let i = 0; i < SHARE_REPEAT; i++) {
        // A new answer each time: the recorder stores and judges bytes it has seen before only once.
        body = JSON.stringify([...list, { pair: i }]);
        await get('/invoices');
        const idle = await get('/invoices');
        loop.reset();
        const turns = longestTurnCpu();
        const large = await get('/offers');
        const small = await get('/invoices');
        // Let the judging end before the next pair.
        await new Promise((r) => setTimeout(r, 1500));
        rows.push({ large, small, idle, block: loop.max / 1e6, cpu: turns.stop() });
      }
      const m = (k: keyof (typeof rows)[number]): string => median(rows.map((r) => r[k])).toFixed(1);
      console.log(
        `| ${kb} KB of empty offers | ${m('large')} ms | ${m('small')} ms (of ${rows.map((r) => r.small.toFixed(0)).join(', ')}) | ${m('idle')} ms | ${m('block')} ms | ${m('cpu')} ms |`,
      );
    }
    loop.disable();
    await rec.close();
    await new Promise<void>((r) => upstream.close(() => r()));
  } finally {
    await agent.close();
  }
}

/**
 * The most CPU time one event-loop turn took until stop(): a check-phase callback that sets itself again reads the
 * process's CPU once a turn. Unlike wall time, a busy machine does not lengthen it (other processes' time is not
 * counted), so it shows the longest piece of work the recorder does without letting another exchange in.
 */
function longestTurnCpu(): { stop(): number } {
  const cpu = (): number => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  let last = cpu();
  let longest = 0;
  let running = true;
  const tick = (): void => {
    const now = cpu();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop: () => {
      running = false;
      return longest;
    },
  };
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'flis-bench-check-'));
  try {
    const template = await mockOffer();
    const warm = join(tmp, 'warm.yaml');
    // Invalid past the cap, so both validators (every error, and first error only) are compiled before measuring.
    cassetteOf(warm, JSON.stringify(listOf('invalid', template, 24 * KB)));
    console.error('contract-check bench: lint by size, lint memory, the recorder meanwhile');
    if (CHECK_PARTS.has('size')) await lintBySize(tmp, template, warm);
    if (CHECK_PARTS.has('memory')) await lintMemory(tmp, template);
    if (CHECK_PARTS.has('recorder')) await recorderShare(tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (values.child) child(values.child, process.argv.at(-1)!);
else await main();
