/**
 * Issue 9 items 1 and 2: one writer per cassette, nothing destroyed before the
 * proxy listens, an atomic overwrite, and one-line exit-2 errors for a
 * directory, a busy port, an unwritable path and a locked cassette, from
 * `flis record` and from `flis run --record` (which used to hang).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { lockCassette } from '../../recorder/cassette-lock.ts';
import { parseCassette, readCassette } from '../../recorder/cassette-reader.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { call, startUpstream, tempDir, TOKEN } from './helpers.ts';

const FLIS = fileURLToPath(new URL('../../bin/flis.js', import.meta.url));
const CHILD = fileURLToPath(new URL('./fixtures/recorder-child.ts', import.meta.url));
const env = { FLIS_TOKEN: TOKEN };

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Unprivileged {
  /** The command line before flis's arguments. */
  argv: string[];
  ids: { uid?: number; gid?: number };
}

/**
 * How to run flis without the power to write anything, or why it cannot be done here. Root writes anything
 * (CAP_DAC_OVERRIDE), so a read-only file is met only without it: root with every capability dropped (setpriv)
 * still owns its checkout, however private (a clone in a 0700 `mktemp -d`, or under /root); failing that the user
 * nobody, who must be able to read the checkout. A user other than root is unprivileged already.
 */
function unprivileged(): Unprivileged | { skip: string } {
  const node = [process.execPath, FLIS];
  if (process.getuid?.() !== 0) return { argv: node, ids: {} };
  const dropCaps = ['setpriv', '--bounding-set=-all', '--'];
  if (spawnSync(dropCaps[0]!, [...dropCaps.slice(1), ...node, '--version']).status === 0)
    return { argv: [...dropCaps, ...node], ids: {} };
  const nobody = { uid: 65534, gid: 65534 };
  if (spawnSync(process.execPath, [FLIS, '--version'], nobody).status === 0) return { argv: node, ids: nobody };
  return {
    skip:
      'running as root, and neither setpriv (util-linux, to drop root capabilities) works here nor can the user ' +
      `nobody read this checkout (${fileURLToPath(new URL('../..', import.meta.url))}): no unprivileged writer to test with`,
  };
}

const UNPRIVILEGED = unprivileged();

