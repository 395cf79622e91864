/**
 * `flis mock` writes a minted token to flis-mock-PORT.token in the system temp
 * directory; stopping the mock the two usual ways (Ctrl-C is SIGINT, a service
 * manager or `kill` is SIGTERM) removes it, so no stale secret file piles up.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { waitForOutput } from '../child-output.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** `flis mock` with its temp dir (os.tmpdir() honours TMPDIR), where it writes the token file. */
function spawnMock(tmp: string) {
  const child = spawn(process.execPath, [join(ROOT, 'bin/flis.js'), 'mock', '--port', '0'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { child, exited: once(child, 'exit') };
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`flis mock removes its token file on ${signal}`, async () => {
    // A private temp dir (os.tmpdir() honours TMPDIR): the test sees only its own file, and removes the dir.
    const tmp = mkdtempSync(join(tmpdir(), 'flis-mock-token-'));
    const { child, exited } = spawnMock(tmp);
    try {
      const file = (await waitForOutput(child, /token: in (\S+flis-mock-\d+\.token)/, 60_000))[1]!;
      assert.ok(file.startsWith(tmp), `the token file is in the temp dir: ${file}`);
      assert.equal(statSync(file).mode & 0o777, 0o600, 'readable only by the user');
      child.kill(signal);
      const [code] = await exited;
      assert.equal(code, 0, `flis mock exits 0 on ${signal}`);
      assert.equal(existsSync(file), false, `${file} is removed on ${signal}`);
      assert.deepEqual(
        readdirSync(tmp).filter((f) => f.startsWith('flis-mock-')),
        [],
      );
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(tmp, { recursive: true, force: true });
    }
  });
}

test('flis mock prints a line that can be pasted into a shell as it is: FLIS_TOKEN becomes the token', async () => {
  // A temp dir whose path has a space and a quote: the line must quote it.
  const tmp = mkdtempSync(join(tmpdir(), "flis mock's token-"));
  const { child, exited } = spawnMock(tmp);
  try {
    const line = (await waitForOutput(child, /for a client: (export FLIS_TOKEN=.*)$/m, 60_000))[1]!;
    const file = readdirSync(tmp).find((f) => f.startsWith('flis-mock-'));
    assert.ok(file, 'the token file exists');
    const pasted = spawnSync('sh', ['-c', `${line}; printf %s "$FLIS_TOKEN"`], { encoding: 'utf8' });
    assert.equal(pasted.status, 0, pasted.stderr);
    assert.equal(pasted.stdout, readFileSync(join(tmp, file), 'utf8'), 'the pasted line sets FLIS_TOKEN to the token');
    child.kill('SIGTERM');
    await exited;
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  }
});
