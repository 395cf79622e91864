/**
 * A cassette whose last document is torn (the recorder died mid-write) or
 * that has junk appended after its last document: lint warns and still checks
 * every complete exchange, replay serves them and says once what it ignored,
 * and `flis cassette repair` cuts the tail off by writing a new file and
 * renaming it (never truncating the user's file in place). Webhook cassettes
 * are linted by spec 6, not by the API's rules.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { CommandIo } from '../../cli/command.ts';
import { cassetteCommand } from '../../cli/commands/cassette.ts';
import { readCassetteHeader } from '../../recorder/cassette-reader.ts';
import { lintCassette } from '../../recorder/lint.ts';
import { startReplayServer } from '../../recorder/replay-server.ts';
import { WebhookCassette } from '../../webhooks/cassette.ts';
import { call, tempDir } from './helpers.ts';

const HEADER = ['---', 'format: 1', 'kind: flis-cassette', '...'];

/** A clean exchange: a known operation, a bearer token, a 404 with a JSON body (no schema applies to it). */
function exchange(seq: number, path = '/offers'): string[] {
  return [
    '---',
    `seq: ${seq}`,
    'request:',
    '  method: GET',
    `  path: ${path}`,
    '  headers:',
    '    authorization: "Bearer [REDACTED]"',
    'response:',
    '  status: 404',
    '  headers:',
    '    content-type: application/json',
    '  body:',
    `    message: not found ${seq}`,
    '  bodyEncoding: json',
    '...',
  ];
}

const COMPLETE = [...HEADER, ...exchange(1, '/offers/a'), ...exchange(2, '/offers/b')];
const TORN_LINE = COMPLETE.length + 1;
const TORN = [...COMPLETE, ...exchange(3, '/offers/c').slice(0, 6)];
const JUNK = [...COMPLETE, '', 'HTTP/1.1 200 OK', 'garbage'];

function io(): CommandIo & { lines: string[] } {
  const lines: string[] = [];
  return { out: (l) => lines.push(l), err: (l) => lines.push(l), env: {}, stopped: new Promise(() => {}), lines };
}

