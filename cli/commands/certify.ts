/**
 * `flis certify`: a partner's certification. Runs the suites against the
 * sandbox with the partner's token and checks the partner's own client
 * traffic (cassettes recorded through `flis record`) against the contract;
 * writes one certificate covering both, named for the partner.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveTarget } from '../../config/deployments.ts';
import { oneOf, UsageError } from '../../errors/flis-error.ts';
import { GATES_HELP } from '../../reporting/gates.ts';
import { probeTarget } from '../../runner/probe-target.ts';
import { runSuites, type Progress } from '../../runner/run-suites.ts';
import { suiteNames } from '../../runner/suite-names.ts';
import { intOption, listOption, parseCommandArgs } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';
import type { RunReports } from '../../reporting/run-reports.ts';
import { gateOptionSpec, parseGates, STRICT_HELP, strictOf } from '../gate-options.ts';

const help = `Usage: flis certify --partner NAME [--deployment sandbox] [--cassette FILE ...] [options]

Certify a partner's integration: run the conformance suites against the deployment (default: the
sandbox) with the partner's token, and check every request the partner's client sent and every
response it got, as recorded by 'flis record' into cassettes, against the contract. Writes one
certificate covering both: DIR/certificate-<partner>.json and DIR/certificate-<partner>.html; the
client traffic shows in its matrix as traffic:<check> columns (auth-header, write-content-type,
request-schema, response-schema, json-content-type, no-5xx, known-operation).

  --partner NAME           the partner being certified (named on the certificate)       (required)
  --deployment NAME        the deployment to run against (default sandbox; FLIS_SANDBOX_BASE_URL and
                           FLIS_SANDBOX_TOKEN, else FLIS_TOKEN, as for 'flis run')
  --cassette FILE          a cassette of the partner's client traffic (repeatable)
  --suite NAMES            comma-separated suites (default all)
  --seed N, --runs N       fast-check seed and runs, as for 'flis run'
  --report-dir DIR         where reports go (default reports/)                           [env FLIS_REPORT_DIR]
  --progress list|dot|none, --workers N   as for 'flis run'
  --allow-writes           needed only for a live-data deployment
${STRICT_HELP}
${GATES_HELP}
A failed check on a documented rule, in the suites or in the client traffic, blocks certification (exit 1).`;

const options = {
  partner: { type: 'string' },
  deployment: { type: 'string' },
  cassette: { type: 'string', multiple: true },
  suite: { type: 'string', multiple: true },
  seed: { type: 'string' },
  runs: { type: 'string' },
  'report-dir': { type: 'string' },
  progress: { type: 'string' },
  workers: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  ...gateOptionSpec,
} as const;

function cassettesOf(raw: string[] | undefined): string[] {
  const files = (raw ?? []).map((f) => resolve(f));
  for (const f of files)
    if (!existsSync(f)) throw new UsageError(`--cassette ${f}: no such file (record one with 'flis record')`);
  return files;
}

function clientTrafficFailures(reports: RunReports): string[] {
  return reports.certificate.failures
    .filter((f) => f.source === 'traffic')
    .map(
      (f) => `CLIENT TRAFFIC FAILED [${f.check}] ${f.clause}${f.operationId ? ` ${f.operationId}` : ''}: ${f.message}`,
    );
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values: v } = parseCommandArgs('certify', argv, options);
  if (v.help) {
    io.out(help);
    return EXIT.ok;
  }
  const partner = v.partner?.trim();
  if (!partner)
    throw new UsageError(
      "--partner NAME is required: the certificate is named for the partner (see 'flis certify --help')",
    );
  const cassettes = cassettesOf(v.cassette);
  const gates = parseGates(v);
  const suites = listOption(v.suite);
  for (const s of suites ?? []) oneOf('--suite', s, suiteNames());
  const seed = intOption('seed', v.seed, { max: 2 ** 31 - 1 });
  const runs = intOption('runs', v.runs, { min: 1, max: 100_000 });
  const workers = intOption('workers', v.workers, { min: 1, max: 64 });
  const progress = oneOf<Progress>('--progress', v.progress ?? 'list', ['list', 'dot', 'none']);
  const reportDir = resolve(v['report-dir'] ?? io.env.FLIS_REPORT_DIR ?? 'reports');
  const resolved = resolveTarget(
    { deployment: v.deployment ?? 'sandbox', allowWrites: v['allow-writes'] === true },
    io.env,
  );

  if (!resolved.embedded && resolved.baseUrl) await probeTarget(resolved.baseUrl);
  // Loaded once the arguments are known, so `--help` and a usage error answer at once.
  const [{ startTarget }, { finishRun }, { undoIfInterrupted }] = await Promise.all([
    import('../../runner/start-target.ts'),
    import('../finish-run.ts'),
    import('../undo-interrupted.ts'),
  ]);
  const live = await startTarget(resolved);
  try {
    io.out(
      `flis certify: ${partner} on ${resolved.name} at ${live.baseUrl}${cassettes.length ? `, with ${cassettes.length} cassette(s) of client traffic` : ''}`,
    );
    const result = await runSuites({
      baseUrl: live.baseUrl,
      token: live.token,
      deployment: resolved.name,
      allowWrites: resolved.allowWrites,
      writesSkippedReason: resolved.writesSkippedReason,
      reportDir,
      progress,
      ...(suites ? { suites } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(runs !== undefined ? { runs } : {}),
      ...(workers !== undefined ? { workers } : {}),
      ...(io.env.FLIS_RUN_ID ? { runId: io.env.FLIS_RUN_ID } : {}),
      ...(io.signal ? { stop: io.signal } : {}),
    });
    await undoIfInterrupted(io, result, {
      command: 'certify',
      baseUrl: live.baseUrl,
      token: live.token,
      deployment: resolved.name,
      wrote: resolved.allowWrites,
    });
    io.out(
      `suites: ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped (seed ${result.seed}, run id ${result.runId})`,
    );
    const { exitCode } = finishRun(
      io,
      {
        reportDir,
        cassettes,
        secrets: [live.token],
        subject: { deployment: resolved.name, baseUrl: live.baseUrl, partner },
        facts: { seed: result.seed, runId: result.runId, suites: suites ?? 'all', allowWrites: resolved.allowWrites },
      },
      // Client traffic that breaks the contract fails the certification as a failed suite check does (the verdict says so).
      {
        command: 'certify',
        gates,
        strict: strictOf(v, io.env),
        describe: clientTrafficFailures,
        ...(result.interrupted ? { interrupted: result.interrupted } : {}),
      },
    );
    return exitCode;
  } finally {
    await live.close();
  }
}

export const certifyCommand: Command = {
  name: 'certify',
  help,
  run,
};
