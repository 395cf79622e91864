/**
 * Reaching a resolved target, the one place flis does it. Two ways, one per kind of user:
 * - `reachTarget`, for a run of the suites (`flis run`, `flis certify`): the target (the embedded mock, a deployment,
 *   or a cassette served offline), the connection that reaches it (dispatcher and token source), the gateway every
 *   request passes through, and with --record the recording proxy in front of the gateway:
 *   worker → recorder → gateway → deployment. A cassette replay needs no gateway: it is answered locally and never
 *   throttles.
 * - `reachDirect`, for a command that sends its own requests (`flis diff`, `flis regress`): the embedded mock is
 *   started in this process and reached directly with its minted token; any other deployment gets its connection
 *   (proxy, CAs, client certificate, token source) opened and checked before anything is sent.
 */
import { secretsWithDerived } from '../core/redact.ts';
import { Agent } from 'undici';
import type { ResolvedTarget } from '../config/deployments.ts';
import { closeConnection, openConnection, withoutProxyEnv } from '../net/connection.ts';
import { checkConnection } from '../net/preflight.ts';
import { StaticToken } from '../net/static-token.ts';
import { withTargetToken, type TokenOptions } from '../net/token-options.ts';
import type { Connection, ConnectionSettings } from '../net/types.ts';
import type { NetworkFacts } from '../reporting/certificate-types.ts';
import { type RecordedRunLabels, recordThrough, startCassetteTarget } from './cassette-target.ts';
import { type Gateway, startGateway } from './gateway.ts';
import { probeTarget } from './probe-target.ts';
import { isLoopbackHost, medianMs, type RunLimits } from './run-limits.ts';
import { type EmbeddedOptions, type LiveTarget, startTarget } from './start-target.ts';

export interface ReachOptions {
  target: ResolvedTarget;
  embedded?: EmbeddedOptions;
  /** Serve this cassette offline instead (flis run --cassette). */
  replay?: string | undefined;
  /** Record the run's traffic into this cassette (flis run --record). */
  record?: { cassette: string; labels: RecordedRunLabels; log: (line: string) => void } | undefined;
  connection?: { settings: ConnectionSettings; token: TokenOptions };
  limits?: RunLimits;
  env: NodeJS.ProcessEnv;
}

/** A target made reachable: where requests go, and how to let go of it (and of what reaching it started). */
export interface Reached {
  baseUrl: string;
  close(): Promise<void>;
}

/** A target reached for a command that sends its own requests: its own connection, no gateway. */
export interface ReachedDirect extends Reached {
  /** The name the command knows the target by (a deployment, or the side of a diff). */
  name: string;
  connection: Connection;
}

/** A target reached for a run of the suites. */
export interface ReachedRun extends Reached {
  /** Where the workers send (the gateway, or the recorder in front of it, or the replay server). */
  baseUrl: string;
  /** The deployment's own base URL, as failure records and curl commands show it. */
  publicBaseUrl: string;
  /** The token the workers are given; the gateway sends the current one in its place. */
  token: string;
  /** The nonce of the gateway's synthetic answers; absent on a replay. */
  gatewayNonce?: string;
  /** Every secret of the run so far: each token issued, the client secret, proxy credentials. */
  secrets(): string[];
  /** What reaching the deployment took, for run.json and the certificate. */
  network(): NetworkFacts | undefined;
  /** The median of a few round trips to the deployment (ms); absent for the embedded mock, a replay and a loopback host. */
  roundTripMs?: number | undefined;
}

/** The embedded mock is in this process on loopback: no proxy (HTTP_PROXY must not catch it), no CA, its own token. */
function embeddedConnection(token: string): Connection {
  return { settings: {}, dispatcher: new Agent(), tokens: new StaticToken(token) };
}

async function closeAll(...closers: (() => Promise<void>)[]): Promise<void> {
  for (const close of closers) await close().catch(() => {});
}

async function replay(cassette: string): Promise<ReachedRun> {
  const live = await startCassetteTarget(cassette);
  return {
    baseUrl: live.baseUrl,
    publicBaseUrl: live.baseUrl,
    token: live.token,
    secrets: () => secretsWithDerived([live.token]),
    network: () => undefined,
    close: () => live.close(),
  };
}

/** Round trips measured to tell how far away a deployment is, after one that opens the connection. */
export const ROUND_TRIP_PROBES = 5;