function write(tmp: ReturnType<typeof tempDir>, lines: string[]): string {
  const file = tmp.file('c.yaml');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('a torn or junk tail', () => {
  it('lint warns about a torn last exchange, checks the complete ones, and exits 0', async () => {
    const tmp = tempDir();
    try {
      const file = write(tmp, TORN);
      const report = lintCassette(file);
      assert.equal(report.exchanges, 2);
      assert.deepEqual(report.findings, []);
      assert.equal(report.tail?.kind, 'torn');
      assert.equal(report.tail?.line, TORN_LINE);
      const out = io();
      assert.equal(await cassetteCommand.run(['lint', file], out), 0, out.lines.join('\n'));
      assert.ok(
        out.lines.some((l) => l.startsWith(`${file}:${TORN_LINE}: warning: `) && /torn/.test(l)),
        out.lines.join('\n'),
      );
    } finally {
      tmp.cleanup();
    }
  });

  it('junk after the last document is named as such, never as torn', async () => {
    const tmp = tempDir();
    try {
      const file = write(tmp, JUNK);
      const report = lintCassette(file);
      assert.equal(report.exchanges, 2);
      assert.equal(report.tail?.kind, 'junk');
      assert.match(
        report.tail!.message,
        new RegExp(`^line ${COMPLETE.length + 2}: text after the last document is not a cassette document`),
      );
      assert.doesNotMatch(report.tail!.message, /torn/);
      const out = io();
      assert.equal(await cassetteCommand.run(['lint', file], out), 0);
      assert.ok(out.lines.some((l) => /warning: .*not a cassette document/.test(l)));
    } finally {
      tmp.cleanup();
    }
  });

  it('the header of a torn cassette reads without the rest (what flis run --cassette needs first)', () => {
    const tmp = tempDir();
    try {
      assert.equal(readCassetteHeader(write(tmp, TORN)).format, 1);
      assert.throws(() => readCassetteHeader(write(tmp, ['no header here'])), /starting with '---'/);
    } finally {
      tmp.cleanup();
    }
  });

  it('text between two documents is a format error (exit 2), not a tail', async () => {
    const tmp = tempDir();
    try {
      const file = write(tmp, [...HEADER, ...exchange(1), 'stray words', ...exchange(2)]);
      assert.throws(() => lintCassette(file), /text between two documents/);
    } finally {
      tmp.cleanup();
    }
  });

  it('replay serves every complete exchange of a torn cassette and says once that it ignored the tail', async () => {
    const tmp = tempDir();
    const logs: string[] = [];
    try {
      const file = write(tmp, TORN);
      const server = await startReplayServer({ cassette: file, log: (l) => logs.push(l), env: {} });
      try {
        for (const [path, seq] of [
          ['/offers/a', 1],
          ['/offers/b', 2],
        ] as const) {
          const r = await call(server.baseUrl, path, { token: '[REDACTED]' });
          assert.equal(r.status, 404, r.text);
          assert.deepEqual(r.json(), { message: `not found ${seq}` });
        }
        assert.equal((await call(server.baseUrl, '/offers/c', { token: '[REDACTED]' })).status, 501);
      } finally {
        await server.close();
      }
      const tailLines = logs.filter((l) => /ignored/.test(l));
      assert.equal(tailLines.length, 1, logs.join('\n'));
      assert.match(tailLines[0]!, new RegExp(`line ${TORN_LINE}: .*torn`));
    } finally {
      tmp.cleanup();
    }
  });

  for (const [name, lines] of [
    ['torn', TORN],
    ['junk', JUNK],
  ] as const) {
    it(`repair cuts a ${name} tail off by rename, keeping every complete exchange byte for byte`, async () => {
      const tmp = tempDir();
      try {
        const file = write(tmp, lines);
        const inode = statSync(file).ino;
        const out = io();
        assert.equal(await cassetteCommand.run(['repair', file], out), 0);
        assert.equal(readFileSync(file, 'utf8'), `${COMPLETE.join('\n')}\n${name === 'junk' ? '\n' : ''}`);
        assert.notEqual(statSync(file).ino, inode, 'a new file renamed over the old one, not a truncation');
        assert.match(out.lines.join('\n'), /2 complete exchanges kept/);
        const after = lintCassette(file);
        assert.equal(after.tail, undefined);
        assert.equal(after.exchanges, 2);
      } finally {
        tmp.cleanup();
      }
    });
  }

  it('repair leaves a cassette without a tail untouched', async () => {
    const tmp = tempDir();
    try {
      const file = write(tmp, COMPLETE);
      const before = statSync(file);
      const out = io();
      assert.equal(await cassetteCommand.run(['repair', file], out), 0);
      assert.equal(statSync(file).ino, before.ino);
      assert.equal(statSync(file).mtimeMs, before.mtimeMs);
      assert.match(out.lines.join('\n'), /left untouched/);
    } finally {
      tmp.cleanup();
    }
  });
});

describe('lint of a webhook cassette', () => {
  it('judges deliveries by spec 6: no known-operation or auth-header violations', async () => {
    const tmp = tempDir();
    try {
      const file = tmp.file('hooks.yaml');
      const w = new WebhookCassette(file, {});
      const delivery = (seq: number, text: string) => ({
        seq,
        receivedAt: new Date().toISOString(),
        method: 'POST',
        path: '/',
        headers: { 'content-type': 'application/json' },
        text,
        violations: [],
      });
      w.append({ ...delivery(1, JSON.stringify({ type: 'BOOKING', payload: { id: 'b-1' } })), type: 'BOOKING' });
      // An envelope that is not one: its own violation only, still not judged as an API request.
      w.append(delivery(2, JSON.stringify({ nothing: true })));
      w.close();
      const out = io();
      const code = await cassetteCommand.run(['lint', file], out);
      const text = out.lines.join('\n');
      assert.doesNotMatch(text, /known-operation|auth-header/);
      assert.match(text, /seq 2 POST \/ .*\[webhook-envelope\]/);
      assert.doesNotMatch(text, /seq 1 /);
      assert.equal(code, 1);
    } finally {
      tmp.cleanup();
    }
  });
});
