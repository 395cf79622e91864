/**
 * `flis merge`: the shards of a CI run as one report folder with one
 * Playwright report, one Allure result set, one certificate and one drift report.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../errors/flis-error.ts';
import { givenPath } from '../../errors/owned-paths.ts';
import { mergeRegressReports, REGRESS_JSON, writeRegressReports } from '../../regress/report.ts';
import { GATES_HELP } from '../../reporting/gates.ts';
import { mergeShards } from '../../reporting/merge-shards.ts';
import { checkReportFolder } from '../../reporting/report-folder.ts';
import { parseCommandArgs, reportDirOf } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';
import { envSecrets, finishRun } from '../finish-run.ts';
import { gateOptionSpec, parseGates, STRICT_HELP, strictOf } from '../gate-options.ts';

const help = `Usage: flis merge [options] SHARD_DIR ...

Merge the report folders of the shards of one run ('flis run --shard I/N --report-dir SHARD_DIR')
into one: DIR/html (Playwright, merged from the shards' blob reports), DIR/junit.xml, DIR/results.json,
DIR/allure-results, DIR/certificate.json + DIR/certificate.html and DIR/drift.md. The merged
certificate's verdict and matrix are those an unsharded run of the same tests gives.

Shards of 'flis regress --shard I/N' (folders holding regress.json) are joined into one regress report
instead: DIR/regress.json, DIR/regress.html and DIR/junit.xml, exit 1 when a partner is broken (with
--fail-on changed, also when one is changed within the contract).

  --report-dir DIR         where the merged reports go (default reports/)     [env FLIS_REPORT_DIR]
${STRICT_HELP}
${GATES_HELP}`;

const options = { 'report-dir': { type: 'string' }, ...gateOptionSpec } as const;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values: v, positionals } = parseCommandArgs('merge', argv, options, true);
  if (v.help) {
    io.out(help);
    return EXIT.ok;
  }
  if (positionals.length === 0)
    throw new UsageError(
      "the shards' report folders are required: flis merge shard-1 shard-2 … (see 'flis merge --help')",
    );
  const { reportDir, reportDirFrom } = reportDirOf(v['report-dir'], io.env);
  const shards = positionals.map((p) => givenPath('SHARD_DIR', p));
  if (shards.includes(reportDir))
    throw new UsageError(`--report-dir ${reportDir} is one of the shard folders; merge into a folder of its own`);
  // Before a shard is read: a report folder flis may not write is one line.
  checkReportFolder(reportDir, reportDirFrom);
  if (shards.some(isRegressShard)) return mergeRegress(shards, reportDir, reportDirFrom, v['fail-on'] ?? [], io);
  const gates = parseGates(v);
  const strict = strictOf(v, io.env);
  const secrets = envSecrets(io.env);
  const merged = await mergeShards(shards, reportDir, secrets, reportDirFrom);
  for (const w of merged.warnings) io.err(`flis merge: warning: ${w}`);
  // A failed contract check in any shard fails the merged run, as it would have failed the unsharded one.
  const { exitCode } = finishRun(
    io,
    { reportDir, subject: merged.subject, facts: merged.facts, secrets },
    { command: 'merge', gates, strict },
  );
  return exitCode;
}

function isRegressShard(dir: string): boolean {
  return existsSync(join(dir, REGRESS_JSON));
}

/** The shards of a `flis regress --shard` run, as one regress report. */
function mergeRegress(
  dirs: string[],
  reportDir: string,
  reportDirFrom: string,
  failOn: string[],
  io: CommandIo,
): number {
  const notRegress = dirs.filter((d) => !isRegressShard(d));
  if (notRegress.length)
    throw new UsageError(
      `${notRegress.join(', ')}: no ${REGRESS_JSON}; merge the shards of one 'flis regress' run only`,
    );
  const bad = failOn.filter((f) => f !== 'changed');
  if (bad.length) throw new UsageError(`--fail-on takes 'changed' for regress shards; got '${bad.join(', ')}'`);
  const merged = mergeRegressReports(dirs);
  writeRegressReports(reportDir, merged, envSecrets(io.env), failOn.includes('changed'), reportDirFrom);
  const t = merged.totals;
  const exit = t.broken > 0 || (failOn.includes('changed') && t.changed > 0) ? EXIT.checkFailed : EXIT.ok;
  io.out(
    `flis merge: ${dirs.length} regress shard(s): ${t.broken} broken, ${t.changed} changed within the contract, ${t.unchanged} unchanged of ${t.partners} partner(s); ${join(reportDir, 'regress.html')}; exit ${exit}`,
  );
  return exit;
}

export const mergeCommand: Command = {
  name: 'merge',
  help,
  run,
};
