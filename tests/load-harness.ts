/**
 * A busy machine on demand, for the tests that prove a verdict does not depend on load (principle 7): busy-loop
 * child processes, two per core by default, so every core stays busy and the code under test competes for it as it
 * does on a shared CI runner. Each child spins in slices and checks between them that its parent still lives, so a
 * test process killed outright leaves no spinner behind; a normal exit or stop() kills them at once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';

export interface CpuLoad {
  /** The spinners' process ids. */
  readonly pids: readonly number[];
  /** Kills every spinner and waits for each to be gone. */
  stop(): Promise<void>;
}

/** Spin for 200 ms at a time; between slices, exit if the parent (argv[1]) is gone. */
const SPINNER = `
const parent = Number(process.argv[1]);
for (;;) {
  const until = Date.now() + 200;
  while (Date.now() < until) {}
  try { process.kill(parent, 0); } catch { process.exit(0); }
}`;

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/** Starts `processes` spinners (default: two per core). */
export function startCpuLoad(processes = 2 * availableParallelism()): CpuLoad {
  killAllOnExit();
  const children = Array.from({ length: processes }, () => {
    const child = spawn(process.execPath, ['-e', SPINNER, String(process.pid)], { stdio: 'ignore' });
    running.add(child);
    child.once('exit', () => running.delete(child));
    return child;
  });
  return {
    pids: children.map((c) => c.pid ?? -1),
    stop: async () => {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}

/** Runs `work` beside a CPU load, which is stopped however `work` ends. */
export async function underLoad<T>(work: () => Promise<T>, processes?: number): Promise<T> {
  const load = startCpuLoad(processes);
  try {
    return await work();
  } finally {
    await load.stop();
  }
}

/** The one-minute load average per core, for a test's message: how busy the machine was. */
export function loadPerCore(): string {
  return (loadavg()[0]! / availableParallelism()).toFixed(1);
}
