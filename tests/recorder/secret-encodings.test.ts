/**
 * Issue 9 item 5: no encoding of a secret survives. A property generates a
 * secret, an encoding of it (raw; percent-encoded with any subset of its
 * characters encoded, in either hex case; base64 or base64url of the secret
 * alone, of `Bearer <t>`, `user:<t>` or `:<t>`, at any byte alignment inside a
 * longer encoded string, maybe percent-encoded again) and a place (URL path,
 * query, header, JSON, text or binary body). Through the real recorder:
 * - with the secret known, the cassette is written and nothing in it decodes
 *   back to the secret (checked by decoding, not by the matcher under test);
 * - with it unknown, wherever the cassette holds it (decoding, as above),
 *   `flis cassette scan` finds it.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { base64Cores, SecretForms } from '../../errors/secret-forms.ts';
import type { Exchange, StoredBody } from '../../recorder/cassette-format.ts';
import { readCassette } from '../../recorder/cassette-reader.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { scanCassette } from '../../recorder/scan.ts';
import { call, startUpstream, tempDir } from './helpers.ts';

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const SPECIAL = '-._~+/=!*\'() :@&?#%"\\é€';

const secretArb = fc
  .array(
    fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...ALNUM) },
      { weight: 1, arbitrary: fc.constantFrom(...SPECIAL) },
    ),
    {
      minLength: 12,
      maxLength: 40,
    },
  )
  .map((cs) => cs.join(''));

type Encoding =
  | { kind: 'raw' }
  | { kind: 'percent'; mask: boolean[]; upper: boolean[] }
  | {
      kind: 'base64';
      url: boolean;
      form: 'alone' | 'bearer' | 'user' | 'colon';
      user: string;
      before: string;
      after: string;
      thenPercent: boolean;
    };

const encodingArb: fc.Arbitrary<Encoding> = fc.oneof(
  fc.constant({ kind: 'raw' as const }),
  fc.record({
    kind: fc.constant('percent' as const),
    mask: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
    upper: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
  }),
  fc.record({
    kind: fc.constant('base64' as const),
    url: fc.boolean(),
    form: fc.constantFrom('alone' as const, 'bearer' as const, 'user' as const, 'colon' as const),
    user: fc.stringMatching(/^[a-z0-9._-]{0,12}$/),
    before: fc.string({ maxLength: 7 }),
    after: fc.string({ maxLength: 7 }),
    thenPercent: fc.boolean(),
  }),
);

const places = ['path', 'query', 'header', 'json-body', 'text-body', 'binary-body'] as const;
type Place = (typeof places)[number];

function pct(ch: string, upper = true): string {
  return Array.from(Buffer.from(ch, 'utf8'), (b) => {
    const h = b.toString(16).padStart(2, '0');
    return `%${upper ? h.toUpperCase() : h}`;
  }).join('');
}

function encode(secret: string, e: Encoding): string {
  if (e.kind === 'raw') return secret;
  if (e.kind === 'percent')
    return Array.from(secret, (ch, i) => (e.mask[i % 40] ? pct(ch, e.upper[i % 40]) : ch)).join('');
  const credential = { alone: secret, bearer: `Bearer ${secret}`, user: `${e.user}:${secret}`, colon: `:${secret}` }[
    e.form
  ];
  const b64 = Buffer.from(`${e.before}${credential}${e.after}`, 'utf8').toString(e.url ? 'base64url' : 'base64');
  return e.thenPercent ? encodeURIComponent(b64) : b64;
}

/** What must be percent-encoded to stand in a URL or a header at all (the rest stays as the encoding chose). */
function wireSafe(s: string, place: Place): string {
  if (place === 'path' || place === 'query')
    return Array.from(s, (c) => (/[A-Za-z0-9\-._~%]/.test(c) ? c : pct(c))).join('');
  if (place === 'header') return Array.from(s, (c) => (/[\x21-\x7e]/.test(c) ? c : pct(c))).join('');
  return s;
}

async function send(baseUrl: string, encoded: string, place: Place): Promise<void> {
  const v = wireSafe(encoded, place);
  if (place === 'path') await call(baseUrl, `/offers/x${v}x`, { token: null });
  else if (place === 'query') await call(baseUrl, `/offers?q=${v}`, { token: null });
  else if (place === 'header')
    await call(baseUrl, '/offers', { token: null, headers: { accept: `application/json; x=${v};` } });
  else if (place === 'json-body') await call(baseUrl, '/offers', { token: null, method: 'POST', body: { note: v } });
  else if (place === 'text-body')
    await call(baseUrl, '/offers', {
      token: null,
      method: 'POST',
      body: `text ${v} text`,
      headers: { 'content-type': 'text/plain' },
    });
  else {
    const { request } = await import('undici');
    const r = await request(`${baseUrl}/offers`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(v, 'utf8'), Buffer.from([255, 0])]),
    });
    await r.body.arrayBuffer();
  }
}

