/**
 * The registry under load and crashes, on both databases. 20 partners publish at once, 50 small cassettes each,
 * every fifth upload sent twice at the same time with the same Idempotency-Key (a client retrying): 1,000
 * publications stored, none lost, none twice. A registry killed with SIGKILL while uploads are in flight (one of
 * them half sent) restarts on the same database consistent: every acknowledged publication is there whole, the
 * half-sent one is not, and sending again what had no answer stores each once.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '../../registry/database.ts';
import { waitForOutput } from '../child-output.ts';
import { ROOT } from '../runner/helpers.ts';
import {
  ADMIN_TOKEN,
  addPartner,
  call,
  databaseSpec,
  ENGINES,
  publicationBody,
  recordedCassette,
  registryOn,
  tempDir,
} from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());
const shm = existsSync('/dev/shm')
  ? {
      dir: mkdtempSync('/dev/shm/flis-registry-'),
      cleanup() {
        rmSync(this.dir, { recursive: true, force: true });
      },
    }
  : tmp;
after(() => shm.cleanup());
let exchange = '';
let header = '';

before(async () => {
  // A small cassette: the header and the last exchange (one invoice) of a real recording.
  const docs = (await recordedCassette(tmp.dir)).split(/\n(?=---\n)/);
  header = docs[0]!;
  exchange = docs.at(-1)!;
});

/** A distinct small cassette for upload `id`. */
function cassetteFor(id: string): string {
  return `${header.replace(/partner: .*/, `partner: ${id}`)}\n${exchange.replace(/^seq: \d+/m, 'seq: 1')}`;
}

