/**
 * The run's clock for values that go into requests (timestamps written, time
 * windows asked for). It is the run's start, fixed for the whole run and
 * shared by every worker, so a run replayed from its cassette sends the same
 * requests. Deadlines and durations use the real clock, never this.
 */
import { target } from './target.ts';

export function runNow(): number {
  return target().startedAt;
}
