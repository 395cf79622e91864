/**
 * Who may do what, and what bad input gets, on both databases: every refusal (no token, an unknown token, another
 * partner's record, an admin route) is a 401 or 403 with one line, reads nothing (the other partner's records
 * never show in the answer) and writes nothing (every table's row count is unchanged); every endpoint answers
 * oversized, malformed, wrongly typed input and a name that could climb out of a path with a 4xx of one line,
 * and stores nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN_TOKEN,
  addPartner,
  call,
  ENGINES,
  publicationBody,
  recordedCassette,
  registryOn,
  type Reply,
  type TestRegistry,
  tempDir,
} from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());

function oneLine(r: Reply, what: string): void {
  const lines = r.text.trim().split('\n');
  assert.equal(lines.length, 1, `${what}: answered in one line, got:\n${r.text.slice(0, 500)}`);
  assert.match(r.text, /^\{"error":"[^"]+/, `${what}: {"error": "…"}`);
}

for (const engine of ENGINES) {
  describe(`on the ${engine} database`, () => {
    let reg: TestRegistry;
    let acme = '';
    let globex = '';
    let cassette = '';
    let globexPublication = 0;
    let globexReplay = 0;

    before(async () => {
      cassette = await recordedCassette(tmp.dir);
      reg = await registryOn(engine, tmp.dir, { maxUploadBytes: 512 * 1024, maxCassetteBytes: 128 * 1024 });
      acme = await addPartner(reg.url, 'acme', ['sandbox']);
      globex = await addPartner(reg.url, 'globex', ['sandbox', 'production-1']);
      const a = await call(reg.url, 'POST', '/api/publications', {
        token: acme,
        json: publicationBody('acme', 'run-acme-1', cassette),
        headers: { 'idempotency-key': 'acme-key-0001' },
      });
      assert.equal(a.status, 201, a.text);
      const g = await call(reg.url, 'POST', '/api/publications', {
        token: globex,
        json: publicationBody('globex', 'run-globex-SECRETIVE', cassette),
        headers: { 'idempotency-key': 'globex-key-0001' },
      });
      assert.equal(g.status, 201, g.text);
      globexPublication = g.json<{ id: number }>().id;
      const run = await call(reg.url, 'POST', '/api/releases/2.4.0/replays', {
        token: ADMIN_TOKEN,
        headers: { 'idempotency-key': 'regress-run-0001' },
        json: {
          runId: 'regress-1',
          deployment: 'embedded',
          toolVersion: '0.1.0',
          replays: [
            {
              partner: 'globex',
              publication: globexPublication,
              verdict: 'broken',
              summary: 'globex-only-summary',
              reportHtml: '<!doctype html><p>globex-only-report</p>',
              reportJson: '{}',
            },
          ],
        },
      });
      assert.equal(run.status, 201, run.text);
      globexReplay = (await reg.store.latestReplays('2.4.0'))[0]!.id;
    });
    after(async () => reg?.stop());

    /** Calls, then checks the status, the one line, that nothing of globex's shows, and that nothing was written. */
    async function refused(
      status: number,
      method: string,
      path: string,
      o: Parameters<typeof call>[3] = {},
      page = false,
    ): Promise<void> {
      const before = await reg.store.counts();
      const r = await call(reg.url, method, path, o);
      const what = `${method} ${path}${o.token ? ` as ${o.token === ADMIN_TOKEN ? 'admin' : o.token === acme ? 'acme' : 'an unknown token'}` : ' without a token'}`;
      assert.equal(r.status, status, `${what}: ${r.text.slice(0, 300)}`);
      if (!page) oneLine(r, what);
      for (const secret of ['run-globex-SECRETIVE', 'globex-only', cassette.slice(0, 200)])
        assert.ok(!r.text.includes(secret), `${what}: the answer shows globex's records`);
      assert.deepEqual(await reg.store.counts(), before, `${what}: nothing written`);
      if (status === 401 && !page) assert.match(String(r.headers['www-authenticate']), /^Bearer/);
    }

    it('no token: 401 on every API route and page, nothing read or written', async () => {
      for (const [m, p] of [
        ['GET', '/api/publications'],
        ['GET', `/api/publications/${globexPublication}`],
        ['GET', `/api/publications/${globexPublication}/cassette`],
        ['GET', '/api/partners'],
        ['GET', '/api/cassettes/latest'],
        ['GET', '/api/releases/2.4.0/can-i-release'],
        ['GET', '/api/backup'],
      ] as const)
        await refused(401, m, p);
      await refused(401, 'POST', '/api/publications', {
        json: publicationBody('acme', 'x', null),
        headers: { 'idempotency-key': 'no-token-0001' },
      });
      await refused(401, 'POST', '/api/partners', { json: { name: 'intruder' } });
      await refused(401, 'GET', '/api/publications', { token: 'flisr_p_not-a-token-the-registry-knows' });
      await refused(401, 'GET', '/matrix', {}, true);
      await refused(401, 'GET', `/reports/certificates/${globexPublication}`, {}, true);
      await refused(401, 'GET', `/reports/replays/${globexReplay}`, {}, true);
      // A token the registry does not know, in the cookie the login form sets, reads no page either.
      await refused(401, 'GET', '/matrix', { headers: { cookie: 'flis_registry_token=not-known' } }, true);
    });

    it("another partner's record: 403, nothing read or written", async () => {
      const t = { token: acme };
      await refused(403, 'GET', `/api/publications/${globexPublication}`, t);
      await refused(403, 'GET', `/api/publications/${globexPublication}/certificate`, t);
      await refused(403, 'GET', `/api/publications/${globexPublication}/cassette`, t);
      await refused(403, 'GET', '/api/publications?partner=globex', t);
      await refused(403, 'GET', `/reports/certificates/${globexPublication}`, t);
      await refused(403, 'GET', `/reports/replays/${globexReplay}`, t);
      await refused(403, 'GET', `/reports/certificates/${globexPublication}`, {
        headers: { cookie: `flis_registry_token=${acme}` },
      });
      // Publishing a certificate made out to another partner.
      await refused(403, 'POST', '/api/publications', {
        ...t,
        json: publicationBody('globex', 'forged-run', null),
        headers: { 'idempotency-key': 'forged-0001' },
      });
      // What acme may list holds its own records only.
      const own = await call(reg.url, 'GET', '/api/publications', t);
      assert.equal(own.status, 200);
      assert.deepEqual(
        own.json<{ publications: { partner: string }[] }>().publications.map((p) => p.partner),
        ['acme'],
      );
      const replays = await call(reg.url, 'GET', '/api/releases/2.4.0/replays', t);
      assert.deepEqual(replays.json<{ replays: unknown[] }>().replays, [], "acme sees no verdict of globex's");
    });

    it("an admin route with a partner's token, and a partner's route with the admin's: 403, nothing written", async () => {
      const t = { token: acme };
      await refused(403, 'POST', '/api/partners', { ...t, json: { name: 'newcomer' } });
      await refused(403, 'GET', '/api/partners', t);
      await refused(403, 'PATCH', '/api/partners/globex', { ...t, json: { active: false } });
      await refused(403, 'GET', '/api/cassettes/latest', t);
      await refused(403, 'POST', '/api/releases/2.4.0/replays', {
        ...t,
        json: { runId: 'r', deployment: 'sandbox', toolVersion: '0.1.0', replays: [] },
        headers: { 'idempotency-key': 'partner-run-0001' },
      });
      await refused(403, 'POST', '/api/releases/2.4.0/deployments', { ...t, json: { deployment: 'sandbox' } });
      await refused(403, 'GET', '/api/releases/2.4.0/can-i-release', t);
      await refused(403, 'GET', '/api/backup', t);
      await refused(403, 'POST', '/api/publications', {
        token: ADMIN_TOKEN,
        json: publicationBody('acme', 'admin-run', null),
        headers: { 'idempotency-key': 'admin-pub-0001' },
      });
    });

    it('bad input on every endpoint: a 4xx with one line, nothing stored', async () => {
      const A = { token: ADMIN_TOKEN };
      const P = { token: acme };
      const big = 'x'.repeat(600 * 1024);
      const pub = (extra: Record<string, unknown> = {}) => ({
        ...publicationBody('acme', 'bad-run', cassette),
        ...extra,
      });
      const key = (k: string) => ({ 'idempotency-key': `bad-input-${k}` });
      const cases: [number, string, string, Parameters<typeof call>[3]][] = [
        // POST /api/partners
        [413, 'POST', '/api/partners', { ...A, body: `{"name":"${big}"}`, type: 'application/json' }],
        [400, 'POST', '/api/partners', { ...A, body: '{"name": "acme2",', type: 'application/json' }],
        [415, 'POST', '/api/partners', { ...A, body: 'name=acme2', type: 'text/plain' }],
        [400, 'POST', '/api/partners', { ...A, json: { name: '../../etc/passwd' } }],
        [400, 'POST', '/api/partners', { ...A, json: { name: 'a/b' } }],
        [400, 'POST', '/api/partners', { ...A, json: { name: '..' } }],
        [400, 'POST', '/api/partners', { ...A, json: { name: 'ok', deployments: ['../prod'] } }],
        [
          400,
          'POST',
          '/api/partners',
          { ...A, body: '{"__proto__": {"admin": true}, "name": "p"}', type: 'application/json' },
        ],
        // PATCH /api/partners/:name
        [400, 'PATCH', '/api/partners/..%2F..%2Fetc', { ...A, json: { active: false } }],
        [400, 'PATCH', '/api/partners/acme', { ...A, body: '{', type: 'application/json' }],
        [415, 'PATCH', '/api/partners/acme', { ...A, body: 'active=false', type: 'application/x-www-form-urlencoded' }],
        [413, 'PATCH', '/api/partners/acme', { ...A, body: `{"deployments":["${big}"]}`, type: 'application/json' }],
        [422, 'PATCH', '/api/partners/acme', { ...A, json: { active: 'sometimes' } }],
        // POST /api/publications
        [
          413,
          'POST',
          '/api/publications',
          { ...P, json: pub({ certificateHtml: `<!doctype html>${big}` }), headers: key('a') },
        ],
        [
          413,
          'POST',
          '/api/publications',
          { ...P, json: pub({ cassette: `${cassette}#${'y'.repeat(130 * 1024)}\n` }), headers: key('b') },
        ],
        [
          400,
          'POST',
          '/api/publications',
          { ...P, body: '{"certificate": {', type: 'application/json', headers: key('c') },
        ],
        [415, 'POST', '/api/publications', { ...P, body: cassette, type: 'application/yaml', headers: key('d') }],
        [400, 'POST', '/api/publications', { ...P, json: pub() }],
        [400, 'POST', '/api/publications', { ...P, json: pub(), headers: { 'idempotency-key': '../../x' } }],
        [422, 'POST', '/api/publications', { ...P, json: pub({ cassette: 'not: a cassette\n' }), headers: key('e') }],
        [
          422,
          'POST',
          '/api/publications',
          {
            ...P,
            json: pub({ cassette: cassette.replace('[REDACTED]', 'sk-live-1234567890abcdef') }),
            headers: key('f'),
          },
        ],
        [
          422,
          'POST',
          '/api/publications',
          { ...P, json: pub({ cassette: `${cassette}# ${acme}\n` }), headers: key('g') },
        ],
        [
          422,
          'POST',
          '/api/publications',
          { ...P, json: pub({ certificate: { kind: 'something else' } }), headers: key('h') },
        ],
        [422, 'POST', '/api/publications', { ...P, json: [1, 2, 3], headers: key('i') }],
        [422, 'POST', '/api/publications', { ...P, json: pub({ contract: { sha256: '../x' } }), headers: key('j') }],
        // POST /api/releases/:release/replays
        [
          400,
          'POST',
          '/api/releases/..%2F..%2Fetc/replays',
          { ...A, json: { runId: 'r', deployment: 'd', toolVersion: 'v', replays: [] }, headers: key('k') },
        ],
        [400, 'POST', '/api/releases/2.5.0/replays', { ...A, body: '[', type: 'application/json', headers: key('l') }],
        [415, 'POST', '/api/releases/2.5.0/replays', { ...A, body: 'x', type: 'text/html', headers: key('m') }],
        [
          413,
          'POST',
          '/api/releases/2.5.0/replays',
          { ...A, body: `{"runId":"${big}"}`, type: 'application/json', headers: key('n') },
        ],
        [
          400,
          'POST',
          '/api/releases/2.5.0/replays',
          {
            ...A,
            json: {
              runId: 'r',
              deployment: 'd',
              toolVersion: 'v',
              replays: [
                {
                  partner: '../acme',
                  publication: 1,
                  verdict: 'broken',
                  summary: 's',
                  reportHtml: 'h',
                  reportJson: '{}',
                },
              ],
            },
            headers: key('o'),
          },
        ],
        [
          422,
          'POST',
          '/api/releases/2.5.0/replays',
          {
            ...A,
            json: {
              runId: 'r',
              deployment: 'd',
              toolVersion: 'v',
              replays: [
                {
                  partner: 'acme',
                  publication: globexPublication,
                  verdict: 'broken',
                  summary: 's',
                  reportHtml: 'h',
                  reportJson: '{}',
                },
              ],
            },
            headers: key('p'),
          },
        ],
        // POST /api/releases/:release/deployments
        [400, 'POST', '/api/releases/2.5.0/deployments', { ...A, json: { deployment: '../../prod' } }],
        [400, 'POST', '/api/releases/..%2Fx/deployments', { ...A, json: { deployment: 'sandbox' } }],
        [400, 'POST', '/api/releases/2.5.0/deployments', { ...A, body: '{"deployment":', type: 'application/json' }],
        [
          415,
          'POST',
          '/api/releases/2.5.0/deployments',
          { ...A, body: 'deployment=sandbox', type: 'application/x-www-form-urlencoded' },
        ],
        [
          413,
          'POST',
          '/api/releases/2.5.0/deployments',
          { ...A, body: `{"deployment":"${big}"}`, type: 'application/json' },
        ],
        // reads
        [400, 'GET', '/api/publications/abc', A],
        [400, 'GET', '/api/publications/..%2F1', A],
        [400, 'GET', '/api/publications?partner=..%2Fglobex', A],
        [404, 'GET', '/api/publications/999999', A],
        [400, 'GET', '/api/releases/..%2F..%2Fx/can-i-release', A],
        [400, 'GET', '/api/releases/2.4.0/can-i-release?to=..%2Fprod', A],
        [404, 'GET', '/api/releases/%2e%2e/replays', A],
        [400, 'GET', '/reports/certificates/-1', A],
        [404, 'GET', '/reports/replays/424242', A],
        [404, 'GET', '/../../etc/passwd', A],
        // the login form
        [415, 'POST', '/login', { body: '{"token":"x"}', type: 'application/json' }],
        [413, 'POST', '/login', { body: `token=${'z'.repeat(5000)}`, type: 'application/x-www-form-urlencoded' }],
      ];
      const failures: string[] = [];
      for (const [status, method, path, o] of cases) {
        const before = await reg.store.counts();
        const r = await call(reg.url, method, path, o);
        const what = `${method} ${path} (${String(o?.type ?? 'json')}, ${String(o?.body ?? JSON.stringify(o?.json) ?? '').slice(0, 60)})`;
        if (r.status !== status) failures.push(`${what}: ${r.status}, expected ${status}: ${r.text.slice(0, 200)}`);
        else if (r.text.trim().split('\n').length !== 1)
          failures.push(`${what}: not one line: ${r.text.slice(0, 200)}`);
        if (JSON.stringify(await reg.store.counts()) !== JSON.stringify(before))
          failures.push(`${what}: something was stored`);
      }
      assert.deepEqual(failures, []);
    });

    it('a secret found in an upload is named by line and kind, never by value', async () => {
      const r = await call(reg.url, 'POST', '/api/publications', {
        token: acme,
        json: publicationBody('acme', 'leaky', `${cassette}# ${acme}\n`),
        headers: { 'idempotency-key': 'leaky-0001' },
      });
      assert.equal(r.status, 422);
      assert.match(r.text, /holds a secret at line \d+/);
      assert.ok(!r.text.includes(acme), 'the token is not in the answer');
    });
  });
}
