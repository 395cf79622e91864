/**
 * Crash safety and concurrency of cassette writes: a --durable recorder killed
 * with SIGKILL keeps every exchange whose response the client saw complete; the
 * default write-behind recorder writes each exchange right after its answer; and
 * 1,000 concurrent requests become exactly 1,000 whole, non-interleaved
 * exchanges. All traffic stays on loopback and every loop is bounded.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { parseCassette, readCassette } from '../../recorder/cassette-reader.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import type { CassetteParseError } from '../../recorder/errors.ts';
import { call, startUpstream, tempDir, TOKEN } from './helpers.ts';

const CHILD = fileURLToPath(new URL('./fixtures/recorder-child.ts', import.meta.url));

/** Resolves with the first line the child prints, or rejects if it exits or the deadline passes. */
async function firstLine(child: ReturnType<typeof spawn>, deadlineMs: number): Promise<string> {
  let out = '';
  const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  try {
    for await (const chunk of child.stdout!) {
      out += String(chunk);
      const nl = out.indexOf('\n');
      if (nl >= 0) return out.slice(0, nl);
    }
    throw new Error('the recorder child exited before printing its base URL');
  } finally {
    clearTimeout(timer);
  }
}

describe('durability', () => {
  it('SIGKILL during --durable recording loses no completed exchange', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    const cassette = tmp.file('killed.yaml');
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: {
        ...process.env,
        CHILD_UPSTREAM: up.baseUrl,
        CHILD_CASSETTE: cassette,
        FLIS_TOKEN: TOKEN,
        CHILD_DURABLE: '1',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const baseUrl = await firstLine(child, 20_000);
      const completed = new Set<string>();
      let killed = false;
      const KILL_AFTER = 150;
      const MAX = 2_000;
      let next = 0;
      const worker = async (): Promise<void> => {
        while (!killed && next < MAX) {
          const id = `o-${next++}`;
          try {
            const r = await call(baseUrl, `/offers/${id}`);
            if (r.status === 200) completed.add(id);
          } catch {
            return; // the recorder is gone
          }
          if (completed.size >= KILL_AFTER && !killed) {
            killed = true;
            child.kill('SIGKILL'); // other workers still have requests in flight
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
      assert.equal(child.signalCode, 'SIGKILL');
      assert.ok(completed.size >= KILL_AFTER);
      const read = readCassette(cassette, { allowTorn: true });
      const recorded = new Set(read.exchanges.map((e) => e.request.path.replace('/offers/', '')));
      const lost = [...completed].filter((id) => !recorded.has(id));
      assert.deepEqual(lost, [], 'every exchange the client saw complete is in the cassette');
      for (const e of read.exchanges) assert.equal(e.response.status, 200);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await up.close();
      tmp.cleanup();
    }
  });

  it('the default write-behind recorder writes an answered exchange without waiting for close', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    const cassette = tmp.file('behind.yaml');
    const rec = await startRecorder({
      mode: 'record',
      cassette,
      upstream: { baseUrl: up.baseUrl, deployment: null },
      env: { FLIS_TOKEN: TOKEN },
    });
    try {
      assert.equal((await call(rec.baseUrl, '/offers/o-behind')).status, 200);
      const deadline = Date.now() + 10_000;
      let paths: string[] = [];
      while (Date.now() < deadline) {
        paths = readCassette(cassette, { allowTorn: true }).exchanges.map((e) => e.request.path);
        if (paths.length) break;
        await new Promise((r) => setImmediate(r));
      }
      assert.deepEqual(paths, ['/offers/o-behind']);
    } finally {
      await rec.close();
      await up.close();
      tmp.cleanup();
    }
  });

  it('reports a torn last exchange by line instead of using it', () => {
    const tmp = tempDir();
    try {
      const text = [
        '---',
        'format: 1',
        '...',
        '---',
        'seq: 1',
        'request: {method: GET, path: /a}',
        'response: {status: 200}',
        '...',
        '---',
        'seq: 2',
        'request:',
        '  method: GET',
        '',
      ].join('\n');
      assert.throws(
        () => parseCassette(text, 'torn.yaml'),
        (e: CassetteParseError) =>
          e.code === 'FLIS_ERR_CASSETTE_PARSE' &&
          e.file === 'torn.yaml' &&
          e.line === 9 &&
          /torn/.test(e.message) &&
          /1 complete exchanges/.test(e.message),
      );
      const kept = parseCassette(text, 'torn.yaml', { allowTorn: true });
      assert.equal(kept.exchanges.length, 1);
      assert.deepEqual(kept.torn, { line: 9 });
    } finally {
      tmp.cleanup();
    }
  });

  it('1,000 concurrent requests through the recorder give 1,000 whole exchanges', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    const cassette = tmp.file('many.yaml');
    const rec = await startRecorder({
      mode: 'record',
      cassette,
      upstream: { baseUrl: up.baseUrl, deployment: null },
      env: { FLIS_TOKEN: TOKEN },
    });
    try {
      const N = 1_000;
      const answers = await Promise.all(
        Array.from({ length: N }, (_, i) => call(rec.baseUrl, `/offers/c-${i}?n=${i}`)),
      );
      assert.equal(answers.filter((a) => a.status === 200).length, N);
      for (const [i, a] of answers.entries()) assert.equal(a.json().path, `/offers/c-${i}`);
    } finally {
      await rec.close();
      await up.close();
    }
    const c = readCassette(cassette);
    assert.equal(c.exchanges.length, 1_000);
    assert.equal(new Set(c.exchanges.map((e) => e.request.path)).size, 1_000);
    assert.deepEqual(
      c.exchanges.map((e) => e.seq),
      Array.from({ length: 1_000 }, (_, i) => i + 1),
    );
    for (const e of c.exchanges)
      assert.equal(
        (e.response.body!.value as { path: string }).path,
        e.request.path,
        'each response sits with its own request',
      );
    assert.equal(
      readFileSync(cassette, 'utf8').split('\n...\n').length - 1,
      1_001,
      'header plus one document per exchange',
    );
    tmp.cleanup();
  });
});
