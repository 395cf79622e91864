/**
 * Bad paths, command by command: a file where a folder belongs, a path through a file, a read-only parent, an
 * empty path, a folder or file of the user's that flis would clear or overwrite, and files that are not what
 * they claim (a truncated certificate, a corrupt blob zip, a malformed history line, a HAR entry that is not a
 * URL). Each row: exit 2, one line on stderr, no stack trace, and every file of the sandbox byte-identical.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeAllureResults } from '../reporting/allure-fixtures.ts';
import { zipOf } from '../reporting/zip-fixtures.ts';
import {
  type BadInputRow,
  type FlisResult,
  runBadInputTable,
  type Sandbox,
  UNPRIVILEGED_SKIP,
} from './bad-input-harness.ts';

const BUNDLED = join(import.meta.dirname, '..', '..', 'specs', 'openapi.bundled.yaml');

/** The header document of an empty cassette, as flis writes it. */
const CASSETTE = `---
format: 1
kind: flis-cassette
recordedAt: "2026-01-01T00:00:00.000Z"
deployment: null
upstream: "http://127.0.0.1:1/apis/v0"
specVersion: "1.0.0"
tool:
  name: flis-conformance
  version: "0.1.0"
...
`;

/** What a user keeps in the folders they name: their own work, which no bad path may touch. */
function usersFiles(sb: Sandbox): void {
  sb.write('notes.txt', 'my notes\n');
  sb.write('mydocs/thesis.txt', 'chapter 1\n');
  sb.write('blob/precious.txt', 'precious\n');
  sb.write('observations/notes.txt', 'field notes\n');
  sb.write('results.json', '{"mine":true}\n');
}

/** A report folder as `flis run` leaves none: nothing but a user's file beside flis's names. */
function twoCassettes(sb: Sandbox): void {
  usersFiles(sb);
  sb.write('a.yaml', CASSETTE);
  sb.write('b.yaml', CASSETTE);
}

function allureResults(sb: Sandbox): void {
  usersFiles(sb);
  writeAllureResults(sb.path('R', 'allure-results'));
}

/** A shard's folder as 'flis run --shard' leaves it, with `zip` as its blob report. */
function shard(sb: Sandbox, name: string, certificate: string, zip: Buffer): void {
  sb.write(`${name}/certificate.json`, certificate);
  sb.write(`${name}/blob/report-1-of-1.zip`, zip);
}

const CERTIFICATE = JSON.stringify({
  subject: { deployment: 'embedded', baseUrl: 'http://127.0.0.1:1/apis/v0' },
  run: { seed: 1, runId: 'flis-20260101-000000-abcd', suites: 'all', allowWrites: true, shard: '1/1' },
  verdict: { status: 'certified' },
});

const REPORT_LINE = 'report.jsonl';
const WHOLE_ZIP = zipOf(REPORT_LINE, Buffer.from('{"method":"onBlobReportMetadata"}\n'));

/** `flis run` must refuse before the target starts: its opening line names the target once it is reached. */
const nothingStarted = (r: { stdout: string }) =>
  assert.doesNotMatch(r.stdout, /flis run: .* at http/, 'the target was started before the bad path was found');

