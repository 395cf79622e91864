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
 */
import type { CassetteWriter } from './cassette-writer.ts';

/** What the queue runs: an exchange to check and append (recorder/exchange-record.ts). */
export interface WriteJob {
  run(): void;
}

export class WriteQueue {
  private jobs: WriteJob[] = [];
  private scheduled = false;

  constructor(
    private readonly writer: CassetteWriter | undefined,
    private readonly onError: (err: unknown) => void,
  ) {}

  push(job: WriteJob): void {
    this.jobs.push(job);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Do every queued job and write what they appended; also called on close. */
  flush(): void {
    this.scheduled = false;
    const jobs = this.jobs;
    this.jobs = [];
    for (const job of jobs) {
      try {
        job.run();
      } catch (err) {
        this.onError(err);
      }
    }
    try {
      this.writer?.flush();
    } catch (err) {
      this.onError(err);
    }
  }
}
