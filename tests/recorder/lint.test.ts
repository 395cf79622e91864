/**
 * `flis cassette lint` on hostile files: a body with many violations lists a
 * few and counts the rest; what is not a regular file is refused in one line;
 * SIGTERM ends a lint of a large invalid cassette at once.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import type { CommandIo } from '../../cli/command.ts';
import { cassetteCommand } from '../../cli/commands/cassette.ts';
import { writeCassette } from '../../recorder/cassette-writer.ts';
import { MAX_SCHEMA_VIOLATIONS } from '../../recorder/contract-check.ts';
import { validate } from '../../schemas/registry.ts';
import { listExchange, tempDir, testCassetteHeader } from './helpers.ts';

const FLIS = fileURLToPath(new URL('../../bin/flis.js', import.meta.url));

/** A cassette with one `GET /offers` answered by `items`. */
function listCassette(file: string, items: unknown[]): void {
  writeCassette(file, testCassetteHeader, [listExchange(items)], []);
}

function testIo(): CommandIo & { lines: string[] } {
  const lines: string[] = [];
  return { out: (l) => lines.push(l), err: (l) => lines.push(l), env: {}, stopped: new Promise(() => {}), lines };
}

describe('flis cassette lint', () => {
  const tmp = tempDir();
  after(() => tmp.cleanup());

  it('lists the first violations of a body with their pointer and clause, and counts the rest', async () => {
    const file = tmp.file('many.yaml');
    const items = Array.from({ length: 40 }, () => ({}));
    listCassette(file, items);
    const perItem = validate('offer', {}).violations.length;
    const io = testIo();
    assert.equal(await cassetteCommand.run(['lint', file], io), 1);
    const listed = io.lines.filter((l) => /\[response-schema\] spec 4\.1 listOffers response: \/\d+: /.test(l));
    assert.equal(listed.length, MAX_SCHEMA_VIOLATIONS, io.lines.join('\n'));
    assert.match(listed[0]!, /\/0: must have required property '\w+' \[offer\.schema\.json#\/required\]$/);
    // The first item fills the cap: its other errors are counted, then each further invalid item once.
    const rest = perItem - MAX_SCHEMA_VIOLATIONS + (items.length - 1);
    assert.ok(
      io.lines.some((l) => l.includes(`and at least ${rest} more violation(s) of offer-list.schema.json`)),
      io.lines.join('\n'),
    );
    assert.equal(
      io.lines.at(-1),
      `flis cassette lint: 1 exchanges, at least ${perItem + items.length - 1} contract violations (${rest} not listed)`,
    );
  });

  it('refuses what is not a regular file (exit 2, one line naming the path)', () => {
    const dir = tmp.file('a-directory');
    mkdirSync(dir);
    const fifo = tmp.file('a-pipe');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
    for (const [path, kind] of [
      [dir, 'a directory'],
      [fifo, 'a named pipe'],
    ] as const) {
      // A pipe with no writer blocks an open(2) for reading for ever: the deadline catches a lint that tries.
      const r = spawnSync(process.execPath, [FLIS, 'cassette', 'lint', path], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.signal, null, `lint of ${kind} did not return: ${r.stderr}`);
      assert.equal(r.status, 2, `${kind}: ${r.stderr}`);
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.ok(lines[0]!.includes(path), lines[0]);
      assert.match(lines[0]!, new RegExp(`expected a regular file \\(a cassette\\); found ${kind}`));
    }
  });

  it('ends at once on SIGTERM, even inside a large invalid body', async () => {
    const file = tmp.file('large.yaml');
    // ~9 MB of empty offers: ~3 million items of ~40 violations each, far more work than a signal should wait for.
    listCassette(
      file,
      Array.from({ length: 3_000_000 }, () => ({})),
    );
    const child = spawn(process.execPath, [FLIS, 'cassette', 'lint', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    let stderr = '';
    // The lint says what it reads before it starts on a large file: the signal is sent after that.
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (c: Buffer) => {
        stderr += String(c);
        if (stderr.includes('flis cassette lint: reading')) resolve();
      });
      child.once('exit', () => reject(new Error(`lint ended before it started reading: ${stderr}`)));
    });
    child.kill('SIGTERM');
    const deadline = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const { code, signal } = await ended;
    clearTimeout(deadline);
    assert.ok(signal === 'SIGTERM' || code === 143, `ended by ${signal ?? code}, not by the SIGTERM: ${stderr}`);
  });
});
