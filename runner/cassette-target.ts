/**
 * `flis run --record FILE` and `flis run --cassette FILE`: a suite run recorded
 * through the recording proxy, and the same run replayed offline from it. The
 * cassette header keeps the run id, seed and suites (labels, never a secret),
 * because the suites tag every id with the run id and generate bodies from the
 * seed: the replayed run must send the same requests to find them recorded.
 * Both use one worker, so requests that repeat meet their answers in recorded order.
 */
import { readCassetteHeader } from '../recorder/cassette-reader.ts';
import { startRecorder } from '../recorder/proxy.ts';
import { startReplayServer } from '../recorder/replay-server.ts';
import { ConfigError } from '../errors/flis-error.ts';
import { checkRunId } from './run-suites.ts';
import type { LiveTarget } from './start-target.ts';

export interface RecordedRunLabels {
  runId: string;
  seed: number;
  runs?: number | undefined;
  /** --explore: how far the world-model explorer went (its requests depend on it). */
  explore?: number | undefined;
  suites?: string[] | undefined;
  /** The run's clock for request values (suites/lib/clock.ts). */
  startedAt: number;
}

const REPLAY_TOKEN = 'flis-replay-token';

function labelsToStrings(l: RecordedRunLabels): Record<string, string> {
  return {
    runId: l.runId,
    seed: String(l.seed),
    startedAt: String(l.startedAt),
    ...(l.runs !== undefined ? { runs: String(l.runs) } : {}),
    ...(l.explore !== undefined ? { explore: String(l.explore) } : {}),
    ...(l.suites ? { suites: l.suites.join(',') } : {}),
  };
}

/** Put the recording proxy in front of a live target; the suites talk to the proxy. */
export async function recordThrough(
  live: LiveTarget,
  cassette: string,
  deployment: string,
  labels: RecordedRunLabels,
  log: (line: string) => void,
): Promise<LiveTarget> {
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  try {
    recorder = await startRecorder({
      mode: 'record',
      cassette,
      upstream: { baseUrl: live.baseUrl, deployment },
      secrets: [{ label: 'the run token', value: live.token }],
      labels: labelsToStrings(labels),
      log,
    });
  } catch (e) {
    // A cassette that cannot be written (a directory, locked, read-only): stop the target too, or the run hangs on it.
    await live.close();
    throw e;
  }
  return {
    baseUrl: recorder.baseUrl,
    token: live.token,
    close: async () => {
      await recorder.close();
      await live.close();
    },
  };
}

/** A label that holds a whole number as flis writes one (decimal digits), else undefined. */
function wholeLabel(raw: string | undefined): number | undefined {
  const n = raw !== undefined && /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The run a cassette was recorded from: what the replayed run must reuse. */
export function recordedRun(cassette: string): RecordedRunLabels & { deployment: string } {
  // The header alone: a cassette of any size (or with a torn tail, which replay ignores) answers at once.
  const header = readCassetteHeader(cassette);
  const labels = header.labels ?? {};
  const seed = wholeLabel(labels.seed);
  const startedAt = wholeLabel(labels.startedAt);
  if (!labels.runId || seed === undefined || startedAt === undefined) {
    throw new ConfigError(
      'this cassette was not recorded from a suite run (no runId, seed and startedAt labels); record one with `flis run --record FILE`',
      { file: cassette, line: 1 },
    );
  }
  /** A count label flis writes when it was set: a whole number of at least 1, or absent. */
  const count = (name: 'runs' | 'explore'): number | undefined => {
    const raw = labels[name];
    if (raw === undefined) return undefined;
    const n = wholeLabel(raw);
    if (!n)
      throw new ConfigError(`the ${name} label must be a whole number of at least 1; got ${JSON.stringify(raw)}`, {
        file: cassette,
        line: 1,
      });
    return n;
  };
  return {
    runId: checkRunId(labels.runId, 'the runId label', { file: cassette, line: 1 }),
    seed,
    startedAt,
    deployment: header.deployment ?? 'ad-hoc',
    runs: count('runs'),
    explore: count('explore'),
    suites: labels.suites ? labels.suites.split(',') : undefined,
  };
}

/** Serve a cassette offline as the target. Auth is not checked on replay, so any token does. */
export async function startCassetteTarget(cassette: string): Promise<LiveTarget> {
  const server = await startReplayServer({ cassette });
  return { baseUrl: server.baseUrl, token: REPLAY_TOKEN, close: () => server.close() };
}
