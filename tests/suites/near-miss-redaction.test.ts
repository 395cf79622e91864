/**
 * The auth probes send near misses of the real token (one character changed, the last dropped, one added, the case
 * swapped): each gives away all of the token but one character, so each is as secret as the token. A run of the
 * contract suite against a real loopback server that echoes every header and body back must leave no form of the
 * token, nor of any token derived from it, in any file of its report folder or in its output: every encoding the
 * redactor covers (errors/secret-forms.ts) is searched for, in each file's text and in its bytes.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { SecretForms } from '../../errors/secret-forms.ts';
import { nearMissTokens } from '../../core/near-miss-tokens.ts';
import { redactText, secretsWithDerived } from '../../core/redact.ts';
import { filesUnder } from '../reporting/helpers.ts';
import { startFlis } from '../runner/helpers.ts';

const TOKEN = 'echoTok-Rv7kLq2mZx9NpW4s';
const dir = mkdtempSync(join(tmpdir(), 'flis-near-miss-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Answers every request 200 with a JSON echo of its method, URL, headers and body: whatever it was sent comes back. */
async function startEcho(): Promise<{ baseUrl: string; seenTokens: Set<string>; close(): Promise<void> }> {
  const seenTokens = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const auth = req.headers.authorization;
      if (auth) seenTokens.add(auth.replace(/^Bearer /i, ''));
      const body = JSON.stringify({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        authorizationBase64: auth ? Buffer.from(auth).toString('base64') : null,
      });
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo-authorization': auth ?? '' });
      res.end(body);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/apis/v0`,
    seenTokens,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

describe('near-miss tokens are redacted like the token', () => {
  it('derives the near misses the auth probes send, and redacts each in every form', () => {
    const derived = secretsWithDerived([TOKEN]);
    for (const near of nearMissTokens(TOKEN)) assert.ok(derived.includes(near.token), near.label);
    for (const near of nearMissTokens(TOKEN)) {
      const b64 = Buffer.from(`Bearer ${near.token}`).toString('base64');
      const out = redactText(`sent ${near.token} and ${b64} and ${encodeURIComponent(near.token)}`, derived);
      assert.equal(
        new SecretForms([{ label: near.label, value: near.token }]).find(out),
        undefined,
        `${near.label}: ${out}`,
      );
    }
  });

  it('derives nothing unasked: a run is issued a new token every few seconds, and nobody sends near misses of those', () => {
    const near = nearMissTokens(TOKEN)[0]!.token;
    assert.match(
      redactText(`sent ${near}`, [TOKEN]),
      new RegExp(near),
      'redactText([token]) derived near misses itself',
    );
  });

  it('leaves no form of the token or of a near miss in any artifact of a run against an echoing server', async () => {
    const echo = await startEcho();
    let output = '';
    try {
      const run = startFlis(
        ['run', '--base-url', echo.baseUrl, '--suite', 'contract', '--report-dir', dir, '--runs', '1'],
        {
          FLIS_TOKEN: TOKEN,
        },
      );
      await run.exited;
      output = run.out();
    } finally {
      await echo.close();
    }
    const nearMisses = nearMissTokens(TOKEN);
    // The premise: the probes really sent the near misses, and the server really echoed them.
    for (const near of nearMisses)
      assert.ok(echo.seenTokens.has(near.token), `the run never sent the near miss "${near.label}":\n${output}`);
    const secrets = [TOKEN, ...nearMisses.map((n) => n.token)];
    const forms = new SecretForms(
      secrets.map((value, i) => ({ label: i === 0 ? 'the token' : nearMisses[i - 1]!.label, value })),
    );
    const files = filesUnder(dir);
    assert.ok(
      files.some((f) => /observations\/worker-.*\.json$/.test(f)),
      `the run wrote observations: ${files.join(', ')}`,
    );
    const leaks: string[] = [];
    for (const file of files) {
      const bytes = readFileSync(file);
      const hit = forms.find(bytes.toString('utf8')) ?? forms.findInBytes(bytes);
      if (hit) leaks.push(`${relative(dir, file)}: ${hit.label} (${hit.form}) at ${hit.index}`);
    }
    const inOutput = forms.find(output);
    if (inOutput) leaks.push(`the run's output: ${inOutput.label} (${inOutput.form})`);
    assert.deepEqual(leaks, [], 'a form of the token or of a near miss of it was written');
  });
});
