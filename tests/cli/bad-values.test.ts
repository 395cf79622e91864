/**
 * Bad values are refused before anything starts: exit 2, one line on stderr naming what to fix (the flag, or the
 * environment variable when that is where the value came from), no stack trace, and the user's files
 * byte-identical (tests/cli/bad-input-harness.ts). A bad setting must never become a verdict on the server: a
 * duration past what Node's timers hold made every request fail and the conformant mock NOT-CERTIFIED.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { listenError } from '../../errors/listen-error.ts';
import { UsageError } from '../../errors/flis-error.ts';
import { type BadInputRow, runBadInputTable, type Sandbox, UNPRIVILEGED_SKIP } from './bad-input-harness.ts';

/** An empty cassette as `flis record` writes one: a header document and nothing else. */
const EMPTY_CASSETTE = `---
format: 1
kind: flis-cassette
recordedAt: "2026-01-01T00:00:00.000Z"
deployment: null
upstream: null
specVersion: "1.0.0"
tool:
  name: flis-conformance
  version: "0.1.0"
...
`;

/** Past Node's timer limit of 2^31-1 ms (about 596.5 hours). */
const PAST_TIMER_LIMIT = '597h';

/** A row whose args name the cassette `text` in the sandbox, written before the sandbox is snapshotted. */
function withCassette(text: string, args: (file: string) => string[]): Pick<BadInputRow, 'setup' | 'args'> {
  return { setup: (sb) => void sb.write('c.yaml', text), args: (sb: Sandbox) => args(sb.path('c.yaml')) };
}

/** Why binding port 80 unprivileged proves nothing here (Linux opens low ports to all when this is 80 or less). */
function lowPortsOpen(): string | false {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8'));
    return start <= 80 ? `every user may bind port 80 here (ip_unprivileged_port_start ${start})` : false;
  } catch {
    return false;
  }
}

