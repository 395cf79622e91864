/**
 * An unreachable target is a configuration error (issue 8 item 6): exit 2 within 10 s, naming the URL and
 * what failed, and no certificate written.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { describeNetworkError } from '../../runner/probe-target.ts';
import { startFlis } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'flis-unreachable-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A loopback port nobody listens on: bound, noted, released. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', () => done()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((done) => s.close(() => done()));
  return port;
}

test('a closed port exits 2 naming the URL and "connection refused", and writes no certificate', async () => {
  const url = `http://127.0.0.1:${await closedPort()}/apis/v0`;
  const run = startFlis(['run', '--base-url', url, '--report-dir', dir, '--progress', 'none'], {
    FLIS_TOKEN: 'unreachable-token-x1',
  });
  const code = await run.exited;
  assert.equal(code, 2, run.out());
  assert.match(run.out(), new RegExp(`target ${url.replaceAll('.', '\\.')} is unreachable: connection refused`));
  assert.doesNotMatch(run.out(), /at .*\.ts:\d+/, 'no stack trace');
  assert.equal(existsSync(join(dir, 'certificate.json')), false);
  assert.equal(existsSync(join(dir, 'results.json')), false);
});

test('DNS, TLS and timeouts are named as such', () => {
  const cause = (code: string, message = code) =>
    Object.assign(new TypeError('fetch failed'), { cause: { code, message } });
  assert.match(
    describeNetworkError(cause('ENOTFOUND', 'getaddrinfo ENOTFOUND nope.invalid'), 8000),
    /^DNS lookup failed/,
  );
  assert.match(describeNetworkError(cause('CERT_HAS_EXPIRED'), 8000), /^TLS handshake failed/);
  assert.match(describeNetworkError(cause('DEPTH_ZERO_SELF_SIGNED_CERT'), 8000), /^TLS handshake failed/);
  assert.match(describeNetworkError(Object.assign(new Error('t'), { name: 'TimeoutError' }), 8000), /8 s \(timeout\)/);
});
