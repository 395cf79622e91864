/**
 * A body over --max-body-bytes is kept cut in the cassette, so its schema cannot be judged: the recorder and the
 * lint say so ("not judged: response body over N bytes"), per exchange and in their closing counts, and never count
 * it a violation or pass it in silence.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { CommandIo } from '../../cli/command.ts';
import { cassetteCommand } from '../../cli/commands/cassette.ts';
import { lintCassette } from '../../recorder/lint.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { call, startUpstream, tempDir, TOKEN } from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());

describe('a body over --max-body-bytes', () => {
  it('is "not judged" in the recorder, per exchange and in its count, and in the lint of its cassette', async () => {
    // A list of offers that breaks the schema, 5 kB long: cut at 1 kB, it cannot be judged either way.
    const list = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ id: `o-${i}`, quantity: 'many' })));
    const up = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(list);
    });
    const cassette = tmp.file('cut.yaml');
    const logged: [string, string][] = [];
    try {
      const r = await startRecorder({
        mode: 'record',
        cassette,
        upstream: { baseUrl: up.baseUrl, deployment: null },
        env: { FLIS_TOKEN: TOKEN },
        maxBodyBytes: 1024,
        logExchanges: true,
        log: (line, kind) => logged.push([kind, line]),
      });
      assert.equal((await call(r.baseUrl, '/offers')).status, 200);
      await r.close();
      assert.equal(r.stats.notJudged, 1);
      assert.equal(r.stats.violations, 0, 'a body not judged is no violation');
      assert.ok(
        logged.some(
          ([k, l]) => k === 'not-judged' && /GET \/offers → 200: not judged: response body over 1024 bytes/.test(l),
        ),
        JSON.stringify(logged),
      );
      assert.ok(
        logged.some(([k, l]) => k === 'exchange' && /listOffers: not judged/.test(l)),
        JSON.stringify(logged),
      );
    } finally {
      await up.close();
    }
    const report = lintCassette(cassette);
    assert.deepEqual(report.findings, []);
    assert.deepEqual(
      report.notJudged.map((n) => [n.seq, n.method, n.path, n.note]),
      [[1, 'GET', '/offers', 'not judged: response body over 1024 bytes (--max-body-bytes)']],
    );
    const out: string[] = [];
    const io: CommandIo = { out: (l) => out.push(l), err: (l) => out.push(l), env: {}, stopped: new Promise(() => {}) };
    assert.equal(await cassetteCommand.run(['lint', cassette], io), 0, out.join('\n'));
    assert.ok(
      out.some((l) => /cut\.yaml:\d+: seq 1 GET \/offers → 200: not judged: response body over 1024 bytes/.test(l)),
      out.join('\n'),
    );
    assert.match(out.at(-1) ?? '', /1 exchanges, 0 contract violations, 1 body\(ies\) not judged/);
  });
});
