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
import {
  type BadInputRow,
  type FlisResult,
  runBadInputTable,
  type Sandbox,
  UNPRIVILEGED_SKIP,
} from './bad-input-harness.ts';

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

/**
 * Values that mean nothing: Number() took '1e3', '0x10', ' 42 ' and 99999999999999999999 (rounded), and an empty
 * list item named nothing. Every whole number a user gives goes through one parser (cli/args.ts wholeNumber).
 */
const meaningless: BadInputRow[] = [
  ...(['1e3', '0x10', ' 42 ', '', '99999999999999999999'] as const).map(
    (seed): BadInputRow => ({
      name: `run --seed ${JSON.stringify(seed)}`,
      args: ['run', `--seed=${seed}`],
      stderr: /^flis run: --seed must be a whole number from 0 to 2147483647; got '/,
    }),
  ),
  { name: 'FLIS_SEED=0x10', args: ['run'], env: { FLIS_SEED: '0x10' }, stderr: /^flis run: FLIS_SEED must be a whole/ },
  {
    name: 'certify --runs 1e2',
    args: ['certify', '--partner', 'acme', '--deployment', 'embedded', '--runs', '1e2'],
    stderr: /--runs must be a whole number/,
  },
  {
    name: "run --suite ''",
    args: ['run', '--suite', ''],
    stderr: /^flis run: --suite takes names .* none of them empty/,
  },
  {
    name: 'run --suite contract,,offers',
    args: ['run', '--suite', 'contract,,offers'],
    stderr: /--suite takes names separated by commas, none of them empty; got 'contract,,offers'/,
  },
  { name: 'run --suite contract,', args: ['run', '--suite', 'contract,'], stderr: /none of them empty/ },
  { name: 'FLIS_SUITES=,', args: ['run'], env: { FLIS_SUITES: ',' }, stderr: /^flis run: FLIS_SUITES takes names/ },
  { name: "run --base-url ''", args: ['run', '--base-url', ''], stderr: /^flis run: --base-url is empty/ },
  { name: "run --mock-variant ''", args: ['run', '--mock-variant', ''], stderr: /--mock-variant must be one of/ },
  ...(['bad\nid', 'bad\x1b[2Jid', 'x/../y'] as const).map(
    (id): BadInputRow => ({
      name: `FLIS_RUN_ID=${JSON.stringify(id)}`,
      args: ['run'],
      env: { FLIS_RUN_ID: id },
      stderr: /^flis run: FLIS_RUN_ID must be 1 to 64 letters, digits/,
    }),
  ),
  {
    name: 'certify FLIS_RUN_ID with a line break',
    args: ['certify', '--partner', 'acme', '--deployment', 'embedded'],
    env: { FLIS_RUN_ID: 'ci\nrun' },
    stderr: /FLIS_RUN_ID must be/,
  },
  ...(['1/99999999999999999999', '1/1e3', ' 1/2'] as const).map(
    (shard): BadInputRow => ({
      name: `regress --shard ${shard}`,
      setup: (sb) => void sb.write('partners/acme.yaml', EMPTY_CASSETTE),
      args: (sb) => ['regress', '--cassettes', 'partners', '--shard', shard, '--base-url', sb.trap.baseUrl],
      env: (sb) => ({ FLIS_TOKEN: sb.trap.token }),
      stderr: /^flis regress: --shard must be I\/N with 1 <= I <= N <= 1000/,
    }),
  ),
  { name: 'run --shard 1/99999999999999999999', args: ['run', '--shard', '1/99999999999999999999'], stderr: /--shard/ },
  {
    name: 'regress --visibility-timeout 1e4',
    setup: (sb) => void sb.write('partners/acme.yaml', EMPTY_CASSETTE),
    args: ['regress', '--cassettes', 'partners', '--visibility-timeout', '1e4'],
    stderr: /--visibility-timeout must be a whole number/,
  },
  {
    name: "contract diff --cassettes '' (no partner would be judged)",
    args: ['contract', 'diff', 'a.yaml', 'b.yaml', '--cassettes', ''],
    stderr: /^flis contract: --cassettes is empty/,
  },
  {
    name: "regress --base-url ''",
    args: ['regress', '--cassettes', 'p', '--base-url', ''],
    stderr: /--base-url is empty/,
  },
  { name: 'mock --port 0x10', args: ['mock', '--port', '0x10'], stderr: /^flis mock: --port must be a whole number/ },
  { name: 'mock --write-delay 1e3', args: ['mock', '--write-delay', '1e3'], stderr: /--write-delay must be a whole/ },
  {
    name: 'mock --fault a,,b',
    args: ['mock', '--fault', 'offer-quantity-as-string,,x'],
    stderr: /--fault takes names/,
  },
  { name: "mock --variant ''", args: ['mock', '--variant', ''], stderr: /--variant must be one of/ },
  {
    name: "replay --port ' 80'",
    ...withCassette(EMPTY_CASSETTE, (file) => ['replay', '--cassette', file, '--port', ' 80']),
    stderr: /^flis replay: --port must be a whole number from 0 to 65535; got ' 80'/,
  },
  {
    name: 'webhooks listen --port 1e3',
    args: ['webhooks', 'listen', '--port', '1e3'],
    stderr: /--port must be a whole/,
  },
  { name: "run --min-coverage ''", args: ['run', '--min-coverage', ''], stderr: /--min-coverage must be a percentage/ },
  { name: 'run --min-coverage 1e1', args: ['run', '--min-coverage', '1e1'], stderr: /--min-coverage must be/ },
  { name: "run --max-rps ' 5'", args: ['run', '--max-rps', ' 5'], stderr: /--max-rps must be a whole number from 1/ },
  {
    name: 'FLIS_MAX_IN_FLIGHT=0x10',
    args: ['run'],
    env: { FLIS_MAX_IN_FLIGHT: '0x10' },
    stderr: /^flis run: FLIS_MAX_IN_FLIGHT must be a whole number/,
  },
  { name: "run --request-timeout ' 30s'", args: ['run', '--request-timeout', ' 30s'], stderr: /--request-timeout/ },
];

