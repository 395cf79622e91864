/**
 * Bad input to `flis regress` exits 2 with one line naming what to fix, before anything is sent, and leaves the
 * user's files as they were. A signal while `flis regress` or `flis contract diff` reads a large file ends it at
 * once (the lint's rule, errors/user-file.ts), with nothing sent.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CommandIo } from '../../cli/command.ts';
import { regressCommand } from '../../cli/commands/regress.ts';
import { FlisError } from '../../errors/flis-error.ts';
import { ROOT } from '../runner/helpers.ts';
import { recordPartners } from '../../bench/partner-clients.ts';
import { startTrap } from '../cli/bad-input-harness.ts';
import { tempDir } from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());

function digest(dir: string): string {
  const h = createHash('sha256');
  for (const f of readdirSync(dir).sort()) h.update(f).update(readFileSync(join(dir, f)));
  return h.digest('hex');
}

const io: CommandIo = { out: () => {}, err: () => {}, env: {}, stopped: new Promise(() => {}) };

async function refused(args: string[]): Promise<FlisError> {
  try {
    await regressCommand.run([...args, '--report-dir', join(tmp.dir, 'r')], io);
  } catch (e) {
    assert.ok(e instanceof FlisError, `a typed error, not ${String(e)}`);
    assert.ok(!e.message.includes('\n'), `one line: ${e.message}`);
    return e;
  }
  assert.fail(`flis regress ${args.join(' ')} was not refused`);
}

describe('flis regress: bad input', () => {
  let good = '';
  before(async () => {
    good = await recordPartners(join(tmp.dir, 'good'), 7, ['billing-reader']);
  });

  it('a directory with no cassettes', async () => {
    const empty = join(tmp.dir, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'notes.txt'), 'not a cassette');
    const e = await refused(['--cassettes', empty]);
    assert.match(e.message, /holds no cassette/);
  });

  it('a cassette that does not parse: its file and line', async () => {
    const dir = join(tmp.dir, 'broken');
    mkdirSync(dir);
    const text = readFileSync(join(good, 'billing-reader.yaml'), 'utf8').split('\n');
    const at = text.findIndex((l) => l.startsWith('  status: '));
    text[at] = '  status: two hundred';
    writeFileSync(join(dir, 'acme.yaml'), text.join('\n'));
    const before = digest(dir);
    const e = await refused(['--cassettes', dir]);
    assert.equal(e.code, 'FLIS_ERR_CASSETTE_PARSE');
    assert.match(e.message, /acme\.yaml:\d+: expected response\.status: an HTTP status/);
    assert.equal(digest(dir), before, 'the cassettes are untouched');
  });

  it('two cassettes claiming the same partner', async () => {
    const dir = join(tmp.dir, 'twice');
    mkdirSync(dir);
    copyFileSync(join(good, 'billing-reader.yaml'), join(dir, 'a.yaml'));
    copyFileSync(join(good, 'billing-reader.yaml'), join(dir, 'b.yaml'));
    const e = await refused(['--cassettes', dir]);
    assert.match(e.message, /two cassettes claim partner 'billing-reader': .*a\.yaml and .*b\.yaml/);
  });

  it('--shard 3/2', async () => {
    const e = await refused(['--cassettes', good, '--shard', '3/2']);
    assert.match(e.message, /--shard must be I\/N with 1 <= I <= N/);
  });

  it('through the flis command: exit 2, one line on stderr, no stack trace', () => {
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'bin/flis.js'), 'regress', '--cassettes', good, '--shard', '0/2'],
      {
        encoding: 'utf8',
        cwd: tmp.dir,
      },
    );
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^flis regress: --shard/);
  });

  /** Spawns flis, waits for `announced` on its output, sends SIGTERM, and says how it ended. */
  async function terminatedWhileReading(
    args: string[],
    announced: string,
    env: Record<string, string> = {},
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }> {
    const child = spawn(process.execPath, [join(ROOT, 'bin/flis.js'), ...args], {
      cwd: tmp.dir,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.once('exit', (code, signal) => done({ code, signal })),
    );
    let out = '';
    await new Promise<void>((done, fail) => {
      const seen = (c: Buffer) => {
        out += String(c);
        if (out.includes(announced)) done();
      };
      child.stdout.on('data', seen);
      child.stderr.on('data', seen);
      child.once('exit', () => fail(new Error(`ended before it announced what it reads: ${out}`)));
    });
    child.kill('SIGTERM');
    const deadline = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const how = await ended;
    clearTimeout(deadline);
    return { ...how, out };
  }

  it('SIGTERM while the cassettes are read: ends 143, nothing sent', async () => {
    const dir = join(tmp.dir, 'large');
    mkdirSync(dir);
    const text = readFileSync(join(good, 'billing-reader.yaml'), 'utf8');
    const at = text.indexOf('---', 4);
    // About 40 MB of the partner's exchanges, far more than a signal should wait for.
    const body = text.slice(at);
    const copies = Math.ceil((40 * 1024 * 1024) / body.length);
    writeFileSync(join(dir, 'acme.yaml'), text.slice(0, at) + body.repeat(copies));
    const trap = await startTrap();
    try {
      const r = await terminatedWhileReading(
        ['regress', '--cassettes', dir, '--base-url', trap.baseUrl, '--report-dir', join(tmp.dir, 'r-large')],
        'flis regress: reading 1 cassette(s)',
        { FLIS_TOKEN: trap.token },
      );
      assert.equal(r.code, 143, `ended by ${r.signal ?? r.code}: ${r.out}`);
      assert.match(r.out, /interrupted while reading the cassettes; nothing was sent/);
      assert.deepEqual(trap.requests, [], 'a request was sent');
    } finally {
      await trap.close();
    }
  });

  it('SIGTERM while contract diff reads a large document: ended by the signal', async () => {
    // The bundled document with 16,000 more operations (about 2 MB of YAML, seconds of parsing), written as text.
    const bundled = readFileSync(join(ROOT, 'specs/openapi.bundled.yaml'), 'utf8');
    const padding = Array.from(
      { length: 16_000 },
      (_, i) =>
        `  /padding/${i}/items:\n    get:\n      operationId: padding${i}\n      responses:\n        '200':\n          description: padding, to make the document large\n`,
    ).join('');
    const big = join(tmp.dir, 'big.yaml');
    writeFileSync(big, bundled.replace(/^paths:\n/m, `paths:\n${padding}`));
    const r = await terminatedWhileReading(
      ['contract', 'diff', join(ROOT, 'specs/openapi.bundled.yaml'), big, '--report-dir', join(tmp.dir, 'r-big')],
      'flis contract diff: reading',
    );
    assert.ok(r.signal === 'SIGTERM' || r.code === 143, `ended by ${r.signal ?? r.code}, not by the SIGTERM: ${r.out}`);
  });
});
