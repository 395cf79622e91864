/**
 * `flis regress`: before a release, which partners would break? Each
 * partner's recorded traffic (one cassette each) is replayed against the
 * release candidate and every new answer judged against the recorded one by
 * the contract (regress/). Verdict per partner; exit 1 when one is broken.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveTarget } from '../../config/deployments.ts';
import { UsageError } from '../../errors/flis-error.ts';
import { CONNECTION_HELP, connectionOptionSpec, parseConnectionOptions } from '../../net/connection-options.ts';
import { issuesTokens } from '../../net/token-options.ts';
import { findPartners, readPartnersThrough, shardOf } from '../../regress/partners.ts';
import { checkRegressFolder, writeRegressReports } from '../../regress/report.ts';
import { runRegress } from '../../regress/run-regress.ts';
import { oneLine } from '../../reporting/one-line.ts';
import { newRunId } from '../../runner/run-suites.ts';
import { DEFAULT_VISIBILITY_TIMEOUT_MS } from '../../suites/lib/suite-env.ts';
import { flagOrEnv, intOption, namedValue, parseCommandArgs, reportDirOf, shardOption } from '../args.ts';
import { EXIT, SIGNAL_EXIT, type Command, type CommandIo, type StopSignal } from '../command.ts';
import { envSecrets } from '../finish-run.ts';
import { embeddedOptions, variantNames } from '../mock-options.ts';
import { reachTarget } from '../reach-target.ts';
import { recordVerdicts, registryPartners, registryRegressOptions } from '../registry-regress.ts';
import { registryClient } from '../registry-options.ts';

const help = `Usage: flis regress --cassettes DIR [--deployment NAME | --base-url URL] [options]
       flis regress --registry URL --candidate NAME [--deployment NAME | --base-url URL] [options]

Before a release: replay every partner's recorded traffic against the release candidate and say,
per partner, whether it would break. One partner per cassette in DIR (*.yaml, *.yml), named by the
header's 'partner' field or 'partner' label ('flis record --label partner=NAME'), else its file name.
Every cassette is read through before anything is sent: one that does not parse, holds a path that
could leave /apis/v0 ('..' in any encoding, a backslash, '//'), or is no regular file exits 2.

Requests are sent in recorded order with the run's token. Ids the recorded answers introduced (an
offer id, a batchId) are mapped to the ids the target answers, in the path, the query and the body;
a request needing an id the target never gave is blocked by the request that should have given it.
Ids a partner chose for a record it creates are tagged with the run id; every write is undone at the
end, also when interrupted (Ctrl-C). A run of identical reads (polling) is judged by its last answer.

Each new answer is judged against the recorded one:
  broken      it breaks the contract (schema, a 5xx), a 2xx became a 4xx or 5xx, or a documented
              field the recorded answer had is gone
  changed     within the contract, a risk: another success code (200 -> 201), an undocumented field
              added or gone, an id format, an error body, a value
  unchanged   anything else; ids the target minted, batchIds, timestamps and list order never count

  --cassettes DIR          the partners' cassettes (this, or --registry)
  --registry URL           take each active partner's latest cassette from the registry instead, and record
                           each partner's verdict there against --candidate (the admin's token in
                           FLIS_REGISTRY_TOKEN)                                      [env FLIS_REGISTRY_URL]
  --candidate NAME         the release candidate the verdicts are recorded against ('flis can-i-release
                           NAME' reads them)                                             [env FLIS_CANDIDATE]
  --deployment NAME        the release candidate, as for 'flis run' (default embedded) [env FLIS_DEPLOYMENT]
  --base-url URL           an ad-hoc target ending in /apis/v0 (read-only unless --allow-writes)
  --allow-writes           replay writes on a live-data deployment or an ad-hoc URL     [env FLIS_ALLOW_WRITES]
                           (elsewhere, only the GETs are replayed and the report counts the rest)
  --fail-on changed        exit 1 on a change within the contract too
  --shard I/N              replay only the I-th of N blocks of partners (sorted by name; N at most
                           1000); join the shards' report folders with 'flis merge DIR...'
  --visibility-timeout MS  how long a read after a write is asked again while its answer settles
                           (default ${DEFAULT_VISIBILITY_TIMEOUT_MS})
  --report-dir DIR         where regress.json, regress.html and junit.xml go (default reports/) [env FLIS_REPORT_DIR]
  --mock-fault NAME        embedded target only: switch a mock fault on (repeatable; 'flis mock --help')
  --mock-variant NAME      embedded target only: ${variantNames().join(' | ')}

Exit codes: 0 no partner broken, 1 a partner broken (or changed, with --fail-on changed), 2 usage
error, 130/143 interrupted (after undoing the writes).

${CONNECTION_HELP}`;

/** Above this many bytes of cassettes, reading them is announced (a long, silent wait looks like a hang). */
const ANNOUNCED_BYTES = 8 * 1024 * 1024;

