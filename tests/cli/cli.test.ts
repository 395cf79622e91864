import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const SECRET = 'tok-do-not-print-4f1c9';

function flis(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/flis.js'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('flis --help lists the commands and exits 0; no command exits 2 with the same help', () => {
  const r = flis(['--help']);
  assert.equal(r.code, 0);
  assert.match(r.out, /Commands:[\s\S]*\brun\b[\s\S]*\bmock\b/);
  assert.equal(flis([]).code, 2);
});

test('every command has --help, exiting 0', () => {
  const list = flis(['--help']).out.split('Commands:')[1]!.split('\n\n')[0]!;
  const names = [...list.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]!);
  assert.ok(names.length >= 2);
  for (const name of names) {
    const r = flis([name, '--help']);
    assert.equal(r.code, 0, name);
    assert.match(r.out, new RegExp(`Usage: flis ${name}`), name);
  }
});

test('an unknown command or flag is a usage error (exit 2) that says where to look', () => {
  const cmd = flis(['frobnicate']);
  assert.equal(cmd.code, 2);
  assert.match(cmd.err, /unknown command 'frobnicate'.*run/);
  const flag = flis(['run', '--frob']);
  assert.equal(flag.code, 2);
  assert.match(flag.err, /--frob.*flis run --help/);
});

test('a usage error names its command once, never twice', () => {
  for (const name of ['run', 'certify', 'merge', 'diff', 'record', 'cassette']) {
    const r = flis([name, '--bogus']);
    assert.equal(r.code, 2, name);
    assert.match(r.err, new RegExp(`^flis ${name}: Unknown option '--bogus'`), name);
    assert.doesNotMatch(r.err, /flis \w+: flis /, name);
  }
  for (const args of [['record'], ['merge'], ['certify'], ['diff']]) {
    const r = flis(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.doesNotMatch(r.err, /flis \w+: flis \w+ /, args.join(' '));
  }
});

test('closed sets answer with the allowed values (exit 2)', () => {
  const suite = flis(['run', '--suite', 'nope']);
  assert.equal(suite.code, 2);
  assert.match(suite.err, /--suite must be one of .*'contract'.*got 'nope'/);
  const progress = flis(['run', '--progress', 'loud']);
  assert.equal(progress.code, 2);
  assert.match(progress.err, /'list', 'dot', 'none'/);
  const fault = flis(['run', '--mock-fault', 'nope']);
  assert.equal(fault.code, 2);
  assert.match(fault.err, /--mock-fault: no such name 'nope' \(\d+ names: see 'flis mock --help'\)/);
});

test('a mistyped fault name is answered with the closest one, not all of them', () => {
  for (const args of [
    ['run', '--mock-fault', 'offer-quantity-as-strng'],
    ['mock', '--fault', 'offer-quantity-as-strng'],
  ]) {
    const r = flis(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.err, /did you mean 'offer-quantity-as-string'\?/, r.err);
    assert.ok(r.err.split(', ').length < 5, `not every fault name: ${r.err}`);
  }
});

test('configuration errors exit 2, say what to set, and never print the token', () => {
  const noToken = flis(['run', '--base-url', 'http://127.0.0.1:9/apis/v0']);
  assert.equal(noToken.code, 2);
  assert.match(noToken.err, /FLIS_TOKEN/);
  const badUrl = flis(['run', '--base-url', `http://127.0.0.1:9/${SECRET}`], { FLIS_TOKEN: SECRET });
  assert.equal(badUrl.code, 2);
  assert.match(badUrl.err, /\/apis\/v0/);
  assert.ok(
    !badUrl.err.includes(SECRET) && !badUrl.out.includes(SECRET),
    'the token is redacted from every line flis prints',
  );
  const unknown = flis(['run', '--deployment', 'nowhere']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /unknown deployment 'nowhere'; known: embedded, mock, sandbox/);
  const sandbox = flis(['run', '--deployment', 'sandbox']);
  assert.equal(sandbox.code, 2);
  assert.match(sandbox.err, /FLIS_SANDBOX_BASE_URL/);
});

test('mock-only flags against another deployment are a usage error', () => {
  const r = flis(['run', '--base-url', 'http://127.0.0.1:9/apis/v0', '--mock-fault', 'route-missing'], {
    FLIS_TOKEN: 't',
  });
  assert.equal(r.code, 2);
  assert.match(r.err, /only to the embedded mock/);
});

test('flis mock on a port already in use is a usage error naming the port', async () => {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  try {
    const r = flis(['mock', '--port', String(port)]);
    assert.equal(r.code, 2);
    assert.match(r.err, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
  } finally {
    server.close();
  }
});