/**
 * How far away the deployment is: the median of a few GETs of the base URL without a token (any answer will do),
 * after one that pays for the connection (proxy tunnel, TLS). Absent for a loopback host, whose round trip measures
 * how busy this machine is rather than any network, and when a probe gets no answer.
 */
async function roundTrip(connection: Connection, baseUrl: string): Promise<number | undefined> {
  const url = new URL(baseUrl);
  if (isLoopbackHost(url.hostname)) return undefined;
  const samples: number[] = [];
  for (let i = 0; i <= ROUND_TRIP_PROBES; i++) {
    const started = performance.now();
    try {
      const res = await connection.dispatcher.request({
        origin: url.origin,
        path: url.pathname,
        method: 'GET',
        signal: AbortSignal.timeout(5_000),
      });
      await res.body.dump();
    } catch {
      break;
    }
    if (i > 0) samples.push(performance.now() - started);
  }
  return medianMs(samples);
}

async function connect(opts: ReachOptions): Promise<Connection | undefined> {
  if (opts.target.embedded) return undefined;
  const c = opts.connection ?? { settings: {}, token: { kind: 'static' } as TokenOptions };
  const connection = await openConnection(c.settings, withTargetToken(c.token, opts.target.token), opts.env);
  // The probe goes the way the suites will: an unreachable deployment exits 2 before any suite runs.
  if (opts.target.baseUrl) {
    try {
      await probeTarget(opts.target.baseUrl, undefined, connection, opts.env);
    } catch (error) {
      await closeAll(
        () => connection.tokens.close(),
        () => connection.dispatcher.close(),
      );
      throw error;
    }
  }
  return connection;
}

export async function reachTarget(opts: ReachOptions): Promise<ReachedRun> {
  if (opts.replay) return replay(opts.replay);
  const opened = await connect(opts);
  let target: LiveTarget;
  try {
    target = await startTarget(opts.target, opts.embedded);
  } catch (error) {
    if (opened)
      await closeAll(
        () => opened.tokens.close(),
        () => opened.dispatcher.close(),
      );
    throw error;
  }
  const connection = opened ?? embeddedConnection(target.token);
  const roundTripMs = opened ? await roundTrip(opened, target.baseUrl) : undefined;
  const token = await connection.tokens.current();
  const gateway: Gateway = await startGateway({
    upstreamBaseUrl: target.baseUrl,
    connection,
    ...(opts.limits ?? {}),
  });
  const closeChain = async () =>
    closeAll(
      () => gateway.close(),
      () => target.close(),
      () => connection.tokens.close(),
      () => connection.dispatcher.close(),
    );
  const front = opts.record
    ? await recordThrough(
        { baseUrl: gateway.baseUrl, token, close: closeChain },
        opts.record.cassette,
        opts.target.name,
        opts.record.labels,
        opts.record.log,
      )
    : { baseUrl: gateway.baseUrl, close: closeChain };
  return {
    baseUrl: front.baseUrl,
    publicBaseUrl: target.baseUrl,
    token,
    gatewayNonce: gateway.nonce,
    secrets: () => [...new Set([...secretsWithDerived([token, target.token]), ...connection.tokens.secrets()])],
    network: () => {
      const s = gateway.stats();
      return { ...s, tokenRefreshes: Math.max(s.tokenRefreshes, connection.tokens.refreshes().length) };
    },
    close: () => front.close(),
    roundTripMs: roundTripMs !== undefined ? Math.round(roundTripMs) : undefined,
  };
}

export async function reachDirect(
  name: string,
  r: ResolvedTarget,
  net: { settings: ConnectionSettings; token: TokenOptions },
  env: NodeJS.ProcessEnv,
  embedded: EmbeddedOptions = {},
): Promise<ReachedDirect> {
  if (r.embedded) {
    const live = await startTarget(r, embedded);
    const connection = await openConnection({}, { kind: 'static', token: live.token }, withoutProxyEnv(env)).catch(
      async (e: unknown) => {
        await live.close();
        throw e;
      },
    );
    const close = async () => {
      await closeConnection(connection);
      await live.close();
    };
    return { name, baseUrl: live.baseUrl, connection, close };
  }
  const baseUrl = r.baseUrl!;
  const connection = await openConnection(net.settings, withTargetToken(net.token, r.token), env);
  try {
    await checkConnection(connection, baseUrl, env);
  } catch (e) {
    await closeConnection(connection);
    throw e;
  }
  return { name, baseUrl, connection, close: () => closeConnection(connection) };
}
