/**
 * The shape of one `flis` subcommand. Each lives in cli/commands/<name>.ts and
 * is listed, with its one-line summary, in cli/commands/index.ts; cli/main.ts dispatches and maps errors to
 * exit codes (0 passed, 1 a check failed, 2 usage or configuration error).
 */
export interface CommandIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** Resolves when the user asks the command to stop (SIGINT/SIGTERM); long-running commands await it. */
  stopped: Promise<void>;
  /** The same, with the signal: `flis run` exits 130 (SIGINT) or 143 (SIGTERM) after cleaning up. */
  signal?: Promise<StopSignal> | undefined;
  /**
   * For a command with nothing to clean up that may hold the thread for long (a lint of a large cassette): from now
   * on SIGINT/SIGTERM end the process at once, by the signal's default action (exit status 130/143 in a shell),
   * even in the middle of synchronous work, where a listener would wait for it to end.
   */
  endOnSignal?: () => void;
}

export interface Command {
  name: string;
  /** The full text of `flis <name> --help`. */
  help: string;
  /** Returns the exit code. Throw UsageError/ConfigError (errors/flis-error.ts) for exit 2. */
  run(argv: string[], io: CommandIo): Promise<number>;
}

/** 3 and 4 are the CI gates (reporting/gates.ts): coverage below --min-coverage, drift with --fail-on drift. */
export const EXIT = { ok: 0, checkFailed: 1, usage: 2, coverageGate: 3, driftGate: 4 } as const;

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** The conventional exit code of a process stopped by a signal: 128 + its number. */
export const SIGNAL_EXIT: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143 };
