/**
 * `flis run` and `flis certify` are one run with two faces: both parse their
 * options into one plan (parseRunPlan) and execute it the same way
 * (executeRun), so an option or environment variable one of them reads, the
 * other reads too. What differs is said by the plan: certify names a partner
 * and checks cassettes of the partner's client traffic; run can record, replay,
 * shard and switch the embedded mock's faults.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type ResolvedTarget, resolveTarget } from '../config/deployments.ts';
import { type OperationClaim, operationsFromList, operationsFromProfile } from '../config/partner-profile.ts';
import { oneOf, UsageError } from '../errors/flis-error.ts';
import { connectionOptionSpec, parseConnectionOptions } from '../net/connection-options.ts';
import { issuesTokens, type TokenOptions } from '../net/token-options.ts';
import type { ConnectionSettings } from '../net/types.ts';
import type { GateOptions } from '../reporting/gates.ts';
import type { RecordedRunLabels } from '../runner/cassette-target.ts';
import type { RunLimits } from '../runner/run-limits.ts';
import { checkRunId, newRunId, newSeed, type Progress } from '../runner/run-suites.ts';
import type { EmbeddedOptions } from '../runner/start-target.ts';
import { suiteNames } from '../runner/suite-names.ts';
import { parseReplayPath } from '../suites/lib/replay-path.ts';
import { registryUrl } from '../registry/client.ts';
import {
  flagOrEnv,
  flagOrEnvValue,
  intOption,
  listOption,
  namedValue,
  reportDirOf,
  shardOption,
  sourceName,
} from './args.ts';
import { gateOptionSpec, parseGates, strictOf } from './gate-options.ts';
import { limitOptionSpec, parseLimits } from './limit-options.ts';
import { embeddedOptions, embeddedOptionSpec, hasEmbeddedOptions, reproduceCommand } from './mock-options.ts';

/** The options both commands take. */
export const sharedRunOptionSpec = {
  deployment: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  suite: { type: 'string', multiple: true },
  seed: { type: 'string' },
  runs: { type: 'string' },
  explore: { type: 'string' },
  'visibility-timeout': { type: 'string' },
  'report-dir': { type: 'string' },
  progress: { type: 'string' },
  workers: { type: 'string' },
  distant: { type: 'boolean' },
  ...gateOptionSpec,
  ...limitOptionSpec,
  ...connectionOptionSpec,
} as const;

export const runOptionSpec = {
  ...sharedRunOptionSpec,
  'base-url': { type: 'string' },
  shard: { type: 'string' },
  record: { type: 'string' },
  cassette: { type: 'string' },
  path: { type: 'string' },
  ...embeddedOptionSpec,
} as const;

export const certifyOptionSpec = {
  ...sharedRunOptionSpec,
  partner: { type: 'string' },
  cassette: { type: 'string', multiple: true },
  'require-operations': { type: 'string' },
  'partner-profile': { type: 'string' },
  'client-command': { type: 'string' },
  publish: { type: 'string' },
} as const;

type Values = { [K in keyof typeof runOptionSpec]?: unknown } & {
  partner?: string;
  'require-operations'?: unknown;
  'partner-profile'?: unknown;
  'client-command'?: unknown;
  publish?: unknown;
};

