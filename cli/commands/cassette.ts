/** `flis cassette lint|scan|export-har|import-har`: check, scan and convert cassettes. */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { oneOf, UsageError } from '../../errors/flis-error.ts';
import { readUserFile } from '../../errors/user-file.ts';
import { writeCassette } from '../../recorder/cassette-writer.ts';
import { formatViolation, violationCount } from '../../recorder/contract-check.ts';
import { CassetteParseError } from '../../recorder/errors.ts';
import { harToCassette } from '../../recorder/har.ts';
import { exportHarFile } from '../../recorder/har-file.ts';
import { lintCassette } from '../../recorder/lint.ts';
import { repairCassette } from '../../recorder/repair.ts';
import { Redactor } from '../../recorder/redact.ts';
import { scanCassette } from '../../recorder/scan.ts';
import { secretsFromEnv } from '../../recorder/secrets.ts';
import { judgeDelivery } from '../../webhooks/cassette.ts';
import { diffCassettes, diffLine, diffMarkdown } from '../../reporting/cassette-diff.ts';
import { checkDiffFolder, claimDiffFolder } from '../../reporting/report-folder.ts';
import { listOption, parseCommandArgs, reportDirOf } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';

const subcommands = ['lint', 'repair', 'diff', 'scan', 'export-har', 'import-har'] as const;

const help = `Usage: flis cassette <subcommand> ...

  flis cassette lint FILE                 check the format (a mistake names the file and line) and
                                          check every exchange against the contract, citing the clause;
                                          exit 1 when a violation is found. A torn last exchange or text
                                          after the last document is a warning (see repair). Webhook
                                          cassettes (flis webhooks listen) are judged by spec 6. A body
                                          lists at most 10 schema violations and counts the rest; a body cut
                                          when recorded (over the cap) is "not judged", never a violation. FILE must
                                          be a regular file. SIGINT/SIGTERM end it at once
  flis cassette repair FILE               cut a torn last exchange, or text after the last document, off
                                          FILE (written to a temporary file, then renamed over FILE)
  flis cassette diff A.yaml B.yaml [--out DIR]
                                          pair the exchanges of two recordings of the same traffic by
                                          request (replay's matching) and report where status, allow-listed
                                          headers and bodies differ beyond what the contract leaves open
                                          (judged as 'flis diff' does); diff.json and diff.md go to DIR
                                          (default reports/, env FLIS_REPORT_DIR); exit 1 on a difference
                                          that matters
  flis cassette scan FILE [--secret-env NAME ...]
                                          look for the token values of the environment (raw,
                                          URL-encoded, base64) and for token shapes (bearer tokens,
                                          JWTs, keys); prints lines, never values; exit 1 on a finding
  flis cassette export-har FILE OUT.har   write the cassette as HAR 1.2 (flis fields under _flis)
  flis cassette import-har IN.har FILE [--keep-header NAME ...] [--secret-env NAME ...]
                                          write a HAR as a cassette, through the same header allow-list
                                          and secret redaction as recording; an entry whose URL is not under
                                          /apis/v0, or could leave it ('..' in any encoding), is refused

Exit codes: 0 clean, 1 violations, secrets or differences that matter found, 2 usage error or unreadable cassette.`;

const options = {
  out: { type: 'string' },
  'secret-env': { type: 'string', multiple: true },
  'keep-header': { type: 'string', multiple: true },
} as const;

function positionals(sub: string, got: string[], names: string[]): string[] {
  if (got.length !== names.length)
    throw new UsageError(`${sub} takes ${names.join(' ')}; got ${got.length} argument(s). See 'flis cassette --help'.`);
  return got;
}

/** Above this size, lint says what it is reading before it starts (a long, silent wait looks like a hang). */
const ANNOUNCED_BYTES = 8 * 1024 * 1024;

function lint(file: string, io: CommandIo): number {
  // Reading writes nothing: a signal may end it at once, even inside the parse of one large body.
  io.endOnSignal?.();
  const size = fileSize(file);
  if (size !== undefined && size > ANNOUNCED_BYTES)
    io.err(`flis cassette lint: reading ${file} (${(size / 1e6).toFixed(1)} MB)`);
  const report = lintCassette(file, judgeDelivery);
  for (const f of report.findings)
    io.out(`${file}:${f.line}: seq ${f.seq} ${f.method} ${f.path} → ${f.status}: ${formatViolation(f.violation)}`);
  for (const n of report.notJudged)
    io.out(`${file}:${n.line}: seq ${n.seq} ${n.method} ${n.path} → ${n.status}: ${n.note}`);
  if (report.tail)
    io.out(`${file}:${report.tail.line}: warning: ${report.tail.message}; 'flis cassette repair ${file}' cuts it off`);
  let total = 0;
  for (const f of report.findings) total += violationCount(f.violation);
  const unlisted = total - report.findings.filter((f) => f.violation.more === undefined).length;
  const atLeast = report.findings.some((f) => f.violation.atLeast) ? 'at least ' : '';
  io.out(
    `flis cassette lint: ${report.exchanges} exchanges, ${atLeast}${total} contract violations${unlisted ? ` (${unlisted} not listed)` : ''}${report.notJudged.length ? `, ${report.notJudged.length} body(ies) not judged (over --max-body-bytes when recorded)` : ''}${report.tail ? ', 1 warning' : ''}`,
  );
  return report.findings.length ? EXIT.checkFailed : EXIT.ok;
}

