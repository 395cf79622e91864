/**
 * `flis certify`: a partner's certification. Runs the suites against the
 * sandbox with the partner's token and checks the partner's own client
 * traffic (cassettes recorded through `flis record`) against the contract;
 * writes one certificate covering both, named for the partner.
 */
import { CONNECTION_HELP } from '../../net/connection-options.ts';
import { GATES_HELP } from '../../reporting/gates.ts';
import { DEFAULT_VISIBILITY_TIMEOUT_MS } from '../../suites/lib/suite-env.ts';
import { parseCommandArgs } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';
import { STRICT_HELP } from '../gate-options.ts';
import { LIMITS_HELP } from '../limit-options.ts';
import { certifyOptionSpec, executeRun, parseRunPlan } from '../run-plan.ts';

const help = `Usage: flis certify --partner NAME [--deployment sandbox] [--cassette FILE ...] [options]

Certify a partner's integration: run the conformance suites against the deployment (default: the
sandbox) with the partner's token, and check every request the partner's client sent and every
response it got, as recorded by 'flis record' into cassettes, against the contract. Writes one
certificate with a verdict for each party: the partner's client (its traffic, and how much of the
contract it uses: operations, documented request fields, flows) and the service as the partner
uses it (the suites). DIR/certificate-<partner>.json and DIR/certificate-<partner>.html; the
client traffic shows in its matrix as traffic:<check> columns (auth-header, write-content-type,
request-schema, response-schema, json-content-type, no-5xx, known-operation).

  --partner NAME           the partner being certified (named on the certificate)       (required)
  --deployment NAME        the deployment to run against (default sandbox; FLIS_SANDBOX_BASE_URL and
                           FLIS_SANDBOX_TOKEN, else FLIS_TOKEN, as for 'flis run')       [env FLIS_DEPLOYMENT]
  --cassette FILE          a cassette of the partner's client traffic (repeatable)
  --require-operations LIST  comma-separated operationIds the client integrates: certification fails when
                           the client's traffic does not use each one        [env FLIS_REQUIRE_OPERATIONS]
  --partner-profile FILE   the same list from a file (YAML or JSON: 'operations: [listOffers, …]')
                                                                             [env FLIS_PARTNER_PROFILE]
  --client-command CMD     the partner's own client or test command (run by the shell), run once against
                           each conformant variant of the embedded mock ('flis mock --help' lists them)
                           through the recorder, given the base URL and a token in its environment (the
                           names are in docs/certification.md); a variant it does
                           not survive (exit code, traffic) fails the client. Cassettes and output in
                           DIR/robustness/; without --cassette, its plain-mock run is the client's traffic
                                                                             [env FLIS_CLIENT_COMMAND]
  --publish URL            when the run ends, publish the certificate, the client's cassette (one; scanned
                           for secrets first), the contract version and the tool version to the registry
                           at URL ('flis registry'); the partner's token from FLIS_REGISTRY_TOKEN
                                                                                     [env FLIS_PUBLISH]
  --suite NAMES            comma-separated suites (default all)                          [env FLIS_SUITES]
  --seed N, --runs N       fast-check seed and runs, as for 'flis run'          [env FLIS_SEED, FLIS_RUNS]
  --visibility-timeout MS  how long to poll for an asynchronous write to show (default ${DEFAULT_VISIBILITY_TIMEOUT_MS})
  --report-dir DIR         where reports go (default reports/)                           [env FLIS_REPORT_DIR]
  --progress list|dot|none, --workers N, --distant   as for 'flis run'
  --allow-writes           needed only for a live-data deployment                  [env FLIS_ALLOW_WRITES=1]

${LIMITS_HELP}

${CONNECTION_HELP}

${STRICT_HELP}
${GATES_HELP}
A failed check on a documented rule, in the suites or in the client traffic, or an operation the partner
integrates that its client's traffic does not use, blocks certification (exit 1); the line before the
last says which party failed.`;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values } = parseCommandArgs('certify', argv, certifyOptionSpec);
  if (values.help) {
    io.out(help);
    return EXIT.ok;
  }
  return executeRun(await parseRunPlan('certify', values, io.env), io);
}

export const certifyCommand: Command = {
  name: 'certify',
  help,
  run,
};
