import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveTarget } from '../../config/deployments.ts';
import { UsageError } from '../../errors/flis-error.ts';
import { CONNECTION_HELP, connectionOptionSpec, parseConnectionOptions } from '../../net/connection-options.ts';
import { checkDiffFolder, claimDiffFolder } from '../../reporting/report-folder.ts';
import { issuesTokens } from '../../net/token-options.ts';
import { type Difference, differencesByOperation } from '../../reporting/shape-diff.ts';
import { redactText } from '../../suites/lib/worker/redact.ts';
import { DEFAULT_VISIBILITY_TIMEOUT_MS } from '../../suites/lib/suite-env.ts';
import { runDifferential } from '../../runner/differential.ts';
import { newRunId, newSeed } from '../../runner/run-suites.ts';
import { reportDirOf } from '../args.ts';
import { intOption, parseCommandArgs } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';
import { type Reached, reachTarget } from '../reach-target.ts';
import { markdownText } from '../../reporting/escape-markdown.ts';

const help = `Usage: flis diff --deployment A --deployment B [--seed N] [options]

Send the same requests, generated from one seed, to two deployments (e.g. --deployment mock
--deployment sandbox) and report, per operation, where their answers differ beyond what the contract
leaves open. Reported: one deployment answering 2xx where the other answers 4xx or 5xx; a documented
field present in one's answers and absent from the other's; a documented field of a pinned type answered
as another type. Never reported: the exact success or error code (not shown), values, ordering,
undocumented extra fields, null for a nullable field, bodies of the section 4.3 operations (not shown).

  --deployment NAME        exactly two, as for 'flis run' (embedded starts a mock)
  --seed N                 seed of the generated inputs (default: random, printed)
  --runs N                 generated inputs per generated operation (default 5)
  --allow-writes           also upsert generated offers (run-tagged, cancelled afterwards) and compare the
                           read-back; only when both deployments allow writes
  --visibility-timeout MS  how long to wait for a write to show up (default ${DEFAULT_VISIBILITY_TIMEOUT_MS})
  --report-dir DIR         where diff.json and diff.md go (default reports/)          [env FLIS_REPORT_DIR]
Exit codes: 0 no difference, 1 a difference beyond what the contract leaves open, 2 usage error.

${CONNECTION_HELP}
  They apply to each deployment that is not the embedded mock (which is reached directly).`;

const options = {
  deployment: { type: 'string', multiple: true },
  seed: { type: 'string' },
  runs: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  'visibility-timeout': { type: 'string' },
  'report-dir': { type: 'string' },
  ...connectionOptionSpec,
} as const;

function markdown(names: [string, string], seed: number, diffs: Difference[], sent: number): string {
  const rows = diffs.map(
    (d) =>
      `| ${d.operationId} | ${d.kind} | ${markdownText(d.path ?? '')} | ${markdownText(d.a)} | ${markdownText(d.b)} | ${markdownText(d.request)} |`,
  );
  return [
    `# flis diff: ${names[0]} vs ${names[1]}`,
    '',
    `Seed ${seed}; ${sent} request(s) sent to each.`,
    '',
    ...(diffs.length
      ? [`| operation | kind | path | ${names[0]} | ${names[1]} | request |`, '|---|---|---|---|---|---|', ...rows]
      : ['No difference beyond what the contract leaves open.']),
    '',
  ].join('\n');
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values: v } = parseCommandArgs('diff', argv, options);
  if (v.help) {
    io.out(help);
    return EXIT.ok;
  }
  const names = v.deployment ?? [];
  if (names.length !== 2) throw new UsageError(`exactly two --deployment options are required; got ${names.length}`);
  const seed = intOption('seed', v.seed, { max: 2 ** 31 - 1 }) ?? newSeed();
  const runs = intOption('runs', v.runs, { min: 1, max: 1000 }) ?? 5;
  const visibilityTimeoutMs =
    intOption('visibility-timeout', v['visibility-timeout'], { max: 3_600_000 }) ?? DEFAULT_VISIBILITY_TIMEOUT_MS;
  const { reportDir, reportDirFrom } = reportDirOf(v['report-dir'], io.env);
  const net = parseConnectionOptions(v, io.env);
  const resolved = names.map((n) =>
    resolveTarget(
      { deployment: n, allowWrites: v['allow-writes'] === true, tokenIssued: issuesTokens(net.token) },
      io.env,
    ),
  );
  const writes = resolved.every((r) => r.allowWrites);
  // Before either deployment is reached: a report folder flis may not write is one line, not a wasted diff.
  checkDiffFolder(reportDir, reportDirFrom);
  const live: Reached[] = [];
  try {
    for (const [i, r] of resolved.entries()) live.push(await reachTarget(names[i] ?? '', r, net, io.env));
    const [a, b] = live.map((l) => ({ name: l.name, baseUrl: l.baseUrl, connection: l.connection }));
    io.out(
      `flis diff: ${a!.name} (${a!.baseUrl}) vs ${b!.name} (${b!.baseUrl}), seed ${seed}${writes ? '' : ', reads only'}`,
    );
    const { pairs, leftBehind } = await runDifferential(a!, b!, {
      seed,
      runs,
      runId: newRunId(),
      writes,
      visibilityTimeoutMs,
    });
    const diffs = differencesByOperation(pairs);
    // Every token issued during the diff, the client secret and proxy credentials, learnt by now.
    const secrets = live.flatMap((l) => l.connection.tokens.secrets());
    claimDiffFolder(reportDir, reportDirFrom);
    writeFileSync(
      join(reportDir, 'diff.json'),
      redactText(
        `${JSON.stringify({ deployments: names, seed, requests: pairs.length, differences: diffs }, null, 2)}\n`,
        secrets,
      ),
    );
    writeFileSync(
      join(reportDir, 'diff.md'),
      redactText(markdown([names[0]!, names[1]!], seed, diffs, pairs.length), secrets),
    );
    for (const d of diffs)
      io.out(
        `DIFFERS ${d.operationId} ${d.kind}${d.path ? ` ${d.path}` : ''}: ${names[0]} ${d.a}, ${names[1]} ${d.b} (${d.request})`,
      );
    for (const l of leftBehind) io.err(`flis diff: left behind: ${l}`);
    io.out(`${diffs.length} difference(s) over ${pairs.length} request(s); ${join(reportDir, 'diff.md')}`);
    return diffs.length ? EXIT.checkFailed : EXIT.ok;
  } finally {
    for (const l of live) await l.close();
  }
}

export const diffCommand: Command = {
  name: 'diff',
  help,
  run,
};
