/**
 * Serving a cassette offline: the recorder in `replay` mode, which never
 * contacts an upstream. `flis replay` and `flis run --cassette` use this.
 */
import type { MatchOptions } from './match.ts';
import { startRecorder, type LogKind } from './proxy.ts';

export interface ReplayServerOptions {
  cassette: string;
  port?: number | undefined;
  host?: string | undefined;
  match?: Partial<MatchOptions> | undefined;
  log?: ((line: string, kind: LogKind) => void) | undefined;
  /** Whose token variables are kept out of miss answers and logs; default process.env. */
  env?: NodeJS.ProcessEnv | undefined;
}

export interface ReplayServer {
  /** Ends in /apis/v0. */
  baseUrl: string;
  close(): Promise<void>;
}

/** Throws CassetteParseError (FLIS_ERR_CASSETTE_PARSE, naming file and line) for a bad cassette. */
export async function startReplayServer(o: ReplayServerOptions): Promise<ReplayServer> {
  const r = await startRecorder({
    mode: 'replay',
    cassette: o.cassette,
    port: o.port,
    host: o.host || undefined,
    match: o.match,
    log: o.log,
    // No secret is written in replay, but a miss answer echoes the request: the environment's tokens stay out of it.
    env: o.env,
  });
  return { baseUrl: r.baseUrl, close: () => r.close() };
}
