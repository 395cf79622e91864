/** The real CLI, spawned as a partner runs it: `node bin/flis.js ...` with only the environment given. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..', '..');

export interface FlisOutcome {
  code: number;
  stdout: string;
  stderr: string;
  /** The test stopped flis at its deadline: the run had not ended, so its exit code says nothing of a verdict. */
  stopped: boolean;
}

export function runFlis(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<FlisOutcome> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['bin/flis.js', ...args],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        timeout: timeoutMs,
        maxBuffer: 64 << 20,
      },
      (error, stdout, stderr) =>
        done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr, stopped: error?.killed === true }),
    );
  });
}