const rows: BadInputRow[] = [
  // Durations are bounded (at most 24h), whether from a flag or from the environment.
  {
    name: 'request timeout of 9999h',
    args: ['run', '--request-timeout', '9999h'],
    stderr: /--request-timeout .*24h.*'9999h'/,
  },
  {
    name: "request timeout past setTimeout's 2^31-1 ms",
    args: ['run', '--request-timeout', PAST_TIMER_LIMIT],
    stderr: /--request-timeout .*24h/,
  },
  { name: 'request timeout of 25h', args: ['run', '--request-timeout', '25h'], stderr: /--request-timeout/ },
  {
    name: 'check timeout past the timer limit',
    args: ['run', '--check-timeout', PAST_TIMER_LIMIT],
    stderr: /--check-timeout/,
  },
  {
    name: 'throttle wait past the timer limit',
    args: ['certify', '--partner', 'acme', '--max-throttle-wait', '9999h'],
    stderr: /--max-throttle-wait/,
  },
  {
    name: 'FLIS_REQUEST_TIMEOUT of 9999h names the variable',
    args: ['run'],
    env: { FLIS_REQUEST_TIMEOUT: '9999h' },
    stderr: /^flis run: FLIS_REQUEST_TIMEOUT must be a duration/,
  },
  // The mock mints and serves a token: it binds loopback only, and an address it cannot have is one line.
  {
    name: 'mock on every interface',
    args: ['mock', '--host', '0.0.0.0'],
    stderr: /--host must be a loopback address.*'0\.0\.0\.0'/,
  },
  {
    name: 'mock on an address not of this machine',
    args: ['mock', '--host', '8.8.8.8'],
    stderr: /--host .*'8\.8\.8\.8'/,
  },
  { name: 'mock on the IPv6 wildcard', args: ['mock', '--host', '::'], stderr: /--host must be a loopback address/ },
  // An unrecognised boolean or number in the environment names the variable, never a flag the user did not give.
  {
    name: 'FLIS_ALLOW_WRITES=maybe',
    args: ['run'],
    env: { FLIS_ALLOW_WRITES: 'maybe' },
    stderr: /^flis run: FLIS_ALLOW_WRITES must be .*'maybe'/,
  },
  {
    name: 'FLIS_STRICT=yes-please',
    args: ['run'],
    env: { FLIS_STRICT: 'yes-please' },
    stderr: /^flis run: FLIS_STRICT must be .*'yes-please'/,
  },
  {
    name: 'FLIS_STRICT=yes-please on merge',
    setup: (sb) => void sb.mkdir('shard-1'),
    args: ['merge', 'shard-1', '--report-dir', 'merged'],
    env: { FLIS_STRICT: 'yes-please' },
    stderr: /FLIS_STRICT must be/,
  },
  {
    name: 'FLIS_CONCURRENCY=-1',
    args: ['run'],
    env: { FLIS_CONCURRENCY: '-1' },
    stderr: /^flis run: FLIS_CONCURRENCY must be a whole number from 1 to 64; got '-1'/,
  },
  {
    name: 'FLIS_SEED=abc',
    args: ['run'],
    env: { FLIS_SEED: 'abc' },
    stderr: /^flis run: FLIS_SEED must be a whole number/,
  },
  {
    name: 'FLIS_RUNS=0',
    args: ['certify', '--partner', 'acme', '--deployment', 'embedded'],
    env: { FLIS_RUNS: '0' },
    stderr: /FLIS_RUNS must be/,
  },
  {
    name: 'FLIS_SUITES=nope',
    args: ['run'],
    env: { FLIS_SUITES: 'nope' },
    stderr: /^flis run: FLIS_SUITES must be one of/,
  },
  {
    name: 'FLIS_MAX_RPS=fast',
    args: ['run'],
    env: { FLIS_MAX_RPS: 'fast' },
    stderr: /^flis run: FLIS_MAX_RPS must be/,
  },
  // certify reads its cassettes before any test runs: a broken one costs seconds, not the whole run.
  {
    name: 'certify with a broken cassette',
    ...withCassette(`${EMPTY_CASSETTE}---\nseq: "one"\nrequest: 5\n...\n`, (file) => [
      'certify',
      '--partner',
      'acme',
      '--deployment',
      'embedded',
      '--cassette',
      file,
    ]),
    stderr: /c\.yaml:13: expected response/,
    timeoutMs: 30_000,
  },
  // Small ones.
  {
    name: 'a cassette starting with a byte order mark',
    ...withCassette(`\uFEFF${EMPTY_CASSETTE}`, (file) => ['cassette', 'lint', file]),
    stderr: /c\.yaml:1: .*byte order mark \(U\+FEFF\)/,
  },
  {
    name: 'a base URL with a query',
    args: ['run', '--base-url', 'http://127.0.0.1:9/apis/v0?x=1'],
    env: { FLIS_TOKEN: 'bad-values-token-Qx81' },
    stderr: /must not carry a query or fragment.*did you mean 'http:\/\/127\.0\.0\.1:9\/apis\/v0'\?/,
  },
  {
    name: 'a base URL with a query and no version prefix',
    args: ['run', '--base-url', 'http://127.0.0.1:9/x?y=1'],
    env: { FLIS_TOKEN: 'bad-values-token-Qx81' },
    stderr: /did you mean 'http:\/\/127\.0\.0\.1:9\/x\/apis\/v0'\?/,
  },
  {
    // Without the privilege to bind a low port (root's capabilities dropped), the error says so, not "not free".
    name: 'show-report on a privileged port',
    setup: (sb) => void sb.write('reports/html/index.html', '<html></html>'),
    args: ['show-report', '--port', '80'],
    unprivileged: true,
    skip: UNPRIVILEGED_SKIP || lowPortsOpen(),
    stderr: /port 80 on 127\.0\.0\.1 needs privileges/,
  },
  {
    name: 'an unknown cassette subcommand says its prefix once',
    args: ['cassette', 'nope'],
    stderr: /^flis cassette: (?!flis cassette:)the subcommand must be one of .*'nope'/,
  },
  {
    name: 'cassette scan for an unset variable',
    ...withCassette(EMPTY_CASSETTE, (file) => ['cassette', 'scan', '--secret-env', 'FLIS_BAD_VALUES_UNSET', file]),
    stderr: /--secret-env FLIS_BAD_VALUES_UNSET: not set/,
  },
];

runBadInputTable('bad values exit 2 in one line and change nothing', rows, { concurrency: 2 });

describe('a server that cannot listen says why, by the error code', () => {
  const errno = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

  it('a privileged port is "needs privileges", never "not free" (EACCES is what an unprivileged user gets)', () => {
    const e = listenError(errno('EACCES'), '127.0.0.1', 80);
    assert.ok(e instanceof UsageError);
    assert.match(e.message, /port 80 on 127\.0\.0\.1 needs privileges .*--port above 1023/);
    assert.doesNotMatch(e.message, /in use|not free/);
  });

  it('a port in use and an address not of this machine are named as such', () => {
    assert.match((listenError(errno('EADDRINUSE'), '127.0.0.1', 9323) as Error).message, /already in use/);
    assert.match(
      (listenError(errno('EADDRNOTAVAIL'), '8.8.8.8', 0) as Error).message,
      /8\.8\.8\.8 is not an address of this machine/,
    );
  });

  it('any other error is passed on as it came', () => {
    const other = errno('EMFILE');
    assert.equal(listenError(other, '127.0.0.1', 0), other);
  });
});
