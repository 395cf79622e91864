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

/**
 * What one reading of the clock costs (a getrusage(2): 1-2 µs on this machine's VM), measured once: each timed
 * interval holds about one reading's worth of it, which is taken off, so that a stage is not charged for its timer.
 */
let clockCostMs: number | undefined;

function clockCost(): number {
  if (clockCostMs === undefined) {
    const n = 2000;
    const t0 = cpuMs();
    for (let i = 0; i < n; i += 1) cpuMs();
    clockCostMs = (cpuMs() - t0) / (n + 1);
  }
  return clockCostMs;
}

/** Add the time since `t0` to `stage`, less the clock's own cost; returns the clock, so the next stage can start from it. */
export function stageEnd(stage: Stage, t0: number): number {
  const cost = clockCost();
  const now = cpuMs();
  totals.set(stage, totals.get(stage)! + Math.max(0, now - t0 - cost));
  return now;
}

/** CPU milliseconds spent in each stage since the process started. */
export function stageTotals(): Record<Stage, number> {
  return Object.fromEntries(totals) as Record<Stage, number>;
}
