/**
 * One server of the recorder benchmark, in its own process so that the load
 * generator, the upstream and the box under test do not share an event loop.
 * Roles: mock (the embedded mock), record, passthrough, replay (recorder/), talkback.
 * Prints its base URL on stdout; answers {type:'mem'} over IPC with its memory
 * after a full GC, its CPU time so far, and the number of exchanges it has written.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { startMock } from '../mock/server.ts';
import { startRecorder, type Recorder } from '../recorder/proxy.ts';
import { startReplayServer } from '../recorder/replay-server.ts';

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

async function start(): Promise<{ baseUrl: string; recorder?: Recorder }> {
  if (role === 'mock') return startMock({ token });
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
  if (role === 'talkback') {
    // talkback is CommonJS; its default export arrives as the module under ESM.
    const mod = (await import('talkback')) as unknown as { default: any };
    const talkback = mod.default.default ?? mod.default;
    const port = await freePort();
    mkdirSync(cassette, { recursive: true });
    const url = new URL(upstream);
    const server = talkback({
      host: url.origin,
      port,
      path: cassette,
      record: talkback.Options.RecordMode.OVERWRITE,
      silent: true,
      summary: false,
    });
    await server.start();
    return { baseUrl: `http://127.0.0.1:${port}${url.pathname}` };
  }
  throw new Error(`unknown role '${role}'`);
}

const { baseUrl, recorder } = await start();
process.on('message', (m: { type?: string }) => {
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
  });
});
process.stdout.write(`${baseUrl}\n`);
// Exit normally on SIGTERM so --cpu-prof and friends can write their output.
process.on('SIGTERM', () => process.exit(0));
