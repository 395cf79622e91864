/**
 * The recorder's commands: flis record, flis replay and flis cassette, run
 * through their Command objects with an io whose "stop" the test controls.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { CommandIo } from '../../cli/command.ts';
import { cassetteCommand } from '../../cli/commands/cassette.ts';
import { recordCommand } from '../../cli/commands/record.ts';
import { countLine, liveCount } from '../../cli/live-count.ts';
import { replayCommand } from '../../cli/commands/replay.ts';
import { readCassette } from '../../recorder/cassette-reader.ts';
import { call, startUpstream, tempDir, TOKEN } from './helpers.ts';

interface TestIo extends CommandIo {
  lines: string[];
  errors: string[];
  stop(): void;
  /** Resolves with the first printed line matching `re`. */
  waitFor(re: RegExp, deadlineMs?: number): Promise<string>;
}

function testIo(env: NodeJS.ProcessEnv = {}): TestIo {
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  const lines: string[] = [];
  const errors: string[] = [];
  const waiters: Array<{ re: RegExp; resolve: (l: string) => void }> = [];
  const out = (line: string): void => {
    lines.push(line);
    for (const w of waiters.filter((x) => x.re.test(line))) w.resolve(line);
  };
  return {
    out,
    err: (l) => errors.push(l),
    env,
    stopped,
    lines,
    errors,
    stop,
    waitFor: (re, deadlineMs = 15_000) => {
      const hit = lines.find((l) => re.test(l));
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const t = setTimeout(
          () => reject(new Error(`no line matching ${re} within ${deadlineMs} ms; got ${JSON.stringify(lines)}`)),
          deadlineMs,
        );
        waiters.push({
          re,
          resolve: (l) => {
            clearTimeout(t);
            resolve(l);
          },
        });
      });
    },
  };
}

const servingUrl = /serving (http:\/\/127\.0\.0\.1:\d+\/apis\/v0)/;

