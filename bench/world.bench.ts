/**
 * The world-model bench (issue 25), not a timed test: the default `flis run` against the embedded mock with the world
 * model on (as every run has it) and off (FLIS_WORLD_MODEL=off: no neighbour writes, no view comparisons,
 * view-consistency skipped), side by side in one bench run and interleaved (off, on, off, on, ...), so a machine
 * that gets busier or quieter during the bench weighs on both alike. Prints each run and the ratio of the medians
 * against the target (at most 1.3×), and the requests each run sent, which the machine's load does not change. Same
 * seed for every run; all traffic is on loopback.
 *
 *   node --import tsx bench/world.bench.ts [--pairs 3] [--seed N]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const TARGET_RATIO = 1.3;

// Not strict: `npm run bench -- ...` hands the other benches' options to this one too.
const { values } = parseArgs({
  options: { pairs: { type: 'string' }, seed: { type: 'string' } },
  strict: false,
  allowPositionals: true,
});
const pairs = Math.max(1, Number(values.pairs ?? 3));
const seed = Number(values.seed ?? 424242);

interface RunFigure {
  model: 'on' | 'off';
  seconds: number;
  code: number | null;
  verdict: string;
  /** Requests the run sent (run.json): what the model adds, whatever the machine's load. */
  requests: number;
}

function requestsOf(reportDir: string): number {
  try {
    const run = JSON.parse(readFileSync(join(reportDir, 'run.json'), 'utf8')) as { network?: { requests?: number } };
    return run.network?.requests ?? 0;
  } catch {
    return 0;
  }
}

function flisRun(model: 'on' | 'off', reportDir: string): Promise<RunFigure> {
  const started = performance.now();
  const args = ['bin/flis.js', 'run', '--seed', String(seed), '--progress', 'none', '--report-dir', reportDir];
  const env = { ...process.env, ...(model === 'off' ? { FLIS_WORLD_MODEL: 'off' } : {}) };
  if (model === 'on') delete env.FLIS_WORLD_MODEL;
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
  child.stderr.on('data', (b: Buffer) => (out += b.toString('utf8')));
  return new Promise((done) =>
    child.on('close', (code) => {
      if (code !== 0) process.stderr.write(`world model ${model}: flis run exited ${code}\n${out}\n`);
      done({
        model,
        seconds: (performance.now() - started) / 1000,
        code,
        requests: requestsOf(reportDir),
        verdict: /flis run: ([A-Z][A-Z-]+) \(/.exec(out)?.[1] ?? /flis run: ([A-Z][A-Z-]+)/.exec(out)?.[1] ?? '?',
      });
    }),
  );
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

const dir = mkdtempSync(join(tmpdir(), 'flis-world-bench-'));
try {
  const runs: RunFigure[] = [];
  for (let i = 0; i < pairs; i++)
    for (const model of ['off', 'on'] as const) runs.push(await flisRun(model, join(dir, `${model}-${i}`)));
  console.log(`world-model bench: the default flis run (seed ${seed}, embedded mock), ${pairs} pair(s), interleaved`);
  console.log('world model  seconds  requests  exit  verdict');
  for (const r of runs)
    console.log(
      `${r.model.padEnd(11)}  ${r.seconds.toFixed(1).padStart(7)}  ${String(r.requests).padStart(8)}  ${String(r.code).padStart(4)}  ${r.verdict}`,
    );
  const off = median(runs.filter((r) => r.model === 'off').map((r) => r.seconds));
  const on = median(runs.filter((r) => r.model === 'on').map((r) => r.seconds));
  const ratio = on / off;
  console.log(
    `median off ${off.toFixed(1)} s, on ${on.toFixed(1)} s: ratio ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×): ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
