/**
 * `npm run bench`: the recorder bench, then the latency bench, then the others, each handed the options. (With
 * them chained in the npm script, npm appended `npm run bench -- ...`'s options to the last command alone.)
 * `--only` names parts: `cpu`, `scale`, `memory` (the recorder bench's), `latency`, `lint` (the contract check's
 * bench, contract-check.bench.ts), `world` (the world-model bench, world.bench.ts), `regress` (regress.bench.ts) and `run-cost` (the default run against
 * a baseline revision, run-cost.bench.ts).
 *
 *   npm run bench [-- --only cpu|scale|memory|latency|lint|world|regress|run-cost,...] [other options of the benches]
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LATENCY = 'latency';
const LINT = 'lint';
const WORLD = 'world';
const REGRESS = 'regress';
const RUN_COST = 'run-cost';

/** The options without `--only` (either spelling), and the parts it named, if any. */
function splitOnly(args: string[]): { rest: string[]; only?: string[] } {
  const rest: string[] = [];
  let only: string[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--only') only = (args[++i] ?? '').split(',');
    else if (a.startsWith('--only=')) only = a.slice('--only='.length).split(',');
    else rest.push(a);
  }
  return only ? { rest, only } : { rest };
}

function bench(file: string, args: string[]): number {
  const script = fileURLToPath(new URL(file, import.meta.url));
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { stdio: 'inherit' });
  return r.status ?? 1;
}

const { rest, only } = splitOnly(process.argv.slice(2));
const recorderParts = only?.filter(
  (p) => p !== LATENCY && p !== LINT && p !== WORLD && p !== REGRESS && p !== RUN_COST,
);
let status = 0;
if (!recorderParts || recorderParts.length > 0)
  status ||= bench('./recorder.bench.ts', recorderParts ? [...rest, '--only', recorderParts.join(',')] : rest);
if (!only || only.includes(LATENCY)) status ||= bench('./latency.bench.ts', rest);
if (!only || only.includes(LINT)) status ||= bench('./contract-check.bench.ts', rest);
if (!only || only.includes(WORLD)) status ||= bench('./world.bench.ts', rest);
if (!only || only.includes(REGRESS)) status ||= bench('./regress.bench.ts', rest);
if (!only || only.includes(RUN_COST)) status ||= bench('./run-cost.bench.ts', rest);
process.exitCode = status;
