/**
 * Bad input to `flis regress` exits 2 with one line naming what to fix, before anything is sent, and leaves the
 * user's files as they were.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CommandIo } from '../../cli/command.ts';
import { regressCommand } from '../../cli/commands/regress.ts';
import { FlisError } from '../../errors/flis-error.ts';
import { ROOT } from '../runner/helpers.ts';
import { recordPartners } from '../../bench/partner-clients.ts';
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
});