export interface RunPlan {
  command: 'run' | 'certify';
  target: ResolvedTarget;
  /** flis certify: the partner named on the certificate, and cassettes of their client traffic. */
  partner?: string | undefined;
  clientCassettes: string[];
  /** flis certify: the operations the partner says its client integrates (--require-operations, --partner-profile). */
  clientClaim?: OperationClaim | undefined;
  /** flis certify --client-command: the partner's own command, run against each conformant variant of the mock. */
  clientCommand?: string | undefined;
  /** flis certify --publish URL: the registry the certificate and the cassette are published to when the run ends. */
  publish?: string | undefined;
  /** flis run --cassette: the cassette served offline and the run it was recorded from. */
  replay?: Replay | undefined;
  /** flis run --record: the cassette written. */
  record?: string | undefined;
  embedded: EmbeddedOptions;
  /** The flis command line that reruns an embedded-mock run. */
  reproduce?: string | undefined;
  suites?: string[] | undefined;
  seed?: number | undefined;
  /** --path (FLIS_PATH): the one failing property to replay by its path, `<property id>:<path>`. */
  path?: string | undefined;
  runs?: number | undefined;
  /** --explore N: the world-model explorer runs N times more sequences, N times longer (nightly CI). */
  explore?: number | undefined;
  visibilityTimeoutMs?: number | undefined;
  workers?: number | undefined;
  /** FLIS_CONCURRENCY: requests one worker may have in flight within a check (default: by the round trip). */
  concurrency?: number | undefined;
  /** --distant: take the deployment for a distant one whatever its round trip (a tunnel or a front on loopback). */
  distant?: boolean | undefined;
  progress: Progress;
  reportDir: string;
  /** Who named the report folder, for its errors: FLIS_REPORT_DIR, else --report-dir (or its default). */
  reportDirFrom: string;
  shard?: string | undefined;
  runId?: string | undefined;
  startedAt: number;
  gates: GateOptions;
  strict: boolean;
  limits: RunLimits;
  connection: { settings: ConnectionSettings; token: TokenOptions };
}

type Replay = { cassette: string; run: RecordedRunLabels & { deployment: string } };

/** "I/N" as Playwright's --shard takes it (cli/args.ts shardOption). */
export function parseShard(raw: string | undefined): string | undefined {
  const shard = shardOption(raw);
  return shard && `${shard.index}/${shard.total}`;
}

