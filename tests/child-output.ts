/** Waiting on what a spawned child process prints, for tests that start a real server. */
import type { ChildProcess } from 'node:child_process';

/**
 * Resolves with the first match of `pattern` in the child's stdout; rejects if the
 * child exits first or the deadline passes (then the child is killed). Stdout keeps
 * draining afterwards, so a chatty server never blocks on a full pipe.
 */
export function waitForOutput(child: ChildProcess, pattern: RegExp, deadlineMs: number): Promise<RegExpMatchArray> {
  const stdout = child.stdout;
  if (!stdout) return Promise.reject(new Error('spawn the child with stdout piped'));
  return new Promise((resolve, reject) => {
    let out = '';
    const finish = (): void => {
      clearTimeout(timer);
      child.off('exit', onExit);
      stdout.off('data', onData);
      stdout.resume();
    };
    const onData = (chunk: Buffer | string): void => {
      out += String(chunk);
      const m = out.match(pattern);
      if (m) {
        finish();
        resolve(m);
      }
    };
    const onExit = (code: number | null, signal: string | null): void => {
      finish();
      reject(new Error(`the child exited (${signal ?? code}) before printing ${pattern}; it printed: ${out}`));
    };
    const timer = setTimeout(() => {
      finish();
      child.kill('SIGKILL');
      reject(new Error(`no ${pattern} within ${deadlineMs} ms; the child printed: ${out}`));
    }, deadlineMs);
    stdout.on('data', onData);
    child.once('exit', onExit);
  });
}
