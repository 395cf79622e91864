/**
 * `flis cassette diff`: two recordings paired by request; what the contract
 * leaves open (values, ids, extra fields, the exact code within a class) is
 * never a difference that matters, what it pins is (a documented field's type,
 * the status class); output on the terminal, diff.json and diff.md.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CommandIo } from '../../cli/command.ts';
import { cassetteCommand } from '../../cli/commands/cassette.ts';
import { encodeBody } from '../../recorder/body.ts';
import { CassetteWriter } from '../../recorder/cassette-writer.ts';
import { cassetteHeader } from '../../recorder/header.ts';

interface Answer {
  path: string;
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

function cassette(dir: string, name: string, answers: Answer[]): string {
  const file = join(dir, name);
  const w = new CassetteWriter(file, { mode: 'truncate', header: cassetteHeader(null, 'http://127.0.0.1:1/apis/v0') });
  for (const a of answers) {
    const bytes = Buffer.from(JSON.stringify(a.body));
    w.append(
      {
        startedAt: '2026-01-01T00:00:00Z',
        operationId: null,
        request: {
          method: 'GET',
          path: a.path,
          query: {},
          headers: { authorization: 'Bearer [REDACTED]' },
          body: null,
        },
        response: {
          status: a.status,
          headers: { 'content-type': 'application/json', ...a.headers },
          body: encodeBody(bytes, 'application/json', bytes.length, false),
          timing: { durationMs: 1, firstByteMs: 1 },
        },
        violations: [],
      },
      [],
    );
  }
  w.close();
  return file;
}

function io(): CommandIo & { lines: string[] } {
  const lines: string[] = [];
  return { out: (l) => lines.push(l), err: (l) => lines.push(l), env: {}, stopped: new Promise(() => {}), lines };
}

const group = (id: string, priceTotal: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  priceTotal,
  ...extra,
});

describe('flis cassette diff', () => {
  it('what the contract leaves open is no difference that matters (exit 0)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flis-cdiff-'));
    try {
      const a = cassette(dir, 'a.yaml', [
        { path: '/billingGroups', status: 200, body: [group('bg-1', 10), group('bg-2', 12)] },
        { path: '/offers/x', status: 404, body: { message: 'no' } },
      ]);
      const b = cassette(dir, 'b.yaml', [
        // Other ids and values, another order, an undocumented extra field, 410 for 404, an etag: all left open.
        { path: '/offers/x', status: 410, body: { error: 'gone' } },
        {
          path: '/billingGroups',
          status: 200,
          body: [group('0f1e-99', 7, { regionCode: 'N' }), group('0f1e-98', 1)],
          headers: { etag: '"v2"' },
        },
      ]);
      const out = io();
      assert.equal(await cassetteCommand.run(['diff', a, b, '--out', dir], out), 0, out.lines.join('\n'));
      const json = JSON.parse(readFileSync(join(dir, 'diff.json'), 'utf8'));
      assert.equal(json.paired, 2);
      assert.deepEqual(
        json.differences.map((d: { kind: string; path: string; matters: boolean }) => [d.kind, d.path, d.matters]),
        [['header', 'etag', false]],
      );
      assert.match(readFileSync(join(dir, 'diff.md'), 'utf8'), /\| no \| listBillingGroups \| header \| etag \|/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a documented field of another type, a status class and an unpaired request matter (exit 1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flis-cdiff-'));
    try {
      const a = cassette(dir, 'a.yaml', [
        { path: '/billingGroups', status: 200, body: [group('bg-1', 10)] },
        { path: '/offers/x', status: 200, body: {} },
        { path: '/invoices/only-in-a', status: 404, body: {} },
      ]);
      const b = cassette(dir, 'b.yaml', [
        { path: '/billingGroups', status: 200, body: [group('bg-1', '10')] },
        { path: '/offers/x', status: 500, body: {} },
      ]);
      const out = io();
      assert.equal(await cassetteCommand.run(['diff', a, b, '--out', dir], out), 1);
      const text = out.lines.join('\n');
      assert.match(text, /DIFFERS listBillingGroups field-type \S*priceTotal: A number, B string/);
      assert.match(text, /DIFFERS getOffer status: A 200, B 500/);
      assert.match(text, /DIFFERS \S+ unpaired: A line \d+, B \(not recorded\) \(GET \/invoices\/only-in-a\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a file that is not a cassette is bad input (exit 2 through FLIS_ERR_CASSETTE_PARSE)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flis-cdiff-'));
    try {
      const a = cassette(dir, 'a.yaml', []);
      const bad = join(dir, 'bad.yaml');
      writeFileSync(bad, 'not a cassette\n');
      await assert.rejects(cassetteCommand.run(['diff', a, bad, '--out', dir], io()), {
        code: 'FLIS_ERR_CASSETTE_PARSE',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
