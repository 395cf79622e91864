/**
 * No secret is ever written: the token in the environment appears nowhere in a
 * cassette — raw, URL-encoded or base64 — wherever the traffic carried it;
 * headers are kept by allow-list only; the writer's last guard refuses an
 * exchange that still holds a secret; `scan` finds what slipped into a file.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { CassetteWriter } from '../../recorder/cassette-writer.ts';
import { exchangeDocument, headerDocument } from '../../recorder/cassette-yaml.ts';
import { cassetteHeader } from '../../recorder/header.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { startReplayServer } from '../../recorder/replay-server.ts';
import { readCassette } from '../../recorder/cassette-reader.ts';
import { scanCassette } from '../../recorder/scan.ts';
import { formsOf, secretsFromEnv } from '../../recorder/secrets.ts';
import { call, startUpstream, tempDir, TOKEN } from './helpers.ts';

// A token with characters that URL-encoding changes, so the raw and URL-encoded forms differ.
const ODD_TOKEN = 'odd/Tok+en=9xQ2!vR7 kL';

function allForms(value: string): string[] {
  const b64 = Buffer.from(value).toString('base64');
  return [value, encodeURIComponent(value), b64, b64.replace(/=+$/, ''), Buffer.from(value).toString('base64url')];
}

describe('secrets stay out of cassettes', () => {
  it('finds the token nowhere after a run that carried it in header, path, query, body and response', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    try {
      const cassette = tmp.file('secret.yaml');
      const rec = await startRecorder({
        mode: 'record',
        cassette,
        upstream: { baseUrl: up.baseUrl, deployment: null },
        env: { FLIS_TOKEN: TOKEN, MY_EXTRA: ODD_TOKEN },
        secrets: secretsFromEnv({ FLIS_TOKEN: TOKEN, MY_EXTRA: ODD_TOKEN }, ['MY_EXTRA']),
      });
      await call(rec.baseUrl, '/echo-token');
      await call(
        rec.baseUrl,
        `/offers/${encodeURIComponent(TOKEN)}?access_token=${encodeURIComponent(TOKEN)}&b=${Buffer.from(TOKEN).toString('base64')}`,
      );
      await call(rec.baseUrl, '/offers', {
        method: 'POST',
        body: {
          offer: { references: [TOKEN, encodeURIComponent(ODD_TOKEN), Buffer.from(ODD_TOKEN).toString('base64')] },
          [TOKEN]: 1,
        },
      });
      await call(rec.baseUrl, '/offers/x', {
        headers: { cookie: `session=${TOKEN}`, 'x-api-key': TOKEN, accept: `application/json; t=${TOKEN}` },
      });
      await rec.close();
      const text = readFileSync(cassette, 'utf8');
      for (const form of [...allForms(TOKEN), ...allForms(ODD_TOKEN)])
        assert.equal(text.includes(form), false, `a form of a secret is in the cassette: ${form.length} chars`);
      const c = readCassette(cassette);
      assert.equal(c.exchanges.length, 4, 'every exchange was still written, redacted');
      assert.equal(c.exchanges[0]!.request.headers.authorization, 'Bearer [REDACTED]');
      assert.deepEqual(c.exchanges[0]!.response.body?.value, {
        token: '[REDACTED]',
        url: '[REDACTED]',
        b64: '[REDACTED]',
        note: 'Bearer [REDACTED]',
      });
      const headers = c.exchanges[3]!.request.headers;
      assert.equal(headers.cookie, '[REDACTED]');
      assert.equal(headers['x-api-key'], undefined, 'headers off the allow-list are dropped');
      assert.equal(headers.accept, 'application/json; t=[REDACTED]');
      assert.equal(c.exchanges[0]!.response.headers['x-secret-internal'], undefined);
      assert.deepEqual(scanCassette(cassette, { FLIS_TOKEN: TOKEN, MY_EXTRA: ODD_TOKEN }, ['MY_EXTRA']), []);
    } finally {
      await up.close();
      tmp.cleanup();
    }
  });

  it('redacts a bearer token the client sends even when the environment does not know it', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    try {
      const cassette = tmp.file('unknown.yaml');
      const rec = await startRecorder({
        mode: 'record',
        cassette,
        upstream: { baseUrl: up.baseUrl, deployment: null },
        env: {},
      });
      await call(rec.baseUrl, '/echo-token');
      await rec.close();
      const text = readFileSync(cassette, 'utf8');
      for (const form of allForms(TOKEN)) assert.equal(text.includes(form), false);
      assert.equal(readCassette(cassette).exchanges.length, 1);
    } finally {
      await up.close();
      tmp.cleanup();
    }
  });

  it('a replay miss answer never echoes a token of the environment', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    try {
      const cassette = tmp.file('miss.yaml');
      const rec = await startRecorder({
        mode: 'record',
        cassette,
        upstream: { baseUrl: up.baseUrl, deployment: null },
        env: { FLIS_TOKEN: TOKEN },
      });
      await call(rec.baseUrl, '/offers/x');
      await rec.close();
      const logged: string[] = [];
      const replay = await startReplayServer({ cassette, env: { FLIS_TOKEN: TOKEN }, log: (l) => logged.push(l) });
      const miss = await call(replay.baseUrl, `/offers/x?access_token=${TOKEN}`, {
        token: null,
        method: 'POST',
        body: { secret: TOKEN },
      });
      await replay.close();
      assert.equal(miss.status, 501);
      assert.equal(miss.text.includes(TOKEN), false);
      assert.match(miss.text, /\[REDACTED\]/);
      assert.equal(logged.join('\n').includes(TOKEN), false);
      assert.ok(logged.length > 0);
    } finally {
      await up.close();
      tmp.cleanup();
    }
  });

  it("the writer's last guard refuses an exchange in which a secret survived, naming only its source", () => {
    const tmp = tempDir();
    try {
      const w = new CassetteWriter(tmp.file('guard.yaml'), { mode: 'truncate', header: cassetteHeader(null, null) });
      const guard = formsOf([{ label: 'FLIS_TOKEN', value: TOKEN }]);
      const exchange = {
        startedAt: '',
        operationId: null,
        violations: [],
        request: { method: 'GET', path: '/x', query: {}, headers: {}, body: null },
        response: {
          status: 200,
          headers: {},
          body: {
            encoding: 'text' as const,
            value: `hidden ${Buffer.from(TOKEN).toString('base64')}`,
            size: 1,
            truncated: false,
          },
          timing: { durationMs: 0, firstByteMs: 0 },
        },
      };
      assert.throws(
        () => w.append(exchange, guard),
        (e: NodeJS.ErrnoException) =>
          e.code === 'FLIS_ERR_CASSETTE_SECRET' &&
          /FLIS_TOKEN \(base64 form\)/.test(e.message) &&
          !e.message.includes(TOKEN),
      );
      w.close();
      assert.equal(readCassette(tmp.file('guard.yaml')).exchanges.length, 0, 'nothing was written');
    } finally {
      tmp.cleanup();
    }
  });

  it('scan finds environment secrets in any form and token shapes, by line, never printing them', () => {
    const tmp = tempDir();
    try {
      const file = tmp.file('leaky.yaml');
      const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
      const text =
        headerDocument(cassetteHeader(null, null)) +
        exchangeDocument({
          seq: 1,
          startedAt: new Date(0).toISOString(),
          operationId: null,
          request: {
            method: 'GET',
            path: `/offers/${encodeURIComponent(ODD_TOKEN)}`,
            query: { auth: 'Bearer abcdefghijklmnop1234' },
            headers: { 'x-jwt': jwt, authorization: 'Bearer [REDACTED]' },
            body: null,
          },
          response: { status: 200, headers: {}, body: null, timing: { durationMs: 1, firstByteMs: 1 } },
          violations: [],
        });
      writeFileSync(file, text);
      const lineOf = (needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
      const findings = scanCassette(file, { MY_EXTRA: ODD_TOKEN }, ['MY_EXTRA']);
      assert.deepEqual(
        findings.map((f) => f.line),
        [lineOf('/offers/'), lineOf('abcdefghijklmnop1234'), lineOf(jwt)].sort((a, b) => a - b),
      );
      const by = (line: number) => findings.find((f) => f.line === line)!.what;
      assert.match(by(lineOf('/offers/')), /MY_EXTRA \(percent-encoded form\)/);
      assert.match(by(lineOf('abcdefghijklmnop1234')), /bearer token/);
      assert.match(by(lineOf(jwt)), /JWT/);
      for (const f of findings) assert.equal(f.what.includes(ODD_TOKEN) || f.what.includes(jwt), false);
    } finally {
      tmp.cleanup();
    }
  });
});
