/**
 * `flis run`: resolve the target, start it if it is the embedded mock, run the
 * suites, print a summary a person reads and an exit code CI gates on.
 */
import { CONNECTION_HELP } from '../../net/connection-options.ts';
import { GATES_HELP } from '../../reporting/gates.ts';
import { suiteNames } from '../../runner/suite-names.ts';
import { DEFAULT_VISIBILITY_TIMEOUT_MS } from '../../suites/lib/suite-env.ts';
import { parseCommandArgs } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';
import { STRICT_HELP } from '../gate-options.ts';
import { LIMITS_HELP } from '../limit-options.ts';
import { variantNames } from '../mock-options.ts';
import { executeRun, parseRunPlan, runOptionSpec } from '../run-plan.ts';

export { reproduceCommand } from '../mock-options.ts';
export { parseShard } from '../run-plan.ts';

const help = `Usage: flis run [options]

Run the conformance suites against a deployment and write reports.
With no options, starts the embedded mock on a free loopback port and runs every suite against it.

Target (default: the embedded mock):
  --deployment NAME        a deployment of specs/deployments.yaml: embedded, mock, sandbox,
                           production-1, production-2, production-3           [env FLIS_DEPLOYMENT]
  --base-url URL           an ad-hoc deployment; must end in /apis/v0          [env FLIS_BASE_URL]
  --allow-writes           let write checks run against live-data deployments and ad-hoc URLs
                           (they are skipped there otherwise)                  [env FLIS_ALLOW_WRITES=1]
  The bearer token comes from the variable the deployment names, else FLIS_TOKEN. It is never printed.

Selection and reproduction:
  --suite NAMES            comma-separated suites (${'${suites}'})             [env FLIS_SUITES]
  --seed N                 fast-check seed; printed and written to the reports [env FLIS_SEED]
  --path ID:PATH           replay one failing property at the path its failure printed [env FLIS_PATH]
  --runs N                 fast-check runs per property                        [env FLIS_RUNS]
  --explore N              the world-model explorer runs N times more sequences, N times longer
                           (nightly CI; default 1)                             [env FLIS_EXPLORE]
  --visibility-timeout MS  how long to poll for an asynchronous write to show (default ${DEFAULT_VISIBILITY_TIMEOUT_MS})

Output:
  --report-dir DIR         where reports go (default reports/)                 [env FLIS_REPORT_DIR]
  --progress list|dot|none how progress is shown (default list)
  --workers N              parallel Playwright workers (default 2; 8 for a deployment 20 ms or more away)
  --distant                take the deployment for a distant one (8 workers, 12 requests in flight each),
                           whatever its round trip: a tunnel or a front on loopback to one far away
  --shard I/N              run shard I of N (Playwright sharding) and leave DIR/blob/ for 'flis merge';
                           give every shard the same --seed and FLIS_RUN_ID

Recording and offline replay:
  --record FILE            record the run's traffic into a YAML cassette through the recording proxy
                           (one worker; the run id and seed go into the cassette header)
  --cassette FILE          run offline against a cassette recorded with --record, reusing its run id,
                           seed and suites; no network

Embedded mock only (to see the suite catch faults):
  --mock-fault NAME        switch a deliberate contract violation on (repeatable; see 'flis mock --help')
  --mock-variant NAME      ${'${variants}'}: conformant choices the spec leaves open
  --mock-write-delay MS    delay before an asynchronous write becomes visible
  --mock-webhook-fault NAME  switch a deliberate webhook violation on (repeatable; see 'flis mock --help')
  --mock-drift             answer with drift (undocumented fields added, a documented one removed)

${'${limits}'}

${'${connection}'}

${STRICT_HELP}
${'${gates}'}

Verdict (certificate.json verdict.status): certified (the whole contract exercised, nothing failed),
certified-with-advisories (only advisory failures), partial (nothing failed on a contract rule, but not
every operation was exercised or some checks were skipped, e.g. read-only), not-certified.
A read-only target (live data, or --base-url without --allow-writes) never receives a POST, PUT, PATCH
or DELETE. An unreachable target exits 2 before any suite runs. The first SIGINT/SIGTERM stops the run,
undoes what it wrote, writes the reports of what ran and exits 130/143; a second one exits at once.

DIR is a folder flis created (it carries .flis-owned), an empty one, or one an older flis left; a run clears
what runs write there and nothing else. A file, or a folder holding your files, is refused (exit 2).
Reports: DIR/html/index.html (Playwright), DIR/junit.xml, DIR/results.json, DIR/run.json,
DIR/allure-results/ ('flis report' builds the Allure HTML), DIR/certificate.json and DIR/certificate.html
(the conformance certificate), DIR/drift.md and DIR/drift.json (undocumented fields, values and status
codes; proposed schemas in DIR/proposed-schemas/).`;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values } = parseCommandArgs('run', argv, runOptionSpec);
  if (values.help) {
    io.out(
      help
        .replace('${suites}', suiteNames().join(', '))
        .replace('${variants}', variantNames().join(' | '))
        .replace('${limits}', LIMITS_HELP)
        .replace('${connection}', CONNECTION_HELP)
        .replace('${gates}', GATES_HELP),
    );
    return EXIT.ok;
  }
  return executeRun(await parseRunPlan('run', values, io.env), io);
}

export const runCommand: Command = {
  name: 'run',
  help,
  run,
};