/** Run `flis ...` to its end (killed at the deadline, so a hang fails the test instead of stalling it). */
async function flis(args: string[], o: { unprivileged?: boolean } = {}, deadlineMs = 60_000): Promise<Exit> {
  const runner = o.unprivileged && 'argv' in UNPRIVILEGED ? UNPRIVILEGED : { argv: [process.execPath, FLIS], ids: {} };
  const [command, ...prefix] = runner.argv;
  const child = spawn(command!, [...prefix, ...args], {
    env: { ...process.env, FLIS_TOKEN: TOKEN, ...(o.unprivileged ? { HOME: tmpdir() } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...runner.ids,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += String(c)));
  child.stderr.on('data', (c) => (stderr += String(c)));
  const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Exit 2 with one line on stderr and no stack trace. */
function assertOneLine(r: Exit, pattern: RegExp): void {
  assert.equal(r.code, 2, `exit 2; stderr: ${r.stderr}`);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line; got: ${r.stderr}`);
  assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
  assert.match(lines[0]!, pattern);
}

async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as { port: number }).port, server };
}

/** A cassette with some exchanges, recorded for real. */
async function recordSome(cassette: string, baseUrl: string, n: number): Promise<void> {
  const rec = await startRecorder({ mode: 'record', cassette, upstream: { baseUrl, deployment: null }, env });
  for (let i = 0; i < n; i += 1) await call(rec.baseUrl, `/offers/old-${i}`);
  await rec.close();
}

describe('one writer per cassette', () => {
  it('a second recorder on a locked cassette is refused, naming the holder; closing releases the lock', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    const cassette = tmp.file('one.yaml');
    const first = await startRecorder({
      mode: 'record',
      cassette,
      upstream: { baseUrl: up.baseUrl, deployment: null },
      env,
    });
    try {
      for (const mode of ['record', 'new'] as const)
        await assert.rejects(
          startRecorder({ mode, cassette, upstream: { baseUrl: up.baseUrl, deployment: null }, env }),
          (e: NodeJS.ErrnoException) =>
            e.code === 'FLIS_ERR_CASSETTE_LOCKED' && e.message.includes(`pid ${process.pid}`),
        );
      await call(first.baseUrl, '/offers/a');
      const cli = await flis(['record', '--upstream', up.baseUrl, '--cassette', cassette]);
      assertOneLine(
        cli,
        new RegExp(`being written by another process \\(pid ${process.pid}\\b.*FLIS_ERR_CASSETTE_LOCKED`),
      );
      const run = await flis(['run', '--suite', 'offers', '--record', cassette, '--report-dir', tmp.file('reports')]);
      assertOneLine(run, /being written by another process/);
    } finally {
      await first.close();
    }
    assert.equal(readCassette(cassette).exchanges.length, 1, 'the refused writers changed nothing');
    const again = await startRecorder({
      mode: 'new',
      cassette,
      upstream: { baseUrl: up.baseUrl, deployment: null },
      env,
    });
    await again.close();
    await up.close();
    tmp.cleanup();
  });

  it('a recorder killed with SIGKILL leaves a stale lock that the next recorder breaks', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    const cassette = tmp.file('crashed.yaml');
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, CHILD_UPSTREAM: up.baseUrl, CHILD_CASSETTE: cassette, FLIS_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let out = '';
      for await (const chunk of child.stdout) {
        out += String(chunk);
        if (out.includes('\n')) break;
      }
      assert.throws(
        () => lockCassette(cassette),
        (e: NodeJS.ErrnoException) => e.message.includes(`pid ${child.pid}`),
      );
      child.kill('SIGKILL');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
      assert.ok(statSync(`${cassette}.lock`).isFile(), 'SIGKILL left the lock file behind');
      const rec = await startRecorder({
        mode: 'new',
        cassette,
        upstream: { baseUrl: up.baseUrl, deployment: null },
        env,
      });
      await rec.close();
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await up.close();
      tmp.cleanup();
    }
  });

  it("a lock naming this pid but another start time is a reused pid: stale; a lock flis cannot read is the user's", () => {
    const tmp = tempDir();
    try {
      const cassette = tmp.file('reused.yaml');
      const lock = `${cassette}.lock`;
      const fake = { pid: process.pid, procStart: '1', host: hostname(), command: 'flis record', since: 'then' };
      writeFileSync(lock, JSON.stringify(fake));
      lockCassette(cassette).release();
      assert.equal(existsSync(lock), false, 'broken, taken, and released');
      writeFileSync(lock, 'not a flis lock');
      assert.throws(
        () => lockCassette(cassette),
        (e: NodeJS.ErrnoException) => e.code === 'FLIS_ERR_CASSETTE_LOCKED' && /remove that file/.test(e.message),
      );
      assert.equal(readFileSync(lock, 'utf8'), 'not a flis lock', 'left for the user to judge');
    } finally {
      tmp.cleanup();
    }
  });

  it('a busy port leaves the existing cassette byte for byte, exits 2 in one line, and releases the lock', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    const busy = await occupiedPort();
    try {
      const cassette = tmp.file('keep.yaml');
      await recordSome(cassette, up.baseUrl, 20);
      const before = readFileSync(cassette);
      for (const mode of ['record', 'new'] as const)
        await assert.rejects(
          startRecorder({ mode, cassette, upstream: { baseUrl: up.baseUrl, deployment: null }, env, port: busy.port }),
          (e: NodeJS.ErrnoException) => e.code === 'FLIS_ERR_USAGE' && e.message.includes(`port ${busy.port}`),
        );
      const cli = await flis(['record', '--upstream', up.baseUrl, '--cassette', cassette, '--port', String(busy.port)]);
      assertOneLine(cli, new RegExp(`port ${busy.port} on 127\\.0\\.0\\.1 is already in use`));
      assert.deepEqual(readFileSync(cassette), before, 'the cassette is untouched');
      assert.deepEqual(readdirSync(tmp.dir).sort(), ['keep.yaml'], 'no temp file, no lock left behind');
    } finally {
      busy.server.close();
      await up.close();
      tmp.cleanup();
    }
  });

  it("record's overwrite replaces the old file whole, by rename, only once the proxy listens", async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    try {
      const cassette = tmp.file('over.yaml');
      await recordSome(cassette, up.baseUrl, 50);
      const oldInode = statSync(cassette).ino;
      writeFileSync(tmp.file('.over.yaml.424242.tmp'), 'left by a writer that crashed before its commit');
      const rec = await startRecorder({
        mode: 'record',
        cassette,
        upstream: { baseUrl: up.baseUrl, deployment: null },
        env,
      });
      try {
        assert.notEqual(statSync(cassette).ino, oldInode, 'a new file was renamed into place, not the old one cut');
        const now = parseCassette(readFileSync(cassette, 'utf8'), cassette);
        assert.equal(now.exchanges.length, 0, 'the new file: its header, nothing of the old one');
        assert.deepEqual(
          readdirSync(tmp.dir).sort(),
          ['over.yaml', 'over.yaml.lock'],
          'a crashed temp file is cleared',
        );
        await call(rec.baseUrl, '/offers/new');
      } finally {
        await rec.close();
      }
      assert.deepEqual(
        readCassette(cassette).exchanges.map((e) => e.request.path),
        ['/offers/new'],
      );
    } finally {
      await up.close();
      tmp.cleanup();
    }
  });
});

describe('bad cassette paths: exit 2, one line, no stack trace', () => {
  it('a directory and a path through a file', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    try {
      const dir = tmp.file('a-dir');
      mkdirSync(dir);
      assertOneLine(
        await flis(['record', '--upstream', up.baseUrl, '--cassette', dir]),
        /a-dir: is a directory; a cassette is a file.*\[FLIS_ERR_CONFIG\]$/,
      );
      assertOneLine(await flis(['replay', '--cassette', dir]), /a-dir: is a directory/);
      const file = tmp.file('plain.txt');
      writeFileSync(file, 'x');
      assertOneLine(
        await flis(['record', '--upstream', up.baseUrl, '--cassette', `${file}/c.yaml`]),
        /cannot be written: a part of the path is a file, not a directory/,
      );
    } finally {
      await up.close();
      tmp.cleanup();
    }
  });

  it('a read-only file and a read-only directory, met by a writer without root powers', {
    skip: 'skip' in UNPRIVILEGED ? UNPRIVILEGED.skip : false,
  }, async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    try {
      chmodSync(tmp.dir, 0o777);
      const ro = tmp.file('ro.yaml');
      writeFileSync(ro, 'x');
      chmodSync(ro, 0o444);
      assertOneLine(
        await flis(['record', '--upstream', up.baseUrl, '--cassette', ro], { unprivileged: true }),
        /ro\.yaml: the cassette cannot be written: permission denied/,
      );
      assert.equal(readFileSync(ro, 'utf8'), 'x', 'a read-only file is respected, not renamed over');
      const roDir = tmp.file('ro-dir');
      mkdirSync(roDir, { mode: 0o555 });
      assertOneLine(
        await flis(['record', '--upstream', up.baseUrl, '--cassette', join(roDir, 'c.yaml')], { unprivileged: true }),
        /c\.yaml: the cassette cannot be written: permission denied/,
      );
    } finally {
      await up.close();
      tmp.cleanup();
    }
  });

  it('`flis cassette scan` checks the file first: not YAML, not a cassette, a directory', async () => {
    const tmp = tempDir();
    try {
      writeFileSync(tmp.file('not-yaml.yaml'), 'a: [unclosed\n  b: "x\n');
      writeFileSync(tmp.file('not-cassette.yaml'), 'just: a mapping\n');
      assertOneLine(
        await flis(['cassette', 'scan', tmp.file('not-yaml.yaml')]),
        /not-yaml\.yaml:1: expected .*\[FLIS_ERR_CASSETTE_PARSE\]$/,
      );
      assertOneLine(
        await flis(['cassette', 'scan', tmp.file('not-cassette.yaml')]),
        /not-cassette\.yaml:1: expected .*\[FLIS_ERR_CASSETTE_PARSE\]$/,
      );
      assertOneLine(await flis(['cassette', 'scan', tmp.dir]), /is a directory/);
    } finally {
      tmp.cleanup();
    }
  });

  it('`flis run --record <directory>` exits 2 instead of hanging', async () => {
    const tmp = tempDir();
    try {
      const dir = tmp.file('reports-dir');
      mkdirSync(dir);
      const r = await flis(['run', '--suite', 'offers', '--record', dir, '--report-dir', tmp.file('reports')], {});
      assertOneLine(r, /reports-dir: is a directory/);
    } finally {
      tmp.cleanup();
    }
  });
});
