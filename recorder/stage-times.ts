/**
 * Where the recorder's CPU goes per exchange, by stage, for the benchmark
 * (bench/recorder.bench.ts prints the split). Off unless FLIS_STAGE_TIMES=1
 * is set when the process starts: every call site reads one constant first,
 * so the timers cost a branch when off, and a getrusage(2) per stage when on.
 * The clock is the process's CPU time, not the wall clock: on a busy machine a
 * stage's wall time holds the time other processes ran.
 */

export const STAGE_TIMES = process.env.FLIS_STAGE_TIMES === '1';

export const stageNames = ['parse', 'byte check', 'contract check', 'redaction and scan', 'emission', 'write'] as const;
export type Stage = (typeof stageNames)[number];

const totals = new Map<Stage, number>(stageNames.map((s) => [s, 0]));

/** CPU time of this process (all threads), in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** The clock when timing is on, else 0 (never read). */
export function stageStart(): number {
  return STAGE_TIMES ? cpuMs() : 0;
}

/** Add the time since `t0` to `stage`; returns the clock, so the next stage can start from it. */
export function stageEnd(stage: Stage, t0: number): number {
  const now = cpuMs();
  totals.set(stage, totals.get(stage)! + now - t0);
  return now;
}

/** CPU milliseconds spent in each stage since the process started. */
export function stageTotals(): Record<Stage, number> {
  return Object.fromEntries(totals) as Record<Stage, number>;
}