const run: BadInputRow[] = [
  {
    name: 'run --report-dir "" (the current folder, holding the user\'s blob/, observations/, results.json)',
    setup: usersFiles,
    args: ['run', '--report-dir', ''],
    stderr: /--report-dir is empty/,
  },
  { name: 'run --report-dir of blanks', setup: usersFiles, args: ['run', '--report-dir', '  '], stderr: /empty/ },
  {
    name: 'FLIS_REPORT_DIR empty',
    setup: usersFiles,
    args: ['run'],
    env: { FLIS_REPORT_DIR: '' },
    stderr: /FLIS_REPORT_DIR is empty/,
  },
  {
    name: 'run --report-dir an existing file',
    setup: usersFiles,
    args: ['run', '--report-dir', 'notes.txt'],
    stderr: /notes\.txt: --report-dir names a file/,
    also: nothingStarted,
  },
  {
    name: 'FLIS_REPORT_DIR an existing file',
    setup: usersFiles,
    args: ['run'],
    env: { FLIS_REPORT_DIR: 'notes.txt' },
    stderr: /notes\.txt: FLIS_REPORT_DIR names a file/,
    also: nothingStarted,
  },
  {
    name: 'run --report-dir through a file',
    setup: usersFiles,
    args: ['run', '--report-dir', 'notes.txt/reports'],
    stderr: /notes\.txt is a file, not a folder/,
    also: nothingStarted,
  },
  {
    name: "run --report-dir the user's folder (mydocs/thesis.txt)",
    setup: usersFiles,
    args: ['run', '--report-dir', 'mydocs'],
    stderr: /mydocs: --report-dir names a folder flis did not create \(it holds thesis\.txt/,
    also: nothingStarted,
  },
  {
    name: 'run --report-dir . (the current folder, by name)',
    setup: usersFiles,
    args: ['run', '--report-dir', '.'],
    stderr: /folder flis did not create/,
    also: nothingStarted,
  },
  {
    name: 'run --report-dir under a read-only folder',
    setup: (sb) => {
      usersFiles(sb);
      sb.mkdir('ro');
      sb.readOnly('ro');
    },
    args: ['run', '--report-dir', 'ro/reports'],
    unprivileged: true,
    skip: UNPRIVILEGED_SKIP,
    stderr: /cannot be created in .*ro \(permission denied\)/,
    also: nothingStarted,
  },
  {
    name: "run --record the user's file",
    setup: usersFiles,
    args: ['run', '--record', 'notes.txt', '--report-dir', 'new-reports'],
    stderr: /notes\.txt: exists and is not a cassette flis wrote/,
    also: nothingStarted,
  },
  {
    name: 'certify --report-dir an existing file',
    setup: usersFiles,
    args: ['certify', '--partner', 'acme', '--deployment', 'embedded', '--report-dir', 'notes.txt'],
    stderr: /notes\.txt: --report-dir names a file/,
    also: (r) => assert.doesNotMatch(r.stdout, /flis certify: acme on .* at http/, 'the target was started first'),
  },
];

const merge: BadInputRow[] = [
  {
    name: 'merge --report-dir an existing file',
    setup: (sb) => {
      usersFiles(sb);
      shard(sb, 's1', CERTIFICATE, WHOLE_ZIP);
    },
    args: ['merge', 's1', '--report-dir', 'notes.txt'],
    stderr: /notes\.txt: --report-dir names a file/,
  },
  {
    name: 'merge FLIS_REPORT_DIR through a file',
    setup: (sb) => {
      usersFiles(sb);
      shard(sb, 's1', CERTIFICATE, WHOLE_ZIP);
    },
    args: ['merge', 's1'],
    env: { FLIS_REPORT_DIR: 'notes.txt/merged' },
    stderr: /notes\.txt is a file, not a folder/,
  },
  {
    name: "merge --report-dir the user's folder",
    setup: (sb) => {
      usersFiles(sb);
      shard(sb, 's1', CERTIFICATE, WHOLE_ZIP);
    },
    args: ['merge', 's1', '--report-dir', 'mydocs'],
    stderr: /mydocs: --report-dir names a folder flis did not create/,
  },
  {
    name: 'merge --report-dir under a read-only folder',
    setup: (sb) => {
      shard(sb, 's1', CERTIFICATE, WHOLE_ZIP);
      sb.mkdir('ro');
      sb.readOnly('ro');
    },
    args: ['merge', 's1', '--report-dir', 'ro/merged'],
    unprivileged: true,
    skip: UNPRIVILEGED_SKIP,
    stderr: /permission denied/,
  },
  {
    name: 'merge a shard whose certificate.json is truncated',
    setup: (sb) => shard(sb, 's1', CERTIFICATE.slice(0, 60), WHOLE_ZIP),
    args: ['merge', 's1', '--report-dir', 'merged'],
    stderr: /s1\/certificate\.json: is not a certificate flis wrote/,
  },
  {
    name: 'merge a shard whose blob zip is truncated',
    setup: (sb) => shard(sb, 's1', CERTIFICATE, WHOLE_ZIP.subarray(0, WHOLE_ZIP.length - 30)),
    args: ['merge', 's1', '--report-dir', 'merged'],
    stderr: /report-1-of-1\.zip: is not a whole zip/,
  },
  {
    name: 'merge a shard whose blob zip has a corrupt entry (its CRC-32 does not match)',
    setup: (sb) => shard(sb, 's1', CERTIFICATE, zipOf(REPORT_LINE, Buffer.from('{"method":"x"}\n'), { crc: 1234 })),
    args: ['merge', 's1', '--report-dir', 'merged'],
    stderr: /report-1-of-1\.zip: is not a whole zip/,
  },
  {
    name: 'merge a shard folder that is a file',
    setup: usersFiles,
    args: ['merge', 'notes.txt', '--report-dir', 'merged'],
    stderr: /notes\.txt: not a folder/,
  },
];

const report: BadInputRow[] = [
  {
    name: 'report --output an existing file (notes.txt)',
    setup: allureResults,
    args: ['report', '--report-dir', 'R', '--output', 'notes.txt'],
    stderr: /notes\.txt: --output names a file/,
  },
  {
    name: "report --output the user's folder (mydocs/thesis.txt)",
    setup: allureResults,
    args: ['report', '--report-dir', 'R', '--output', 'mydocs'],
    stderr: /mydocs: --output names a folder flis did not create/,
  },
  {
    name: 'report --output through a file',
    setup: allureResults,
    args: ['report', '--report-dir', 'R', '--output', 'notes.txt/report'],
    stderr: /notes\.txt is a file/,
  },
  { name: 'report --output ""', setup: allureResults, args: ['report', '--report-dir', 'R', '--output', ''] },
  {
    name: 'report --output under a read-only folder',
    setup: (sb) => {
      allureResults(sb);
      sb.mkdir('ro');
      sb.readOnly('ro');
    },
    args: ['report', '--report-dir', 'R', '--output', 'ro/report'],
    unprivileged: true,
    skip: UNPRIVILEGED_SKIP,
    stderr: /permission denied/,
  },
  {
    name: 'report --report-dir a file',
    setup: allureResults,
    args: ['report', '--report-dir', 'notes.txt'],
    stderr: /no Allure results in .*notes\.txt/,
  },
  {
    name: 'report RESULTS_DIR a file',
    setup: allureResults,
    args: ['report', 'notes.txt', 'R/allure-results', '--output', 'out'],
    stderr: /notes\.txt: is a file, not a folder of Allure results/,
  },
  {
    name: 'report --history with a malformed line',
    setup: (sb) => {
      allureResults(sb);
      sb.write('history.jsonl', '{"uuid":"a","testResults":{}}\n{"truncated\n');
    },
    args: ['report', '--report-dir', 'R', '--output', 'out', '--history', 'history.jsonl'],
    stderr: /history\.jsonl:2: is not an Allure history line/,
  },
  {
    name: "report --history the user's text file",
    setup: allureResults,
    args: ['report', '--report-dir', 'R', '--output', 'out', '--history', 'mydocs/thesis.txt'],
    stderr: /thesis\.txt:1: is not an Allure history line/,
  },
  {
    name: 'report --history a folder',
    setup: allureResults,
    args: ['report', '--report-dir', 'R', '--output', 'out', '--history', 'mydocs'],
    stderr: /mydocs: --history names a folder/,
  },
];

/** A HAR of one GET, its request and response fields overridden. */
function harOf(o: { request: object; response: object }): string {
  const entry = {
    startedDateTime: '2026-01-01T00:00:00.000Z',
    request: { method: 'GET', url: 'http://127.0.0.1:1/apis/v0/offers', headers: [], ...o.request },
    response: { status: 200, headers: [], ...o.response },
  };
  return JSON.stringify({ log: { version: '1.2', entries: [entry] } });
}

const cassette: BadInputRow[] = [
  {
    name: 'cassette diff --out an existing file',
    setup: twoCassettes,
    args: ['cassette', 'diff', 'a.yaml', 'b.yaml', '--out', 'notes.txt'],
    stderr: /notes\.txt: --out names a file/,
  },
  {
    name: 'cassette diff FLIS_REPORT_DIR an existing file',
    setup: twoCassettes,
    args: ['cassette', 'diff', 'a.yaml', 'b.yaml'],
    env: { FLIS_REPORT_DIR: 'notes.txt' },
    stderr: /notes\.txt: FLIS_REPORT_DIR names a file/,
  },
  {
    name: 'cassette diff --out through a file',
    setup: twoCassettes,
    args: ['cassette', 'diff', 'a.yaml', 'b.yaml', '--out', 'notes.txt/diff'],
    stderr: /notes\.txt is a file/,
  },
  {
    name: "cassette diff --out the user's folder",
    setup: (sb) => {
      twoCassettes(sb);
      sb.write('mydocs/diff.md', 'my own diff notes\n');
    },
    args: ['cassette', 'diff', 'a.yaml', 'b.yaml', '--out', 'mydocs'],
    stderr: /mydocs\/diff\.md: exists and is not a diff report flis wrote/,
  },
  {
    name: 'cassette diff --out under a read-only folder',
    setup: (sb) => {
      twoCassettes(sb);
      sb.mkdir('ro');
      sb.readOnly('ro');
    },
    args: ['cassette', 'diff', 'a.yaml', 'b.yaml', '--out', 'ro/diff'],
    unprivileged: true,
    skip: UNPRIVILEGED_SKIP,
    stderr: /permission denied/,
  },
  {
    name: 'cassette diff --out ""',
    setup: twoCassettes,
    args: ['cassette', 'diff', 'a.yaml', 'b.yaml', '--out', ''],
    stderr: /--out is empty/,
  },
  {
    name: 'cassette export-har to a folder (no temp file left behind)',
    setup: (sb) => {
      twoCassettes(sb);
      sb.mkdir('out.har');
    },
    args: ['cassette', 'export-har', 'a.yaml', 'out.har'],
    stderr: /out\.har: OUT\.har names a folder/,
  },
  {
    name: "cassette export-har over the user's file",
    setup: twoCassettes,
    args: ['cassette', 'export-har', 'a.yaml', 'notes.txt'],
    stderr: /notes\.txt: exists and is not a HAR file flis wrote/,
  },
  {
    name: 'cassette export-har through a file',
    setup: twoCassettes,
    args: ['cassette', 'export-har', 'a.yaml', 'notes.txt/out.har'],
    stderr: /notes\.txt is a file/,
  },
  ...(
    [
      ['request.url', 'to be an absolute URL', { url: 'not a url' }, {}],
      ['response.headers', 'to be as HAR 1.2', {}, { headers: 5 }],
      ['request.postData.text', 'to be as HAR 1.2', { postData: { mimeType: 'application/json', text: 5 } }, {}],
    ] as const
  ).map(
    ([field, expected, request, response]): BadInputRow => ({
      name: `cassette import-har with an entry whose ${field} is not what HAR gives it`,
      setup: (sb) => {
        usersFiles(sb);
        sb.write('in.har', harOf({ request, response }));
      },
      args: ['cassette', 'import-har', 'in.har', 'out.yaml'],
      stderr: new RegExp(`in\\.har:1: expected log\\.entries\\[0\\]\\.${field.replaceAll('.', '\\.')} ${expected}`),
    }),
  ),
  {
    name: "cassette import-har over the user's file",
    setup: (sb) => {
      usersFiles(sb);
      sb.write('in.har', JSON.stringify({ log: { version: '1.2', entries: [] } }));
    },
    args: ['cassette', 'import-har', 'in.har', 'notes.txt'],
    stderr: /notes\.txt: exists and is not a cassette flis wrote/,
  },
];

const diff: BadInputRow[] = [
  {
    name: 'diff --report-dir an existing file (before either deployment is reached)',
    setup: usersFiles,
    args: ['diff', '--deployment', 'embedded', '--deployment', 'embedded', '--report-dir', 'notes.txt'],
    stderr: /notes\.txt: --report-dir names a file/,
    also: (r) => assert.doesNotMatch(r.stdout, /flis diff: .* vs /, 'the deployments were reached first'),
  },
  {
    name: "diff FLIS_REPORT_DIR a folder holding the user's diff.md",
    setup: (sb) => {
      usersFiles(sb);
      sb.write('mydocs/diff.md', 'my own notes\n');
    },
    args: ['diff', '--deployment', 'embedded', '--deployment', 'embedded'],
    env: { FLIS_REPORT_DIR: 'mydocs' },
    stderr: /mydocs\/diff\.md: exists and is not a diff report flis wrote/,
  },
];

const cassetteWriters: BadInputRow[] = [
  {
    name: "record --cassette the user's file",
    setup: usersFiles,
    args: ['record', '--upstream', 'http://127.0.0.1:9/apis/v0', '--cassette', 'notes.txt'],
    env: { FLIS_TOKEN: 'tok-bad-paths-1' },
    stderr: /notes\.txt: exists and is not a cassette flis wrote/,
  },
  {
    name: "webhooks listen --cassette the user's file",
    setup: usersFiles,
    args: ['webhooks', 'listen', '--cassette', 'mydocs/thesis.txt'],
    stderr: /thesis\.txt: exists and is not a cassette flis wrote/,
  },
];

/** A partner's cassette for regress, and a contract document for contract diff, beside the user's files. */
function partnerAndUsersFiles(sb: Sandbox): void {
  usersFiles(sb);
  sb.write('partners/acme.yaml', CASSETTE);
  sb.write('mydocs/junit.xml', 'my own JUnit notes\n');
  sb.write('mydocs/contract-diff.md', 'my own notes on the contract\n');
}

const regressAndContract: BadInputRow[] = [
  {
    name: 'regress --report-dir an existing file',
    setup: partnerAndUsersFiles,
    args: ['regress', '--cassettes', 'partners', '--report-dir', 'notes.txt'],
    stderr: /notes\.txt/,
  },
  {
    name: "regress --report-dir the user's folder holding a junit.xml flis did not write",
    setup: partnerAndUsersFiles,
    args: ['regress', '--cassettes', 'partners', '--report-dir', 'mydocs'],
    stderr: /junit\.xml/,
  },
  {
    name: 'regress --report-dir ""',
    setup: partnerAndUsersFiles,
    args: ['regress', '--cassettes', 'partners', '--report-dir', ''],
    stderr: /empty/,
  },
  {
    name: "contract diff --report-dir the user's folder holding a contract-diff.md flis did not write",
    setup: partnerAndUsersFiles,
    args: ['contract', 'diff', 'old.yaml', 'new.yaml', '--report-dir', 'mydocs'],
    stderr: /contract-diff\.md/,
  },
];

/** A cassette of one GET of `path`, answered 200, as a partner might hand it over; `run` labels it as a suite run's. */
function cassetteOfPath(path: string, run = false): string {
  const header = run
    ? CASSETTE.replace(
        '...\n',
        'labels:\n  runId: flis-20260101-000000-abcd\n  seed: "1"\n  startedAt: "1767225600000"\n...\n',
      )
    : CASSETTE;
  return `${header}---
seq: 1
request:
  method: GET
  path: ${JSON.stringify(path)}
response:
  status: 200
  headers:
    content-type: application/json
  body: []
  bodyEncoding: json
...
`;
}

/**
 * Every way a recorded path can lead out of /apis/v0 that a URL parser or a server on the way might take: each is
 * refused where the cassette is read, naming the file and line, and nothing reaches the row's trap (a real
 * loopback server standing in for the release candidate, with the run's token).
 */
const ESCAPES: [string, string][] = [
  ["'..' segments", '/../../../steal3'],
  ["'..' after a segment", '/offers/../../steal'],
  ["a '.' segment", '/./offers'],
  ['percent-encoded dots, lower case', '/%2e%2e/%2e%2e/steal'],
  ['percent-encoded dots, upper case', '/%2E%2E/%2E%2E/steal'],
  ['one dot encoded, one not', '/.%2E/%2e./steal'],
  ['dots encoded twice', '/%252e%252e/%252e%252e/steal'],
  ['dots encoded three times', '/%25252E%25252E/steal'],
  ["'//host'", '//evil.example/steal'],
  ['a backslash', '/..\\..\\steal'],
  ["'..' behind an encoded slash", '/offers/..%2f..%2f..%2fsteal'],
  ["'..' behind an encoded backslash", '/offers/..%5C..%5Csteal'],
  ['a tab inside the dots (URL parsers drop it)', '/.\t./.\t./steal'],
  ['a line break', '/offers/x\n/../steal'],
  ['overlong UTF-8 dots', '/%c0%ae%c0%ae/%c0%ae%c0%ae/steal'],
  ['fullwidth dots (NFKC)', '/\uff0e\uff0e/\uff0e\uff0e/steal'],
];

const REFUSED_PATH = /acme\.yaml:\d+: expected request\.path: a path that stays under the base path/;
const nothingSent = (_r: FlisResult, sb: Sandbox) =>
  assert.deepEqual(sb.trap.requests, [], `a request reached the target: ${JSON.stringify(sb.trap.requests)}`);

const recordedPathEscapes: BadInputRow[] = [
  ...ESCAPES.map(
    ([form, path]): BadInputRow => ({
      name: `regress, a recorded path with ${form}`,
      setup: (sb) => void sb.write('partners/acme.yaml', cassetteOfPath(path)),
      args: (sb) => ['regress', '--cassettes', 'partners', '--base-url', sb.trap.baseUrl, '--report-dir', 'out'],
      env: (sb) => ({ FLIS_TOKEN: sb.trap.token }),
      stderr: REFUSED_PATH,
      also: nothingSent,
    }),
  ),
  ...(
    [
      ['replay', (f: string) => ['replay', '--cassette', f]],
      ['run --cassette (a recorded run replayed)', (f: string) => ['run', '--cassette', f, '--report-dir', 'out']],
      [
        'certify --cassette',
        (f: string) => ['certify', '--partner', 'acme', '--deployment', 'embedded', '--cassette', f],
      ],
      ['cassette lint', (f: string) => ['cassette', 'lint', f]],
      ['cassette export-har', (f: string) => ['cassette', 'export-har', f, 'out.har']],
    ] as const
  ).map(([command, args], i): BadInputRow => {
    // Each command meets one form, by turns: the rule is one function, and regress above meets them all.
    const [form, path] = ESCAPES[i % 2 === 0 ? 0 : 6]!;
    return {
      name: `${command}, a recorded path with ${form}`,
      setup: (sb) => void sb.write('acme.yaml', cassetteOfPath(path, command.startsWith('run'))),
      args: () => args('acme.yaml'),
      stderr: REFUSED_PATH,
    };
  }),
  {
    name: 'contract diff --cassettes, a recorded path with percent-encoded dots',
    setup: (sb) => {
      sb.write('partners/acme.yaml', cassetteOfPath(ESCAPES[3]![1]));
      sb.write('old.yaml', readFileSync(BUNDLED, 'utf8'));
    },
    args: ['contract', 'diff', 'old.yaml', 'old.yaml', '--cassettes', 'partners', '--report-dir', 'out'],
    stderr: REFUSED_PATH,
  },
  ...(
    [
      ["'..' (resolved away by the URL parser)", 'http://127.0.0.1:1/apis/v0/../../steal'],
      ['percent-encoded dots', 'http://127.0.0.1:1/apis/v0/%2E%2E/steal'],
      ['dots encoded twice', 'http://127.0.0.1:1/apis/v0/%252e%252e/steal'],
      ['a backslash', 'http://127.0.0.1:1/apis/v0/..\\steal'],
    ] as const
  ).map(
    ([form, url]): BadInputRow => ({
      name: `cassette import-har, an entry URL with ${form}`,
      setup: (sb) => {
        usersFiles(sb);
        sb.write('in.har', harOf({ request: { url }, response: {} }));
      },
      args: ['cassette', 'import-har', 'in.har', 'out.yaml'],
      stderr: /in\.har:1: expected log\.entries\[0\]\.request\.url to stay under the base path/,
    }),
  ),
  {
    name: 'cassette import-har, an entry URL outside the base path',
    setup: (sb) => {
      usersFiles(sb);
      sb.write('in.har', harOf({ request: { url: 'http://127.0.0.1:1/steal' }, response: {} }));
    },
    args: ['cassette', 'import-har', 'in.har', 'out.yaml'],
    stderr: /in\.har:1: expected log\.entries\[0\]\.request\.url under the base path \/apis\/v0/,
  },
];

/**
 * Files that are not what a command reads: a named pipe (a read blocks for ever), /dev/zero (endless), an empty
 * document, a link to nothing. The rule of every file a user names (errors/user-file.ts): a regular file only,
 * bounded, one line.
 */
function pipe(sb: Sandbox, rel: string): void {
  assert.equal(spawnSync('mkfifo', [sb.path(rel)]).status, 0, 'mkfifo');
}

const badFiles: BadInputRow[] = [
  {
    name: 'contract diff, a named pipe as the new document (must not hang)',
    setup: (sb) => {
      sb.write('old.yaml', readFileSync(BUNDLED, 'utf8'));
      pipe(sb, 'new.yaml');
    },
    args: ['contract', 'diff', 'old.yaml', 'new.yaml', '--report-dir', 'out'],
    stderr: /new\.yaml: cannot read the OpenAPI document \(a named pipe, not a regular file\)/,
    timeoutMs: 30_000,
  },
  {
    name: 'contract diff, /dev/zero as the new document (never read)',
    setup: (sb) => void sb.write('old.yaml', readFileSync(BUNDLED, 'utf8')),
    args: ['contract', 'diff', 'old.yaml', '/dev/zero', '--report-dir', 'out'],
    stderr: /\/dev\/zero: cannot read the OpenAPI document \(a character device, not a regular file\)/,
    timeoutMs: 30_000,
  },
  {
    name: 'contract diff, an empty old document',
    setup: (sb) => {
      sb.write('old.yaml', '');
      sb.write('new.yaml', readFileSync(BUNDLED, 'utf8'));
    },
    args: ['contract', 'diff', 'old.yaml', 'new.yaml', '--report-dir', 'out'],
    stderr: /old\.yaml: not an OpenAPI document: the file is empty/,
  },
  {
    name: 'contract diff, an old document that is a YAML list',
    setup: (sb) => {
      sb.write('old.yaml', '- openapi\n- 3.1.0\n');
      sb.write('new.yaml', readFileSync(BUNDLED, 'utf8'));
    },
    args: ['contract', 'diff', 'old.yaml', 'new.yaml', '--report-dir', 'out'],
    stderr: /old\.yaml: not an OpenAPI document: its top level is a list/,
  },
  {
    name: 'contract diff, a link to nothing in the cassettes folder',
    setup: (sb) => {
      sb.write('old.yaml', readFileSync(BUNDLED, 'utf8'));
      sb.write('partners/acme.yaml', CASSETTE);
      symlinkSync(sb.path('gone.yaml'), sb.path('partners/zeta.yaml'));
    },
    args: ['contract', 'diff', 'old.yaml', 'old.yaml', '--cassettes', 'partners', '--report-dir', 'out'],
    stderr: /zeta\.yaml is not a cassette: a symbolic link to nothing/,
  },
  ...(
    [
      [
        'a link to nothing',
        (sb: Sandbox) => symlinkSync(sb.path('gone.yaml'), sb.path('partners/zeta.yaml')),
        'zeta.yaml',
        'a symbolic link to nothing',
      ],
      ['a named pipe (must not hang)', (sb: Sandbox) => pipe(sb, 'partners/zeta.yaml'), 'zeta.yaml', 'a named pipe'],
      [
        'a link to /dev/zero (never read)',
        (sb: Sandbox) => symlinkSync('/dev/zero', sb.path('partners/zeta.yml')),
        'zeta.yml',
        'a character device',
      ],
    ] as const
  ).map(
    ([what, entry, name, found]): BadInputRow => ({
      name: `regress, ${what} in the cassettes folder`,
      setup: (sb) => {
        sb.write('partners/acme.yaml', CASSETTE);
        entry(sb);
      },
      args: (sb) => ['regress', '--cassettes', 'partners', '--base-url', sb.trap.baseUrl, '--report-dir', 'out'],
      env: (sb) => ({ FLIS_TOKEN: sb.trap.token }),
      stderr: new RegExp(`${name.replace('.', '\\.')} is not a cassette: ${found}`),
      also: nothingSent,
      timeoutMs: 30_000,
    }),
  ),
  {
    name: 'cassette import-har, a named pipe (must not hang)',
    setup: (sb) => pipe(sb, 'in.har'),
    args: ['cassette', 'import-har', 'in.har', 'out.yaml'],
    stderr: /in\.har: cannot read the HAR file \(a named pipe, not a regular file\)/,
    timeoutMs: 30_000,
  },
  {
    name: 'certify --partner-profile /dev/zero',
    args: ['certify', '--partner', 'acme', '--deployment', 'embedded', '--partner-profile', '/dev/zero'],
    stderr: /--partner-profile \/dev\/zero: cannot read it \(a character device, not a regular file\)/,
    timeoutMs: 30_000,
  },
  {
    name: 'run --ca-file a named pipe',
    setup: (sb) => pipe(sb, 'ca.pem'),
    args: (sb) => ['run', '--base-url', sb.trap.baseUrl, '--ca-file', 'ca.pem'],
    env: (sb) => ({ FLIS_TOKEN: sb.trap.token }),
    stderr: /--ca-file ca\.pem cannot be read \(a named pipe, not a regular file\)/,
    also: nothingSent,
    timeoutMs: 30_000,
  },
  {
    name: 'replay /dev/zero as the cassette (never read)',
    args: ['replay', '--cassette', '/dev/zero'],
    stderr: /\/dev\/zero:1: expected a regular file \(a cassette\); found a character device/,
    timeoutMs: 30_000,
  },
  {
    name: 'certify --cassette a named pipe (must not hang)',
    setup: (sb) => pipe(sb, 'client.yaml'),
    args: ['certify', '--partner', 'acme', '--deployment', 'embedded', '--cassette', 'client.yaml'],
    stderr: /client\.yaml:1: expected a regular file \(a cassette\); found a named pipe/,
    timeoutMs: 30_000,
  },
  {
    name: 'webhooks listen --cassette a named pipe (must not hang)',
    setup: (sb) => pipe(sb, 'hooks.yaml'),
    args: ['webhooks', 'listen', '--cassette', 'hooks.yaml'],
    stderr: /hooks\.yaml: is not a regular file/,
    timeoutMs: 30_000,
  },
  {
    name: 'merge a shard whose certificate.json is a named pipe',
    setup: (sb) => {
      sb.write('s1/blob/report-1-of-1.zip', WHOLE_ZIP);
      pipe(sb, 's1/certificate.json');
    },
    args: ['merge', 's1', '--report-dir', 'merged'],
    stderr: /s1\/certificate\.json: cannot be read \(a named pipe, not a regular file\)/,
    timeoutMs: 30_000,
  },
];

runBadInputTable('flis run and certify: bad report folders', run, { concurrency: 2 });
runBadInputTable('flis merge: bad report folders and broken shards', merge, { concurrency: 2 });
runBadInputTable('flis report: bad output folders, results and history', report, { concurrency: 2 });
runBadInputTable('flis cassette: bad --out, HAR paths and HAR content', cassette, { concurrency: 2 });
runBadInputTable('flis diff: bad report folders', diff, { concurrency: 2 });
runBadInputTable('flis regress and contract diff: bad report folders', regressAndContract, { concurrency: 2 });
runBadInputTable('a recorded path that could leave the base path: refused, and nothing sent', recordedPathEscapes, {
  concurrency: 2,
});
runBadInputTable('files that are no regular file, or no document', badFiles, { concurrency: 2 });
runBadInputTable("flis record and webhooks: a cassette path that is the user's file", cassetteWriters, {
  concurrency: 2,
});
