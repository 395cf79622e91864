/**
 * One server of the recorder benchmark, in its own process so that the load
 * generator, the upstream and the box under test do not share an event loop.
 * Roles: mock (the embedded mock), upstream (a minimal fast node:http server), bare-proxy (forwarding
 * and nothing else: what any Node proxy costs on this box), record, passthrough,
 * replay (recorder/), talkback (recording), talkback-playback.
 * Prints its base URL on stdout; answers {type:'mem'} over IPC with its memory
 * after a full GC, its CPU time so far, and the number of exchanges it has written.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { Pool } from 'undici';
import { startMock } from '../mock/server.ts';
import { startRecorder, type Recorder } from '../recorder/proxy.ts';
import { startReplayServer } from '../recorder/replay-server.ts';
import { stageTotals } from '../recorder/stage-times.ts';

const role = process.argv[2];
const upstream = process.env.BENCH_UPSTREAM ?? '';
const cassette = process.env.BENCH_CASSETTE ?? '';
const token = process.env.FLIS_TOKEN ?? '';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/**
 * The fast upstream: plain node:http, no framework. Its answers are the
 * embedded mock's own (valid against the contract, so the recorder's contract
 * check sees realistic traffic), fetched once at start; each request is
 * answered by serialising its answer afresh, as a service serialising its rows
 * would, so that the proxy's own cost is not hidden behind a slow upstream.
 * It checks the bearer token like a deployment. `/offers?fresh=1` answers
 * the same list with one reference changed on every request (a counter), so
 * no two answers are the same bytes: what the recorder costs on an answer it
 * has not seen before.
 */
async function startFastUpstream(): Promise<{ baseUrl: string }> {
  const mock = await startMock({ token });
  const answers = new Map<string, unknown>();
  try {
    for (const path of ['/billingGroups', '/invoices?limit=5', '/offers', '/customers']) {
      const r = await fetch(`${mock.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      answers.set(`/apis/v0${path}`, await r.json());
    }
  } finally {
    await mock.close();
  }
  let fresh = 0;
  const server = createHttpServer((req, res) => {
    const answer = req.url === '/apis/v0/offers?fresh=1' ? freshOffers(answers, ++fresh) : answers.get(req.url ?? '');
    if (req.headers.authorization !== `Bearer ${token}` || answer === undefined) {
      res.writeHead(answer === undefined ? 404 : 401, { 'content-type': 'application/json' });
      res.end('{"message":"no"}');
      return;
    }
    const body = JSON.stringify(answer);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server.listen({ host: '127.0.0.1', port: 0, backlog: 4096 }, r));
  return { baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}/apis/v0` };
}

/** The offers list with its first reference numbered `n`: still valid against the contract, new bytes every time. */
function freshOffers(answers: Map<string, unknown>, n: number): unknown {
  const offers = answers.get('/apis/v0/offers') as Array<{ references?: string[] }>;
  const first = offers[0];
  if (first?.references?.length) first.references[0] = `REF-${n}`;
  return offers;
}

/**
 * The floor: node:http in, one undici Pool out, the answer's body streamed back (GETs only: the bench sends no body), no
 * capture, no check, no cassette. flis record cannot be cheaper than this.
 */
async function startBareProxy(): Promise<{ baseUrl: string }> {
  const target = new URL(upstream);
  const pool = new Pool(target.origin, { connections: 64 });
  const server = createHttpServer((req, res) => {
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    pool.request(
      { method: 'GET', path: `${target.pathname}${(req.url ?? '/').replace(/^\/apis\/v0/, '')}`, headers },
      (err, data) => {
        if (err) {
          res.writeHead(502);
          res.end();
          return;
        }
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(data.headers)) if (v !== undefined && k !== 'connection') out[k] = v;
        res.writeHead(data.statusCode, out);
        data.body.pipe(res);
      },
    );
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server.listen({ host: '127.0.0.1', port: 0, backlog: 4096 }, r));
  return { baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}/apis/v0` };
}

async function start(): Promise<{ baseUrl: string; recorder?: Recorder }> {
  if (role === 'bare-proxy') return startBareProxy();
  if (role === 'mock') return startMock({ token });
  if (role === 'upstream') return startFastUpstream();
  if (role === 'record' || role === 'passthrough') {
    const recorder = await startRecorder({
      mode: role,
      cassette,
      upstream: { baseUrl: upstream, deployment: 'embedded' },
      env: process.env,
    });
    return { baseUrl: recorder.baseUrl, recorder };
  }
  if (role === 'replay') return startReplayServer({ cassette });
  if (role === 'talkback' || role === 'talkback-playback') {
    // talkback is CommonJS; its default export arrives as the module under ESM.
    const mod = (await import('talkback')) as unknown as { default: Talkback & { default?: Talkback } };
    const talkback = mod.default.default ?? mod.default;
    const port = await freePort();
    mkdirSync(cassette, { recursive: true });
    const url = new URL(upstream);
    const server = talkback({
      host: url.origin,
      port,
      path: cassette,
      // Playback serves the tapes recorded by the 'talkback' role and never contacts the upstream.
      record: role === 'talkback' ? talkback.Options.RecordMode.OVERWRITE : talkback.Options.RecordMode.DISABLED,
      fallbackMode: talkback.Options.FallbackMode.NOT_FOUND,
      silent: true,
      summary: false,
    });
    await server.start();
    return { baseUrl: `http://127.0.0.1:${port}${url.pathname}` };
  }
  throw new Error(`unknown role '${role}'`);
}

/** The part of talkback's untyped API the benchmark uses. */
interface Talkback {
  (options: Record<string, unknown>): { start(): Promise<unknown> };
  Options: { RecordMode: { OVERWRITE: unknown; DISABLED: unknown }; FallbackMode: { NOT_FOUND: unknown } };
}

const t0 = performance.now();
const { baseUrl, recorder } = await start();
/** From the call that starts the server to listening: for replay, the cassette's indexing. */
const readyMs = performance.now() - t0;
/**
 * A CPU profile of the measured load alone: started and stopped over IPC (`node --cpu-prof` would also hold the
 * start-up, the schemas' compilation and the warm-up, which are no part of the cost per request).
 */
let profiler: Session | undefined;
async function onProfile(m: { type?: string; file?: string }): Promise<void> {
  if (m.type === 'profile-start') {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  } else if (m.type === 'profile-stop' && profiler && m.file) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(m.file, JSON.stringify(profile));
    profiler.disconnect();
    profiler = undefined;
  }
  process.send?.({ type: 'profile', done: m.type });
}

process.on('message', (m: { type?: string; file?: string }) => {
  if (m.type === 'profile-start' || m.type === 'profile-stop') {
    void onProfile(m);
    return;
  }
  if (m.type !== 'mem') return;
  (globalThis as { gc?: () => void }).gc?.();
  const mem = process.memoryUsage();
  const cpu = process.cpuUsage();
  process.send?.({
    type: 'mem',
    rss: mem.rss,
    heapUsed: mem.heapUsed,
    written: recorder?.stats.written ?? 0,
    cpuMicros: cpu.user + cpu.system,
    maxRss: process.resourceUsage().maxRSS * 1024,
    readyMs,
    stages: stageTotals(),
  });
});
process.stdout.write(`${baseUrl}\n`);
// Exit normally on SIGTERM so --cpu-prof and friends can write their output.
process.on('SIGTERM', () => process.exit(0));