const options = {
  cassettes: { type: 'string' },
  registry: { type: 'string' },
  candidate: { type: 'string' },
  deployment: { type: 'string' },
  'base-url': { type: 'string' },
  'allow-writes': { type: 'boolean' },
  'fail-on': { type: 'string' },
  shard: { type: 'string' },
  'visibility-timeout': { type: 'string' },
  'report-dir': { type: 'string' },
  'mock-fault': { type: 'string', multiple: true },
  'mock-variant': { type: 'string' },
  ...connectionOptionSpec,
} as const;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values: v } = parseCommandArgs('regress', argv, options);
  if (v.help) {
    io.out(help);
    return EXIT.ok;
  }
  const { registry, candidate } = registryRegressOptions(v, io.env);
  const failOn = v['fail-on'];
  if (failOn !== undefined && failOn !== 'changed')
    throw new UsageError(`--fail-on takes 'changed' (broken always fails); got '${failOn}'`);
  const shard = shardOption(v.shard);
  const visibilityTimeoutMs =
    intOption('visibility-timeout', v['visibility-timeout'], { max: 3_600_000 }) ?? DEFAULT_VISIBILITY_TIMEOUT_MS;
  const { reportDir, reportDirFrom } = reportDirOf(v['report-dir'], io.env);
  // Before any partner is replayed: a report that could not be written must not cost the replay first.
  checkRegressFolder(reportDir, reportDirFrom);
  const embedded = embeddedOptions({ 'mock-fault': v['mock-fault'], 'mock-variant': v['mock-variant'] });
  const net = parseConnectionOptions(v, io.env);
  const baseUrl = namedValue('base-url', v['base-url']);
  const deployment = baseUrl
    ? undefined
    : (namedValue('deployment', v.deployment) ?? io.env.FLIS_DEPLOYMENT ?? 'embedded');
  const resolved = resolveTarget(
    {
      deployment: deployment || undefined,
      baseUrl: baseUrl || undefined,
      allowWrites: flagOrEnv(v['allow-writes'], io.env.FLIS_ALLOW_WRITES, 'FLIS_ALLOW_WRITES'),
      tokenIssued: issuesTokens(net.token),
    },
    io.env,
  );
  if (!resolved.embedded && (embedded.faults || embedded.variant))
    throw new UsageError('--mock-fault and --mock-variant apply to the embedded target only');
  const client = registry ? registryClient(registry, io.env, '--registry') : undefined;
  const fromRegistry = client ? await registryPartners(client) : undefined;
  let signal: StopSignal | undefined;
  let stop = false;
  void io.stopped.then(() => {
    stop = true;
  });
  void io.signal?.then((s) => {
    signal = s;
  });
  const all = fromRegistry?.partners ?? findPartners(resolve(v.cassettes!), false);
  const partners = shardOf(all, shard);
  // Every cassette, a registry's too, is read through before anything is sent: one that does not parse, or holds a
  // path that could leave the base path, names its file and line now.
  const bytes = partners.reduce((n, p) => n + statSync(p.file).size, 0);
  if (bytes > ANNOUNCED_BYTES)
    io.out(
      `flis regress: reading ${partners.length} cassette(s) (${(bytes / 1e6).toFixed(1)} MB) before sending anything`,
    );
  if (!(await readPartnersThrough(partners, () => stop))) {
    io.err('flis regress: interrupted while reading the cassettes; nothing was sent');
    return SIGNAL_EXIT[signal ?? 'SIGINT'];
  }
  const runId = newRunId();
  const live = await reachTarget(resolved.name, resolved, net, io.env, embedded);
  try {
    io.out(
      `flis regress: run ${runId}: ${partners.length} partner(s)${shard ? ` (shard ${shard.index}/${shard.total} of ${all.length})` : ''} against ${resolved.name} (${live.baseUrl})${resolved.allowWrites ? '' : `, reads only: ${resolved.writesSkippedReason}`}`,
    );
    const report = await runRegress(
      partners,
      {
        baseUrl: live.baseUrl,
        publicBaseUrl: live.baseUrl,
        connection: live.connection,
        runId,
        writes: resolved.allowWrites,
        writesSkippedReason: resolved.writesSkippedReason,
        visibilityTimeoutMs,
        stopped: () => stop,
      },
      {
        deployment: resolved.name,
        shard: shard ? `${shard.index}/${shard.total}` : undefined,
        progress: (line) => io.out(line),
        interruptedBy: () => (stop ? (signal ?? 'SIGINT') : undefined),
      },
    );
    fromRegistry?.relabel(report);
    const secrets = [...envSecrets(io.env), ...live.connection.tokens.secrets()];
    writeRegressReports(reportDir, report, secrets, failOn === 'changed', reportDirFrom);
    if (client && fromRegistry && candidate && !report.interrupted)
      io.out(await recordVerdicts(client, candidate, report, fromRegistry.publications, secrets));
    // One line each, whatever a partner's name, file or recorded path holds (oneLine).
    for (const p of report.partners) {
      for (const x of p.notes.filter((n) => n.outcome === 'broken'))
        io.out(
          oneLine(
            `BROKEN ${p.partner} ${x.operationId ?? x.request} ${x.cassette}:${x.line}: ${x.findings
              .filter((f) => f.verdict === 'broken')
              .map((f) => `${f.kind}${f.pointer ? ` ${f.pointer}` : ''}`)
              .join(', ')}`,
          ),
        );
      for (const l of p.leftBehind) io.err(oneLine(`flis regress: ${p.partner}: left behind: ${l}`));
    }
    const t = report.totals;
    const exit = t.broken > 0 || (failOn === 'changed' && t.changed > 0) ? EXIT.checkFailed : EXIT.ok;
    if (report.interrupted) {
      io.out(`interrupted by ${report.interrupted}: the writes of run ${runId} were undone; ${reportDir}/regress.html`);
      return SIGNAL_EXIT[report.interrupted as StopSignal] ?? 130;
    }
    io.out(
      `flis regress: ${t.broken} broken, ${t.changed} changed within the contract, ${t.unchanged} unchanged of ${t.partners} partner(s); ${t.notReplayed} request(s) not replayed; ${reportDir}/regress.html; exit ${exit}`,
    );
    return exit;
  } finally {
    await live.close();
    fromRegistry?.remove();
  }
}

export const regressCommand: Command = {
  name: 'regress',
  help,
  run,
};
