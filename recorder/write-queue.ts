/**
 * The recorder's write-behind queue. What an exchange needs for the cassette
 * beyond its captured bytes (redaction, the contract check, YAML emission, the
 * secret guard, the write) is work the client need not wait for: it is queued
 * as the answer is handed to the client and done at the end of that event-loop
 * turn (setImmediate), all exchanges completed in the turn together, in one
 * write(2). So an exchange reaches the file a few microseconds after its
 * answer was sent, and a SIGKILL can lose only the exchanges whose answers went
 * out in the turn it interrupted. `--durable` instead does the work before the
 * answer ends and fdatasyncs: what a client saw complete is then on disk.
 *
 * A job is a series of steps. The check of a large list body pauses between
 * slices of its items (schemas/registry.ts validateInSlices): the queue then
 * gives the event loop a turn, so other exchanges are forwarded while it is
 * judged, and goes on with it in the next turn. Jobs still end in the order
 * they were queued, so the cassette keeps completion order.
 */
import type { CassetteWriter } from './cassette-writer.ts';

/** What the queue runs: an exchange to check and append (recorder/exchange-record.ts); each yield is a pause. */
export interface WriteJob {
  steps(): Iterator<void, void, void>;
}

export class WriteQueue {
  private jobs: WriteJob[] = [];
  /** The job paused between two of its steps, resumed before any other. */
  private current: Iterator<void, void, void> | undefined;
  private scheduled = false;

  constructor(
    private readonly writer: CassetteWriter | undefined,
    private readonly onError: (err: unknown) => void,
  ) {}

  push(job: WriteJob): void {
    this.jobs.push(job);
    this.schedule();
  }

  /** True while a job has been queued or paused and not yet ended. */
  get busy(): boolean {
    return this.current !== undefined || this.jobs.length > 0;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.turn());
  }

  /** One event-loop turn's work: jobs until one pauses; what they appended is written. */
  private turn(): void {
    this.scheduled = false;
    this.work(true);
    if (this.busy) this.schedule();
  }

  /** Do every queued job to its end and write what they appended; called on close. */
  flush(): void {
    this.work(false);
  }

  private work(pausing: boolean): void {
    for (;;) {
      if (!this.current) {
        const job = this.jobs.shift();
        if (!job) break;
        this.current = job.steps();
      }
      if (this.step(this.current, pausing)) this.current = undefined;
      else break;
    }
    try {
      this.writer?.flush();
    } catch (err) {
      this.onError(err);
    }
  }

  /** Runs a job until it ends (true) or, when pausing, until its next pause (false). */
  private step(it: Iterator<void, void, void>, pausing: boolean): boolean {
    try {
      for (;;) {
        if (it.next().done) return true;
        if (pausing) return false;
      }
    } catch (err) {
      this.onError(err);
      return true;
    }
  }
}