/** Percent-decoding that leaves what is not a valid escape alone, byte-wise (in a latin1 view). */
function percentDecode(latin1: string): string {
  return latin1.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

/**
 * Whether `secret` can be read back out of `latin1` (bytes as latin1): as is,
 * percent-decoded (with or without `+` as space), or base64/base64url-decoded
 * from any run of base64 characters at any of the four character offsets.
 * An oracle independent of errors/secret-forms.ts.
 */
function recoverable(latin1: string, secret: string): boolean {
  const needle = Buffer.from(secret, 'utf8').toString('latin1');
  const candidates = [latin1, percentDecode(latin1), percentDecode(latin1.replace(/\+/g, ' '))];
  for (const c of candidates) {
    if (c.includes(needle)) return true;
    for (const [run] of c.matchAll(/[A-Za-z0-9+/_-]{4,}/g))
      for (let off = 0; off < 4; off += 1) {
        const decoded = Buffer.from(run.slice(off).replace(/-/g, '+').replace(/_/g, '/'), 'base64');
        if (decoded.toString('latin1').includes(needle)) return true;
      }
  }
  return false;
}

function bodyViews(b: StoredBody | null): string[] {
  if (!b) return [];
  if (b.encoding === 'base64') return [Buffer.from(b.value as string, 'base64').toString('latin1')];
  const text = b.encoding === 'json' ? JSON.stringify(b.value) : (b.value as string);
  return [Buffer.from(text, 'utf8').toString('latin1')];
}

/** Everything of an exchange a reader could decode: path, query, headers and bodies, as latin1 views of their bytes. */
function views(e: Exchange): string[] {
  const strings = [
    e.request.path,
    ...Object.entries(e.request.query).flat(2),
    ...Object.values(e.request.headers).flat(),
    ...Object.values(e.response.headers).flat(),
  ];
  return [
    ...strings.map((s) => Buffer.from(s, 'utf8').toString('latin1')),
    ...bodyViews(e.request.body),
    ...bodyViews(e.response.body),
  ];
}

describe('every encoding of a secret, anywhere', () => {
  it('redaction removes it and the writer still writes; unredacted, scan finds it', async () => {
    const up = await startUpstream((req, res, body) => {
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' });
      res.end(body.length ? body : '{}');
    });
    const tmp = tempDir();
    let n = 0;
    let held = 0;
    try {
      await fc.assert(
        fc.asyncProperty(secretArb, encodingArb, fc.constantFrom(...places), async (secret, enc, place) => {
          n += 1;
          const encoded = encode(secret, enc);
          const known = [{ label: 'GEN_TOKEN', value: secret }];

          const redacted = tmp.file(`redacted-${n}.yaml`);
          const rec = await startRecorder({
            mode: 'record',
            cassette: redacted,
            upstream: { baseUrl: up.baseUrl, deployment: null },
            secrets: known,
          });
          await send(rec.baseUrl, encoded, place);
          await rec.close();
          assert.equal(rec.stats.refusedWrites, 0, 'the writer refused nothing: redaction left no form behind');
          const [e] = readCassette(redacted).exchanges;
          assert.ok(e, 'the exchange was written');
          for (const view of views(e)) assert.equal(recoverable(view, secret), false, `${place}: ${view}`);

          const plain = tmp.file(`plain-${n}.yaml`);
          const open = await startRecorder({
            mode: 'record',
            cassette: plain,
            upstream: { baseUrl: up.baseUrl, deployment: null },
            secrets: [],
          });
          await send(open.baseUrl, encoded, place);
          await open.close();
          // A query value is stored decoded, and an escape that decodes to invalid UTF-8 (`%aa`) is stored as U+FFFD:
          // then the cassette no longer holds the secret in any form, and there is nothing to find.
          const [p] = readCassette(plain).exchanges;
          assert.ok(p, 'the exchange was written');
          if (!views(p).some((view) => recoverable(view, secret))) return;
          held += 1;
          const findings = scanCassette(plain, { GEN_TOKEN: secret }, ['GEN_TOKEN']);
          assert.ok(
            findings.some((f) => f.what.includes('GEN_TOKEN')),
            `scan finds it (${place}, ${enc.kind}): ${JSON.stringify(findings)}`,
          );
        }),
        { numRuns: 50 },
      );
      assert.ok(held >= n / 2, `the unredacted cassette held the secret in ${held} of ${n} runs`);
    } finally {
      await up.close();
      tmp.cleanup();
    }
  });

  it('the three base64 cores are found inside any credential form, whatever stands before the secret', () => {
    const secret = 'tok-Q8vX2mZr7LpK4nW9sB3yH6dF1cJ5gT0e';
    const forms = new SecretForms([{ label: 'T', value: secret }]);
    assert.equal(base64Cores(secret).length, 3);
    for (const prefix of ['', 'B', 'Be', 'Bearer ', 'user:', ':', 'x'.repeat(100)])
      for (const kind of ['base64', 'base64url'] as const) {
        const text = Buffer.from(`${prefix}${secret}!`).toString(kind);
        assert.ok(forms.find(text), `${kind} after ${JSON.stringify(prefix)}`);
        assert.equal(forms.find(forms.replace(text, '[REDACTED]')), undefined);
      }
  });

  it("the issue's cases: base64 of Bearer/user/colon forms in a body, %2D and all-encoded in a path", async () => {
    const tmp = tempDir();
    try {
      const secret = 'tok-Q8vX2mZr7LpK4nW9sB3yH6dF1cJ5gT0e';
      const b64 = (s: string) => Buffer.from(s).toString('base64');
      const file = tmp.file('leaky.yaml');
      const up = await startUpstream((_req, res, body) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body.length ? body : '{}');
      });
      const rec = await startRecorder({
        mode: 'record',
        cassette: file,
        upstream: { baseUrl: up.baseUrl, deployment: null },
        secrets: [],
      });
      await call(rec.baseUrl, '/offers', {
        token: null,
        method: 'POST',
        body: { a: b64(`Bearer ${secret}`), b: b64(`user:${secret}`), c: b64(`:${secret}`) },
      });
      await call(rec.baseUrl, `/offers/${secret.replace(/-/g, '%2D')}`, { token: null });
      await call(rec.baseUrl, `/offers/${Array.from(secret, (c) => pct(c, false)).join('')}`, { token: null });
      await rec.close();
      await up.close();
      const findings = scanCassette(file, { FLIS_TOKEN: secret });
      // Three in the request body, the same three echoed in the response body, one in each path.
      const places = new Set(findings.map((f) => `${f.line}:${f.column}`));
      assert.ok(places.size >= 8, `eight places found: ${JSON.stringify(findings)}`);
      writeFileSync(tmp.file('not-yaml.yaml'), 'a: [unclosed\n');
      assert.throws(
        () => scanCassette(tmp.file('not-yaml.yaml'), {}),
        (e: NodeJS.ErrnoException) => e.code === 'FLIS_ERR_CASSETTE_PARSE',
      );
      writeFileSync(tmp.file('not-cassette.yaml'), 'just: a mapping\n');
      assert.throws(
        () => scanCassette(tmp.file('not-cassette.yaml'), {}),
        (e: NodeJS.ErrnoException) => e.code === 'FLIS_ERR_CASSETTE_PARSE',
      );
    } finally {
      tmp.cleanup();
    }
  });

  it('scan reads every line of the file, document by document: a comment between documents and a junk tail too', () => {
    const tmp = tempDir();
    try {
      const secret = 'tok-Q8vX2mZr7LpK4nW9sB3yH6dF1cJ5gT0e';
      const file = tmp.file('commented.yaml');
      const lines = [
        '---',
        'format: 1',
        'kind: flis-cassette',
        '...',
        `# pasted by hand: ${secret}`,
        '---',
        'seq: 1',
        'startedAt: "2026-01-01T00:00:00.000Z"',
        'operationId: null',
        'request:',
        '  method: GET',
        `  path: /offers/x`,
        '  query: {}',
        '  headers: {}',
        'response:',
        '  status: 200',
        '  headers: {}',
        `  body: {"a":[1,"${encodeURIComponent(secret).replace(/-/g, '%2D')}"]}`,
        '  bodyEncoding: json',
        '  bodySize: 10',
        '  timing:',
        '    durationMs: 1',
        '    firstByteMs: 1',
        '...',
        `junk ${Buffer.from(`Bearer ${secret}`).toString('base64')}`,
      ];
      writeFileSync(file, `${lines.join('\n')}\n`);
      const found = scanCassette(file, { FLIS_TOKEN: secret }).filter((f) => f.what.includes('FLIS_TOKEN'));
      assert.deepEqual(
        found.map((f) => f.line),
        [5, 18, 25],
        JSON.stringify(found),
      );
      assert.equal(found[1]!.column, lines[17]!.indexOf('tok') + 1);
    } finally {
      tmp.cleanup();
    }
  });
});