describe('flis record / replay / cassette', () => {
  it("--help prints each command's usage", async () => {
    for (const [cmd, usage] of [
      [recordCommand, 'Usage: flis record --upstream NAME|URL --cassette FILE'],
      [replayCommand, 'Usage: flis replay --cassette FILE'],
      [cassetteCommand, 'Usage: flis cassette <subcommand>'],
    ] as const) {
      const io = testIo();
      assert.equal(await cmd.run(['--help'], io), 0);
      assert.ok(io.lines.join('\n').includes(usage), cmd.name);
    }
  });

  it('answers a bad mode, subcommand or missing flag with what is allowed', async () => {
    await assert.rejects(
      recordCommand.run(['--mode', 'rewind', '--cassette', 'x.yaml'], testIo()),
      (e: NodeJS.ErrnoException) =>
        e.code === 'FLIS_ERR_USAGE' && /'record', 'new', 'replay', 'passthrough'/.test(e.message),
    );
    await assert.rejects(
      recordCommand.run(['--cassette', 'x.yaml'], testIo()),
      (e: NodeJS.ErrnoException) => e.code === 'FLIS_ERR_USAGE' && /--upstream/.test(e.message),
    );
    await assert.rejects(
      recordCommand.run(['--upstream', 'sandbox', '--cassette', 'x.yaml', '--host', '0.0.0.0'], testIo()),
      (e: NodeJS.ErrnoException) => e.code === 'FLIS_ERR_USAGE' && /loopback/.test(e.message),
    );
    await assert.rejects(
      cassetteCommand.run(['rewind', 'x'], testIo()),
      (e: NodeJS.ErrnoException) =>
        e.code === 'FLIS_ERR_USAGE' && /'lint', .*'scan', 'export-har', 'import-har'.*; got 'rewind'/.test(e.message),
    );
    await assert.rejects(replayCommand.run([], testIo()), (e: NodeJS.ErrnoException) => e.code === 'FLIS_ERR_USAGE');
    await assert.rejects(
      recordCommand.run(
        ['--upstream', 'http://127.0.0.1:9/apis/v0', '--cassette', 'x.yaml', '--label', `t=${TOKEN}`],
        testIo({ FLIS_TOKEN: TOKEN }),
      ),
      (e: NodeJS.ErrnoException) =>
        e.code === 'FLIS_ERR_USAGE' && /FLIS_TOKEN/.test(e.message) && !e.message.includes(TOKEN),
    );
  });

  it('records through `flis record --upstream URL`, replays through `flis replay`, lints, scans and converts', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    const cassette = tmp.file('cli.yaml');
    const env = { FLIS_TOKEN: TOKEN };
    try {
      const recIo = testIo(env);
      const recording = recordCommand.run(
        ['--upstream', up.baseUrl, '--cassette', cassette, '--label', 'runId=r-42', '--label', 'seed=7'],
        recIo,
      );
      const baseUrl = servingUrl.exec(await recIo.waitFor(servingUrl))![1]!;
      assert.equal(
        (await call(baseUrl, '/offers', { method: 'POST', body: { offer: { quantity: 'three' } } })).status,
        201,
      );
      assert.equal((await call(baseUrl, '/billingGroups/bg-1')).status, 200);
      recIo.stop();
      assert.equal(await recording, 0);
      assert.ok(
        recIo.errors.some((l) =>
          /\[request-schema\] spec 4\.1 createOffer request: \/offer\/quantity: must be number/.test(l),
        ),
        'violations are printed live',
      );
      assert.ok(recIo.lines.some((l) => /2 exchanges forwarded, 2 written/.test(l)));
      assert.equal(readFileSync(cassette, 'utf8').includes(TOKEN), false);
      assert.deepEqual(readCassette(cassette).header.labels, { runId: 'r-42', seed: '7' });

      const replayIo = testIo();
      const replaying = replayCommand.run(['--cassette', cassette], replayIo);
      const replayUrl = servingUrl.exec(await replayIo.waitFor(servingUrl))![1]!;
      assert.equal((await call(replayUrl, '/billingGroups/bg-1')).json().path, '/billingGroups/bg-1');
      assert.equal((await call(replayUrl, '/billingGroups/bg-2')).status, 501);
      replayIo.stop();
      assert.equal(await replaying, 0);
      assert.ok(replayIo.errors.some((l) => l.startsWith('FLIS_ERR_CASSETTE_MISS: GET /billingGroups/bg-2')));

      const lintIo = testIo();
      assert.equal(await cassetteCommand.run(['lint', cassette], lintIo), 1);
      assert.ok(
        lintIo.lines.some((l) =>
          new RegExp(
            `^${cassette}:\\d+: seq 1 POST /offers → 201: \\[request-schema\\] spec 4\\.1 createOffer request: /offer/quantity`,
          ).test(l),
        ),
        lintIo.lines.join('\n'),
      );

      const scanIo = testIo(env);
      assert.equal(await cassetteCommand.run(['scan', cassette], scanIo), 0);
      const leaky = tmp.file('leaky.yaml');
      writeFileSync(
        leaky,
        readFileSync(cassette, 'utf8').replace('path: /billingGroups/bg-1', `path: /billingGroups/${TOKEN}`),
      );
      const leakIo = testIo(env);
      assert.equal(await cassetteCommand.run(['scan', leaky], leakIo), 1);
      assert.equal(leakIo.lines.join('\n').includes(TOKEN), false, 'scan never prints the secret');

      const har = tmp.file('out.har');
      assert.equal(await cassetteCommand.run(['export-har', cassette, har], testIo()), 0);
      const back = tmp.file('back.yaml');
      assert.equal(await cassetteCommand.run(['import-har', har, back], testIo(env)), 0);
      assert.deepEqual(
        readCassette(back).exchanges.map((e) => [e.request.method, e.request.path, e.response.status]),
        readCassette(cassette).exchanges.map((e) => [e.request.method, e.request.path, e.response.status]),
      );

      const broken = tmp.file('broken.yaml');
      writeFileSync(broken, '---\nformat: 3\n...\n');
      await assert.rejects(
        cassetteCommand.run(['lint', broken], testIo()),
        (e: NodeJS.ErrnoException) => e.code === 'FLIS_ERR_CASSETTE_PARSE' && e.message.startsWith(`${broken}:2:`),
      );
    } finally {
      await up.close();
      tmp.cleanup();
    }
  });

  it('`--upstream embedded` starts the embedded mock and records it', async () => {
    const tmp = tempDir();
    const cassette = tmp.file('embedded.yaml');
    try {
      const io = testIo({ FLIS_TOKEN: TOKEN });
      const running = recordCommand.run(['--upstream', 'embedded', '--cassette', cassette, '--quiet'], io);
      const baseUrl = servingUrl.exec(await io.waitFor(servingUrl))![1]!;
      assert.equal((await call(baseUrl, '/billingGroups')).status, 200);
      io.stop();
      assert.equal(await running, 0);
      const c = readCassette(cassette);
      assert.equal(c.header.deployment, 'embedded');
      assert.equal(c.exchanges[0]?.operationId, 'listBillingGroups');
      assert.ok(existsSync(cassette));
    } finally {
      tmp.cleanup();
    }
  });

  it('`--upstream URL` without FLIS_TOKEN records a client that sends its own Authorization, one line per exchange', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    const cassette = tmp.file('own-token.yaml');
    try {
      const io = testIo({});
      const running = recordCommand.run(['--upstream', up.baseUrl, '--cassette', cassette], io);
      const baseUrl = servingUrl.exec(await io.waitFor(servingUrl))![1]!;
      assert.ok(
        io.lines.some((l) => /token: none of the recorder's own .*Authorization is forwarded/.test(l)),
        io.lines.join('\n'),
      );
      assert.equal((await call(baseUrl, '/billingGroups/bg-1')).status, 200);
      assert.equal(
        (await call(baseUrl, '/offers', { method: 'POST', body: { offer: { quantity: 'three' } } })).status,
        201,
      );
      io.stop();
      assert.equal(await running, 0);
      const exchangeLines = io.errors.filter((l) => / → \d{3} /.test(l) && !l.includes('['));
      // The verdict counts the violations printed under the line (the test upstream echoes, off the schemas): each
      // listed one, and the number the last line says were not listed ("and at least N more").
      const violationsOf = (method: string, path: string) =>
        io.errors
          .filter((l) => l.startsWith(`${method} ${path} → `) && l.includes('['))
          .reduce((n, l) => n + Number(/and (?:at least )?(\d+) more/.exec(l)?.[1] ?? 1), 0);
      const verdict = (n: number) => (n ? `${n} violation${n === 1 ? '' : 's'}` : 'ok');
      assert.deepEqual(exchangeLines, [
        `GET /billingGroups/bg-1 → 200 getBillingGroup: ${verdict(violationsOf('GET', '/billingGroups/bg-1'))}`,
        `POST /offers → 201 createOffer: ${verdict(violationsOf('POST', '/offers'))}`,
      ]);
      assert.ok(violationsOf('POST', '/offers') > 0, 'quantity as a string is a violation');
      const text = readFileSync(cassette, 'utf8');
      assert.equal(text.includes(TOKEN), false, "the client's own token is redacted");
      assert.equal(readCassette(cassette).exchanges.length, 2);
    } finally {
      await up.close();
      tmp.cleanup();
    }
  });

  it('--quiet prints no line per exchange', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    try {
      const io = testIo({ FLIS_TOKEN: TOKEN });
      const running = recordCommand.run(
        ['--upstream', up.baseUrl, '--cassette', tmp.file('quiet.yaml'), '--quiet'],
        io,
      );
      const baseUrl = servingUrl.exec(await io.waitFor(servingUrl))![1]!;
      assert.equal((await call(baseUrl, '/billingGroups/bg-1')).status, 200);
      io.stop();
      assert.equal(await running, 0);
      assert.deepEqual(io.errors, []);
    } finally {
      await up.close();
      tmp.cleanup();
    }
  });

  it('a live count on a terminal, nothing on a pipe', () => {
    assert.equal(countLine({ exchanges: 1, violations: 2 }), '1 exchange, 2 violations so far (Ctrl-C stops)');
    const written: string[] = [];
    const tty = { isTTY: true, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    const count = liveCount(tty);
    count.show({ exchanges: 3, violations: 0 });
    count.clear();
    assert.deepEqual(written, ['\r\x1b[K3 exchanges, 0 violations so far (Ctrl-C stops)', '\r\x1b[K']);
    const pipe = { isTTY: false, write: () => assert.fail('nothing on a pipe') } as unknown as NodeJS.WriteStream;
    liveCount(pipe).show({ exchanges: 1, violations: 0 });
  });
});