function fileSize(file: string): number | undefined {
  try {
    return statSync(file).size;
  } catch {
    return undefined; // The reader names the problem.
  }
}

function repair(file: string, io: CommandIo): number {
  const r = repairCassette(file);
  io.out(
    r.cut
      ? `flis cassette repair: cut ${r.bytesCut} bytes from ${file} (${r.cut.message}); ${r.exchanges} complete exchanges kept`
      : `flis cassette repair: ${file} has no torn or stray tail; left untouched (${r.exchanges} exchanges)`,
  );
  return EXIT.ok;
}

function diff(a: string, b: string, io: CommandIo, out: { reportDir: string; reportDirFrom: string }): number {
  const dir = out.reportDir;
  // The folder is checked before the cassettes are read (a bad --out costs nothing), and claimed once they were.
  checkDiffFolder(dir, out.reportDirFrom);
  const r = diffCassettes(a, b);
  claimDiffFolder(dir, out.reportDirFrom);
  writeFileSync(join(dir, 'diff.json'), `${JSON.stringify(r, null, 2)}\n`);
  writeFileSync(join(dir, 'diff.md'), diffMarkdown(r));
  for (const d of r.differences) io.out(diffLine(d));
  const matters = r.differences.filter((d) => d.matters).length;
  io.out(
    `flis cassette diff: ${r.paired} exchanges paired, ${matters} difference(s) that matter, ${r.differences.length - matters} note(s); ${join(dir, 'diff.md')}`,
  );
  return matters ? EXIT.checkFailed : EXIT.ok;
}

function scan(file: string, io: CommandIo, secretEnv: string[]): number {
  // "No secrets found" would be a false all-clear for a value that was never looked for.
  const unset = secretEnv.filter((name) => !io.env[name]);
  if (unset.length)
    throw new UsageError(
      `--secret-env ${unset.join(', ')}: not set in the environment, so there is no value to look for; export it, or leave the flag out`,
    );
  const findings = scanCassette(file, io.env, secretEnv);
  for (const f of findings) io.out(`${file}:${f.line}${f.column ? `:${f.column}` : ''}: ${f.what}`);
  io.out(`flis cassette scan: ${findings.length ? `${findings.length} possible secrets found` : 'no secrets found'}`);
  return findings.length ? EXIT.checkFailed : EXIT.ok;
}

function exportHar(file: string, out: string, io: CommandIo): number {
  const entries = exportHarFile(file, out);
  io.out(`flis cassette export-har: ${entries} entries written to ${out}`);
  return EXIT.ok;
}

/** The largest HAR imported: JSON.parse holds its text and every entry at once, and V8's strings end near 512 MB. */
const MAX_HAR_BYTES = 256 * 1024 * 1024;

function importHar(input: string, file: string, io: CommandIo, secretEnv: string[], keep: string[]): number {
  const text = readUserFile(input, 'the HAR file', MAX_HAR_BYTES).toString('utf8');
  let har: unknown;
  try {
    har = JSON.parse(text);
  } catch (e) {
    const line = /line (\d+)/.exec((e as Error).message)?.[1];
    throw new CassetteParseError(input, line ? Number(line) : 1, 'a HAR file (JSON)', (e as Error).message);
  }
  for (const name of secretEnv)
    if (!io.env[name])
      io.err(`flis cassette import-har: warning: --secret-env ${name} is not set; nothing to redact for it`);
  const redactor = new Redactor(secretsFromEnv(io.env, secretEnv));
  const { header, exchanges } = harToCassette(har, input, redactor, keep);
  const n = writeCassette(file, header, exchanges, redactor.forms);
  io.out(`flis cassette import-har: ${n} exchanges written to ${file}`);
  return EXIT.ok;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values: v, positionals: pos } = parseCommandArgs('cassette', argv, options, true);
  const [sub, ...args] = pos;
  if (v.help || !sub) {
    io.out(help);
    return sub || v.help ? EXIT.ok : EXIT.usage;
  }
  oneOf('the subcommand', sub, subcommands);
  const secretEnv = listOption('secret-env', v['secret-env']) ?? [];
  if (sub === 'lint') return lint(positionals(sub, args, ['FILE'])[0]!, io);
  if (sub === 'repair') return repair(positionals(sub, args, ['FILE'])[0]!, io);
  if (sub === 'diff') {
    const [a, b] = positionals(sub, args, ['A.yaml', 'B.yaml']);
    return diff(a!, b!, io, reportDirOf(v.out, io.env, '--out'));
  }
  if (sub === 'scan') return scan(positionals(sub, args, ['FILE'])[0]!, io, secretEnv);
  if (sub === 'export-har') {
    const [file, out] = positionals(sub, args, ['FILE', 'OUT.har']);
    return exportHar(file!, out!, io);
  }
  const [input, file] = positionals(sub, args, ['IN.har', 'FILE']);
  return importHar(input!, file!, io, secretEnv, listOption('keep-header', v['keep-header']) ?? []);
}

export const cassetteCommand: Command = {
  name: 'cassette',
  help,
  run,
};
