/**
 * `flis report`: build the self-contained Allure HTML report of a run, offline.
 */
import { join } from 'node:path';
import { givenPath } from '../../errors/owned-paths.ts';
import { buildAllureHtml } from '../../reporting/allure-html.ts';
import { parseCommandArgs, reportDirOf } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';

const help = `Usage: flis report [options] [RESULTS_DIR ...]

Build the Allure HTML report of a run as one self-contained file (every script and style inlined,
nothing loaded from outside it), offline, with the allure 3 package.

  RESULTS_DIR ...          Allure results folders (default: DIR/allure-results)
  --report-dir DIR         the run's report folder (default reports/)          [env FLIS_REPORT_DIR]
  --output DIR             where the report goes (default DIR/allure-report); open DIR/allure-report/index.html
  --name TEXT              the report's title (default "FLIS conformance")
  --history FILE           the report's history, one line per report, read and appended each time so the
                           Trend widgets fill in (default: allure-history.jsonl beside the report folder,
                           DIR/allure-history.jsonl); keep it between CI runs (e.g. a cached artifact)

The output folder is one flis created (it carries .flis-owned) or an empty one; a file, or a folder of
yours, is refused (exit 2) and left untouched.
Tests are labelled by resource group (epic), operation (feature), check (story) and clause; failed
tests carry their request and response (token redacted) and the flis-failure record.
Exit codes: 0 report written, 2 no results or a usage error.`;

const options = {
  'report-dir': { type: 'string' },
  output: { type: 'string' },
  name: { type: 'string' },
  history: { type: 'string' },
} as const;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values: v, positionals } = parseCommandArgs('report', argv, options, true);
  if (v.help) {
    io.out(help);
    return EXIT.ok;
  }
  const { reportDir, reportDirFrom } = reportDirOf(v['report-dir'], io.env);
  const resultsDirs = positionals.length
    ? positionals.map((p) => givenPath('RESULTS_DIR', p))
    : [join(reportDir, 'allure-results')];
  const index = await buildAllureHtml({
    resultsDirs,
    outputDir: v.output !== undefined ? givenPath('--output', v.output) : join(reportDir, 'allure-report'),
    outputFlag: v.output !== undefined ? '--output' : `${reportDirFrom}'s allure-report`,
    reportName: v.name || undefined,
    historyPath: v.history !== undefined ? givenPath('--history', v.history) : undefined,
  });
  io.out(`Allure report: ${index}`);
  return EXIT.ok;
}

export const reportCommand: Command = {
  name: 'report',
  help,
  run,
};