function sha(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

interface Upload {
  partner: string;
  token: string;
  key: string;
  body: ReturnType<typeof publicationBody>;
}

function upload(partner: string, token: string, n: number): Upload {
  const key = `${partner}-upload-${n}`;
  return { partner, token, key, body: publicationBody(partner, key, cassetteFor(key)) };
}

async function send(url: string, u: Upload): Promise<{ status: number; id?: number }> {
  const r = await call(url, 'POST', '/api/publications', {
    token: u.token,
    json: u.body,
    headers: { 'idempotency-key': u.key },
  });
  return { status: r.status, ...(r.status < 300 ? { id: r.json<{ id: number }>().id } : {}) };
}

async function allPublications(url: string) {
  const r = await call(url, 'GET', '/api/publications', { token: ADMIN_TOKEN });
  assert.equal(r.status, 200, r.text);
  return r.json<{ publications: { id: number; partner: string; runId: string; cassetteSha256: string }[] }>()
    .publications;
}

for (const engine of ENGINES) {
  describe(`on the ${engine} database`, () => {
    it('20 partners publishing at once, 50 cassettes each, every fifth retried: 0 lost, 0 duplicated', async () => {
      // The embedded database in memory-backed files where there are some: this test counts rows, not fsyncs.
      const reg = await registryOn(engine, existsSync('/dev/shm') ? shm.dir : tmp.dir);
      try {
        const partners = await Promise.all(
          Array.from({ length: 20 }, async (_, i) => ({ name: `p${i}`, token: await addPartner(reg.url, `p${i}`) })),
        );
        const t0 = performance.now();
        const acked = new Map<string, number>();
        await Promise.all(
          partners.map(async (p) => {
            for (let n = 0; n < 50; n++) {
              const u = upload(p.name, p.token, n);
              const answers = await Promise.all(
                n % 5 === 0 ? [send(reg.url, u), send(reg.url, u)] : [send(reg.url, u)],
              );
              for (const a of answers) assert.ok(a.status === 201 || a.status === 200, `${u.key}: ${a.status}`);
              assert.equal(new Set(answers.map((a) => a.id)).size, 1, `${u.key}: both sends name one publication`);
              acked.set(u.key, answers[0]!.id!);
            }
          }),
        );
        const seconds = (performance.now() - t0) / 1000;
        const stored = await allPublications(reg.url);
        assert.equal(acked.size, 1000);
        assert.equal(stored.length, 1000, `${stored.length} stored for 1,000 uploads`);
        const byRun = new Map(stored.map((s) => [s.runId, s]));
        assert.equal(byRun.size, 1000, 'no upload stored twice');
        for (const [key, id] of acked) {
          const s = byRun.get(key);
          assert.equal(s?.id, id, `${key}: stored under the id it was answered with`);
          assert.equal(s?.cassetteSha256, sha(cassetteFor(key)), `${key}: its cassette whole`);
        }
        console.log(
          `# ${engine}: 1,000 publications (1,200 uploads) in ${seconds.toFixed(1)} s, ${(1200 / seconds).toFixed(0)} uploads/s`,
        );
      } finally {
        await reg.stop();
      }
    });

    it('killed with SIGKILL mid-upload, it restarts consistent, and what had no answer is stored once when sent again', async () => {
      const spec = await databaseSpec(engine, tmp.dir);
      let child = await serve(spec);
      const url = child.url;
      const partners = await Promise.all(
        Array.from({ length: 4 }, async (_, i) => ({ name: `k${i}`, token: await addPartner(url, `k${i}`) })),
      );
      const attempted: Upload[] = [];
      const acked = new Map<string, number>();
      // One upload half sent when the registry dies.
      const half = upload('k0', partners[0]!.token, 999);
      attempted.push(half);
      const halfSent = sendHalf(url, half);
      let killed = false;
      const load = partners.map(async (p) => {
        for (let n = 0; !killed; n++) {
          const u = upload(p.name, p.token, n);
          attempted.push(u);
          try {
            const a = await send(url, u);
            if (a.id) acked.set(u.key, a.id);
          } catch {
            return;
          }
          if (acked.size >= 40 && !killed) {
            killed = true;
            child.process.kill('SIGKILL');
          }
        }
      });
      await Promise.all(load);
      await halfSent;
      await new Promise((done) =>
        child.process.exitCode !== null || child.process.signalCode ? done(null) : child.process.once('exit', done),
      );
      child = await serve(spec);
      try {
        const stored = await allPublications(child.url);
        const byRun = new Map(stored.map((s) => [s.runId, s]));
        for (const [key, id] of acked) {
          assert.equal(byRun.get(key)?.id, id, `${key} was acknowledged before the kill: it is stored`);
          assert.equal(byRun.get(key)?.cassetteSha256, sha(cassetteFor(key)), `${key}: whole`);
        }
        assert.ok(!byRun.has(half.key), 'the half-sent upload left nothing behind');
        for (const u of attempted) {
          const a = await send(child.url, u);
          assert.ok(a.status === 201 || a.status === 200, `${u.key} sent again: ${a.status}`);
          if (acked.has(u.key)) assert.equal(a.status, 200, `${u.key} was stored before: answered, not stored again`);
        }
        const after = await allPublications(child.url);
        assert.equal(after.length, attempted.length, 'every upload stored exactly once');
        assert.equal(new Set(after.map((s) => s.runId)).size, attempted.length);
      } finally {
        child.process.kill('SIGTERM');
        await new Promise((done) => child.process.once('exit', done));
      }
      if (engine === 'embedded') {
        const db = await openDatabase(spec);
        try {
          const [check] = await db.tx((q) => q.all('PRAGMA integrity_check'));
          assert.equal(Object.values(check ?? {})[0], 'ok');
        } finally {
          await db.close();
        }
      }
    });
  });
}

async function serve(spec: string): Promise<{ process: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin/flis.js'), 'registry', 'serve', '--database', spec, '--port', '0'],
    { env: { ...process.env, FLIS_REGISTRY_ADMIN_TOKEN: ADMIN_TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stderr?.resume();
  const m = await waitForOutput(child, /serving (http:\/\/127\.0\.0\.1:\d+)/, 60_000);
  return { process: child, url: m[1]! };
}

/** Sends the headers and half the body of an upload, and never the rest: the registry dies waiting for it. */
function sendHalf(url: string, u: Upload): Promise<void> {
  const body = Buffer.from(JSON.stringify(u.body));
  return new Promise((done) => {
    const req = httpRequest(`${url}/api/publications`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${u.token}`,
        'content-type': 'application/json',
        'content-length': body.length,
        'idempotency-key': u.key,
      },
    });
    req.on('error', () => done());
    req.on('response', () => done());
    req.write(body.subarray(0, body.length >> 1));
  });
}
