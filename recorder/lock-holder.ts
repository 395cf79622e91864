/**
 * Who holds a cassette's lock, as `<cassette>.lock` names it (cassette-lock.ts): a type of its own, so the error that
 * names the holder (errors.ts) does not import the lock that throws it.
 */
export interface LockHolder {
  pid: number;
  /** The process's start time in clock ticks since boot (Linux), which tells a reused pid apart. */
  procStart: string | null;
  host: string;
  command: string;
  since: string;
}
