/**
 * The run's clock for values that go into requests (timestamps written, time
 * windows asked for). It is the run's start (FLIS_RUN_STARTED_AT, set by the
 * runner), fixed for the whole run and shared by every worker, so a run
 * replayed from its cassette sends the same requests. Outside a run it is this
 * process's start. Deadlines and durations use the real clock, never this.
 */
import type { SuiteEnv } from '../../core/suite-env.ts';

const processStart = Date.now();

export function runNow(env: SuiteEnv = process.env): number {
  const fromRunner = Number(env.FLIS_RUN_STARTED_AT);
  return Number.isInteger(fromRunner) && fromRunner > 0 ? fromRunner : processStart;
}