function selectSuites(raw: string[] | undefined, name = 'suite'): string[] | undefined {
  const wanted = listOption(name, raw);
  for (const s of wanted ?? []) oneOf(sourceName(name), s, suiteNames());
  return wanted;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function strs(v: unknown): string[] | undefined {
  return Array.isArray(v) ? (v as string[]) : typeof v === 'string' ? [v] : undefined;
}

/** The target: a cassette's recorded run, else --deployment/--base-url (certify defaults to the sandbox). */
function targetOf(
  command: RunPlan['command'],
  v: Values,
  env: NodeJS.ProcessEnv,
  replayed: Replay | undefined,
  token: TokenOptions,
): ResolvedTarget {
  const baseUrl =
    command === 'run' ? (namedValue('base-url', str(v['base-url'])) ?? (env.FLIS_BASE_URL || undefined)) : undefined;
  const deployment =
    namedValue('deployment', str(v.deployment)) ??
    (env.FLIS_DEPLOYMENT || undefined) ??
    (command === 'certify' ? 'sandbox' : undefined);
  if (replayed) {
    if (baseUrl || deployment)
      throw new UsageError('--cassette replays offline: it takes no --deployment or --base-url');
    return {
      name: `cassette of ${replayed.run.deployment}`,
      embedded: false,
      liveData: false,
      allowWrites: true,
      writesSkippedReason: '',
    };
  }
  return resolveTarget(
    {
      deployment: deployment || undefined,
      baseUrl: baseUrl || undefined,
      allowWrites: flagOrEnv(v['allow-writes'] as boolean | undefined, env.FLIS_ALLOW_WRITES, 'FLIS_ALLOW_WRITES'),
      // A token issued during the run (--token-url, --token-command) needs none in the environment.
      tokenIssued: issuesTokens(token),
    },
    env,
  );
}

/** Parse and check every option (and its environment variable) before anything starts. */
export async function parseRunPlan(command: RunPlan['command'], v: Values, env: NodeJS.ProcessEnv): Promise<RunPlan> {
  // The flags that need nothing but themselves are checked first, so their mistakes are the ones named.
  const partner = partnerOf(command, v);
  const clientClaim = command === 'certify' ? claimOf(v, env) : undefined;
  const limits = parseLimits(v as Parameters<typeof parseLimits>[0], env);
  const gates = parseGates(v as Parameters<typeof parseGates>[0]);
  const progress = oneOf<Progress>('--progress', str(v.progress) ?? 'list', ['list', 'dot', 'none']);
  const shard = command === 'run' ? parseShard(str(v.shard)) : undefined;
  const { record, cassettes, replay } = await cassettesOf(command, v);
  const connection = parseConnectionOptions(v as Parameters<typeof parseConnectionOptions>[0], env);
  const target = targetOf(command, v, env, replay, connection.token);
  const embedded = embeddedOptions(v);
  if (!target.embedded && hasEmbeddedOptions(embedded))
    throw new UsageError(
      `--mock-fault, --mock-variant, --mock-write-delay, --mock-webhook-fault and --mock-drift apply only to the embedded mock, not to '${target.name}'`,
    );
  const shape = runShapeOf(v, env, replay, !!record || target.embedded);
  const path = command === 'run' ? replayPathOption(flagOrEnvValue('path', str(v.path), env, 'FLIS_PATH')) : undefined;
  // A recorded or replayed run uses one worker, so repeated requests keep their recorded order.
  const workers = record || replay ? 1 : intOption('workers', str(v.workers), { min: 1, max: 64 });
  // Before any test runs: a cassette that cannot be read must not cost the user the whole run first.
  const clientCassettes = command === 'certify' ? await checkedCassettes(cassettes) : [];
  const publish = command === 'certify' ? publishOf(v, env, clientCassettes) : undefined;
  return {
    command,
    target,
    clientCassettes,
    embedded,
    progress,
    ...reportDirOf(str(v['report-dir']), env),
    // Shards of one CI run share the run id, so what they write is tagged alike and the merged certificate names one run.
    runId:
      replay?.run.runId ??
      (env.FLIS_RUN_ID ? checkRunId(env.FLIS_RUN_ID, 'FLIS_RUN_ID') : record ? newRunId() : undefined),
    startedAt: replay?.run.startedAt ?? Date.now(),
    gates,
    strict: strictOf(v as { strict?: boolean }, env),
    limits,
    connection,
    partner,
    clientClaim,
    clientCommand: command === 'certify' ? str(v['client-command'])?.trim() || clientCommandFromEnv(env) : undefined,
    publish,
    replay,
    record: record ? resolve(record) : undefined,
    ...shape,
    path,
    workers,
    distant: v.distant === true ? true : undefined,
    shard,
    reproduce: target.embedded ? reproduceOf(v, shape, embedded) : undefined,
  };
}

/** A property path to replay, as a failure prints it; anything else is refused naming the setting (exit 2). */
function replayPathOption(given: { raw: string | undefined; name: string }): string | undefined {
  if (given.raw === undefined || given.raw === '') return undefined;
  if (!parseReplayPath(given.raw))
    throw new UsageError(
      `${sourceName(given.name)} must be a failing property's id and path as its failure prints them (e.g. 0f3a9c-7b21.1:3:1:0); got '${given.raw}'`,
    );
  return given.raw.trim();
}

/** flis certify names the partner the certificate is for; flis run has none. */
function partnerOf(command: RunPlan['command'], v: Values): string | undefined {
  if (command !== 'certify') return undefined;
  const partner = str(v.partner)?.trim();
  if (!partner)
    throw new UsageError(
      "--partner NAME is required: the certificate is named for the partner (see 'flis certify --help')",
    );
  return partner;
}

/** --record FILE or --cassette FILE for flis run (not both); flis certify's --cassette files are client traffic. */
async function cassettesOf(
  command: RunPlan['command'],
  v: Values,
): Promise<{ record: string | undefined; cassettes: string[]; replay: Replay | undefined }> {
  const record = command === 'run' ? str(v.record) : undefined;
  const cassettes = strs(v.cassette)?.map((f) => resolve(f)) ?? [];
  const replayFile = command === 'run' ? cassettes[0] : undefined;
  if (record && replayFile) throw new UsageError('give either --record FILE or --cassette FILE, not both');
  const { recordedRun } = await import('../runner/cassette-target.ts');
  const replay = replayFile ? { cassette: replayFile, run: recordedRun(replayFile) } : undefined;
  return { record, cassettes, replay };
}

type RunShape = Pick<RunPlan, 'suites' | 'seed' | 'runs' | 'explore' | 'concurrency' | 'visibilityTimeoutMs'>;

/**
 * What the suites run and how: a replay reruns its recorded run's suites, seed and runs. The seed is drawn here, not
 * by the runner, when the run must be reproducible (recorded, or against the embedded mock). An error names the
 * setting made.
 */
function runShapeOf(v: Values, env: NodeJS.ProcessEnv, replay: Replay | undefined, needsSeed: boolean): RunShape {
  const suites =
    (strs(v.suite)
      ? selectSuites(strs(v.suite))
      : selectSuites(env.FLIS_SUITES ? [env.FLIS_SUITES] : undefined, 'FLIS_SUITES')) ?? replay?.run.suites;
  const seedIn = flagOrEnvValue('seed', str(v.seed), env, 'FLIS_SEED');
  const runsIn = flagOrEnvValue('runs', str(v.runs), env, 'FLIS_RUNS');
  const exploreIn = flagOrEnvValue('explore', str(v.explore), env, 'FLIS_EXPLORE');
  const seed =
    replay?.run.seed ?? intOption(seedIn.name, seedIn.raw, { max: 2 ** 31 - 1 }) ?? (needsSeed ? newSeed() : undefined);
  return {
    suites,
    seed,
    runs: replay?.run.runs ?? intOption(runsIn.name, runsIn.raw, { min: 1, max: 100_000 }),
    explore: replay?.run.explore ?? intOption(exploreIn.name, exploreIn.raw, { min: 1, max: 1_000 }),
    concurrency: intOption('FLIS_CONCURRENCY', env.FLIS_CONCURRENCY || undefined, { min: 1, max: 64 }),
    visibilityTimeoutMs: intOption('visibility-timeout', str(v['visibility-timeout']), { max: 3_600_000 }),
  };
}

/** The command line that reruns an embedded-mock run; the default variant goes unsaid. */
function reproduceOf(v: Values, shape: RunShape, embedded: EmbeddedOptions): string {
  const variantName = str(v['mock-variant']);
  return reproduceCommand({
    seed: shape.seed as number,
    embedded,
    variantName: variantName && variantName !== 'default' ? variantName : undefined,
    suites: shape.suites,
    runs: shape.runs,
    explore: shape.explore,
    visibilityTimeoutMs: shape.visibilityTimeoutMs,
  });
}

/**
 * --publish URL (FLIS_PUBLISH): the registry, checked with its token before the run, and one cassette at most (the
 * registry replays one per partner; its secrets are scanned when the run ends, before anything is sent).
 */
function publishOf(v: Values, env: NodeJS.ProcessEnv, cassettes: string[]): string | undefined {
  const given = flagOrEnvValue('publish', str(v.publish), env, 'FLIS_PUBLISH');
  if (!given.raw) return undefined;
  const url = registryUrl(given.raw, sourceName(given.name));
  if (!env.FLIS_REGISTRY_TOKEN?.trim())
    throw new UsageError(`${sourceName(given.name)} needs the partner's registry token in FLIS_REGISTRY_TOKEN`);
  if (cassettes.length > 1)
    throw new UsageError(
      `${sourceName(given.name)} publishes one cassette of the partner's traffic; got ${cassettes.length} --cassette files: record the client once into one cassette`,
    );
  return url;
}

function clientCommandFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  return env.FLIS_CLIENT_COMMAND?.trim() || undefined;
}

/** --require-operations LIST or --partner-profile FILE (each also from the environment), not both. */
function claimOf(v: Values, env: NodeJS.ProcessEnv): OperationClaim | undefined {
  const list = str(v['require-operations']) ?? (env.FLIS_REQUIRE_OPERATIONS || undefined);
  const profile = str(v['partner-profile']) ?? (env.FLIS_PARTNER_PROFILE || undefined);
  if (list && profile)
    throw new UsageError('give either --require-operations LIST or --partner-profile FILE, not both');
  if (list) return operationsFromList(list);
  return profile ? operationsFromProfile(resolve(profile)) : undefined;
}

/** Every cassette exists and reads whole (a format mistake names its file and line), as certify will read it. */
async function checkedCassettes(files: string[]): Promise<string[]> {
  for (const f of files)
    if (!existsSync(f)) throw new UsageError(`--cassette ${f}: no such file (record one with 'flis record')`);
  const { forEachCassetteExchange } = await import('../reporting/cassettes.ts');
  for (const f of files) forEachCassetteExchange(f, () => {});
  return files;
}

export { executeRun } from './execute-run.ts';
