/**
 * What the default run costs against a baseline revision (issue 31: at most 1.5× the run before the model of the
 * spec's state), not a timed test: the default `flis run` against the embedded mock, from this tree and from a
 * checkout of the baseline revision (a detached git worktree sharing this tree's node_modules), side by side in one
 * bench run and interleaved (baseline, now, baseline, now, ...), so a machine that gets busier or quieter weighs on
 * both alike. Prints each run's wall time, CPU time (user + system, of flis and its workers, from /usr/bin/time where
 * the machine has it) and requests, and the ratios of the medians. CPU per run is the figure a 2-core box that other
 * work shares can hold to; the requests do not depend on the load at all. Same seed for every run; loopback only.
 *
 *   node --import tsx bench/run-cost.bench.ts [--baseline REV] [--pairs 3] [--seed N]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const TARGET_RATIO = 1.5;
/** The last commit before issue 31's model of the spec's state. */
const DEFAULT_BASELINE = '110e935';
const TIME = '/usr/bin/time';

// Not strict: `npm run bench -- ...` hands the other benches' options to this one too.
const { values } = parseArgs({
  options: { pairs: { type: 'string' }, seed: { type: 'string' }, baseline: { type: 'string' } },
  strict: false,
  allowPositionals: true,
});
const pairs = Math.max(1, Number(values.pairs ?? 3));
const seed = Number(values.seed ?? 424242);
const baseline = String(values.baseline ?? DEFAULT_BASELINE);

interface RunFigure {
  tree: 'baseline' | 'now';
  wall: number;
  /** User + system seconds of the run and its children; undefined without /usr/bin/time. */
  cpu?: number | undefined;
  requests: number;
  code: number | null;
  verdict: string;
}

function requestsOf(reportDir: string): number {
  try {
    const run = JSON.parse(readFileSync(join(reportDir, 'run.json'), 'utf8')) as { network?: { requests?: number } };
    return run.network?.requests ?? 0;
  } catch {
    return 0;
  }
}

function flisRun(tree: RunFigure['tree'], cwd: string, reportDir: string, cpuFile: string): Promise<RunFigure> {
  const started = performance.now();
  const args = ['bin/flis.js', 'run', '--seed', String(seed), '--progress', 'none', '--report-dir', reportDir];
  const timed = existsSync(TIME);
  const [cmd, argv] = timed
    ? [TIME, ['-f', '%U %S', '-o', cpuFile, process.execPath, ...args]]
    : [process.execPath, args];
  const child = spawn(cmd, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
  child.stderr.on('data', (b: Buffer) => (out += b.toString('utf8')));
  return new Promise((done) =>
    child.on('close', (code) => {
      if (code !== 0) process.stderr.write(`${tree}: flis run exited ${code}\n${out.slice(-2000)}\n`);
      const cpu = timed ? cpuOf(cpuFile) : undefined;
      done({
        tree,
        wall: (performance.now() - started) / 1000,
        cpu,
        code,
        requests: requestsOf(reportDir),
        verdict: /flis run: ([A-Z][A-Z -]+?) \(/.exec(out)?.[1] ?? '?',
      });
    }),
  );
}

function cpuOf(file: string): number | undefined {
  const [user, sys] = readFileSync(file, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
  return user !== undefined && sys !== undefined && Number.isFinite(user + sys) ? user + sys : undefined;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

function ratioLine(what: string, figures: RunFigure[], of: (r: RunFigure) => number | undefined): string {
  const pick = (tree: RunFigure['tree']) =>
    figures.filter((r) => r.tree === tree).flatMap((r) => (of(r) === undefined ? [] : [of(r) as number]));
  const [b, n] = [pick('baseline'), pick('now')];
  if (b.length === 0 || n.length === 0) return `${what}: not measured`;
  const ratio = median(n) / median(b);
  return `${what}: median baseline ${median(b).toFixed(1)}, now ${median(n).toFixed(1)}: ratio ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×): ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`;
}

const dir = mkdtempSync(join(tmpdir(), 'flis-run-cost-bench-'));
const base = join(dir, 'baseline');
const added = spawnSync('git', ['worktree', 'add', '--detach', base, baseline], { cwd: ROOT, encoding: 'utf8' });
if (added.status !== 0) {
  process.stderr.write(`run-cost bench: cannot check out ${baseline}: ${added.stderr.trim()}\n`);
  process.exit(2);
}
try {
  symlinkSync(join(ROOT, 'node_modules'), join(base, 'node_modules'));
  const runs: RunFigure[] = [];
  for (let i = 0; i < pairs; i++)
    for (const [tree, cwd] of [
      ['baseline', base],
      ['now', ROOT],
    ] as const)
      runs.push(await flisRun(tree, cwd, join(dir, `${tree}-${i}`), join(dir, `${tree}-${i}.cpu`)));
  console.log(
    `run-cost bench: the default flis run (seed ${seed}, embedded mock) at ${baseline} and now, ${pairs} pair(s)`,
  );
  console.log('tree      wall s   cpu s  requests  exit  verdict');
  for (const r of runs)
    console.log(
      `${r.tree.padEnd(8)}  ${r.wall.toFixed(1).padStart(6)}  ${(r.cpu?.toFixed(1) ?? '-').padStart(6)}  ${String(r.requests).padStart(8)}  ${String(r.code).padStart(4)}  ${r.verdict}`,
    );
  console.log(ratioLine('wall seconds', runs, (r) => r.wall));
  console.log(ratioLine('CPU seconds', runs, (r) => r.cpu));
  console.log(ratioLine('requests', runs, (r) => r.requests));
} finally {
  spawnSync('git', ['worktree', 'remove', '--force', base], { cwd: ROOT });
  rmSync(dir, { recursive: true, force: true });
}