/**
 * A token that cannot go in an Authorization header stalled a run (no check finished in 180 s): it is refused before
 * anything is sent, wherever it came from, in one line that never shows it. The target is the row's trap, which
 * must see no request at all.
 */
const TOKEN_SECRET = 'tok-Qx81-secret';
const refusedBeforeSending = (r: FlisResult, sb: Sandbox) => {
  assert.deepEqual(sb.trap.requests, [], 'a request was sent with the bad token');
  assert.ok(!r.stderr.includes(TOKEN_SECRET) && !r.stdout.includes(TOKEN_SECRET), 'the token was printed');
};
const badTokens: BadInputRow[] = [
  ...(
    [
      ['a line break', `${TOKEN_SECRET}\nX`],
      ['a carriage return', `${TOKEN_SECRET}\r`],
      ['a trailing space', `${TOKEN_SECRET} `],
      ['an escape character', `${TOKEN_SECRET}\x1b`],
      ['a character outside ASCII', `${TOKEN_SECRET}é`],
    ] as const
  ).map(
    ([what, token]): BadInputRow => ({
      name: `run with FLIS_TOKEN holding ${what}`,
      args: (sb) => ['run', '--suite', 'contract', '--base-url', sb.trap.baseUrl],
      env: { FLIS_TOKEN: token },
      stderr: /^flis run: FLIS_TOKEN holds .*, which cannot go in an Authorization header/,
      also: refusedBeforeSending,
    }),
  ),
  {
    name: "regress with the sandbox's own token variable holding a line break (as $(cat file) reads one)",
    setup: (sb) => void sb.write('partners/acme.yaml', EMPTY_CASSETTE),
    args: ['regress', '--cassettes', 'partners', '--deployment', 'sandbox', '--report-dir', 'out'],
    env: (sb) => ({ FLIS_SANDBOX_BASE_URL: sb.trap.baseUrl, FLIS_SANDBOX_TOKEN: `${TOKEN_SECRET}\nline2` }),
    stderr: /^flis regress: FLIS_SANDBOX_TOKEN holds a line break/,
    also: refusedBeforeSending,
  },
  {
    name: 'run --token-command printing JSON whose access_token holds a line break',
    setup: (sb) =>
      void sb.write('token.js', `process.stdout.write(JSON.stringify({ access_token: '${TOKEN_SECRET}\\nX' }));`),
    args: (sb) => [
      'run',
      '--suite',
      'contract',
      '--base-url',
      sb.trap.baseUrl,
      '--token-command',
      `'${process.execPath}' '${sb.path('token.js')}'`,
    ],
    stderr: /^flis run: the token --token-command gave holds a line break/,
    also: refusedBeforeSending,
  },
  {
    name: 'mock with FLIS_MOCK_TOKEN holding a line break',
    args: ['mock'],
    env: { FLIS_MOCK_TOKEN: `${TOKEN_SECRET}\nX` },
    stderr: /^flis mock: FLIS_MOCK_TOKEN holds a line break/,
  },
];

runBadInputTable('bad values exit 2 in one line and change nothing', rows, { concurrency: 2 });
runBadInputTable('values that mean nothing exit 2 in one line', meaningless, { concurrency: 2 });
runBadInputTable('a token that cannot go in a header is refused before anything is sent', badTokens, {
  concurrency: 2,
});

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
