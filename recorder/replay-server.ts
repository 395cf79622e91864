/**
 * Serving a cassette offline: the recorder in `replay` mode, which never
 * contacts an upstream. `flis replay` and `flis run --cassette` use this.
 */
import type { MatchOptions } from './match.ts';
import { startRecorder, type LogKind } from './proxy.ts';

export interface ReplayServerOptions {
  cassette: string;
  port?: number;
  host?: string;
  match?: Partial<MatchOptions>;
  log?: (line: string, kind: LogKind) => void;
  /** Whose token variables are kept out of miss answers and logs; default process.env. */
  env?: NodeJS.ProcessEnv;
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
    ...(o.port !== undefined ? { port: o.port } : {}),
    ...(o.host ? { host: o.host } : {}),
    ...(o.match ? { match: o.match } : {}),
    ...(o.log ? { log: o.log } : {}),
    // No secret is written in replay, but a miss answer echoes the request: the environment's tokens stay out of it.
    ...(o.env ? { env: o.env } : {}),
  });
  return { baseUrl: r.baseUrl, close: () => r.close() };
}
