/**
 * What the recorder's parts share: its options, its running state (Ctx) and
 * one in-flight request (Pending). Kept apart so the server, the forwarding
 * and the recording of exchanges can live in files of their own.
 */
import type { Dispatcher } from 'undici';
import type { TokenSource } from '../net/types.ts';
import type { CassetteWriter } from './cassette-writer.ts';
import type { Matcher, MatchOptions } from './match.ts';
import type { Mode } from './modes.ts';
import type { RedactionPolicy, Redactor } from './redact.ts';
import type { ExchangeStore } from './replay-store.ts';
import type { Secret } from './secrets.ts';
import type { Upstream } from './upstream.ts';
import type { WriteQueue } from './write-queue.ts';

export interface RecorderOptions {
  mode: Mode;
  cassette: string;
  /** Needed unless mode is `replay`. `deployment` is the name written in the cassette header (never a token). */
  upstream?: { baseUrl: string; deployment: string | null } | undefined;
  host?: string | undefined;
  port?: number | undefined;
  /** Secret values to keep out of the cassette; default: every token variable of `env`. */
  secrets?: Secret[];
  env?: NodeJS.ProcessEnv | undefined;
  /** Header names to keep besides the allow-list. */
  keepHeaders?: string[];
  /** Spread over the defaults (recorder/match.ts): a key given here, even undefined, replaces the default's. */
  match?: Partial<MatchOptions> | undefined;
  /** The most body bytes written per body; more streams through but is not kept. */
  maxBodyBytes?: number | undefined;
  upstreamTimeoutMs?: number | undefined;
  /**
   * How to reach the upstream (net/connection.ts): its dispatcher (proxy, CAs, client certificate; without one,
   * the recorder's own keep-alive Pool) and tokens.
   * A request carrying a token the source issued is sent with the current one, and refreshed once on a 401
   * invalid_token when its body is held whole; every secret the source learns is redacted from then on.
   */
  connection?: { dispatcher?: Dispatcher; tokens: TokenSource } | undefined;
  /** Append each exchange before its answer ends, and fdatasync it (default: write-behind, recorder/write-queue.ts). */
  durable?: boolean;
  /** Written in the cassette header (e.g. a suite run's runId and seed); never secrets. */
  labels?: Record<string, string>;
  /** Live messages: violations, misses, upstream failures, refused writes. Never carries a secret. */
  log?: ((line: string, kind: LogKind) => void) | undefined;
  /** Also log one `exchange` line per checked exchange (flis record; off for recorded suite runs and replays). */
  logExchanges?: boolean;
}

/** `exchange`: one short line per checked exchange (method, path, status, contract verdict). */
export type LogKind =
  | 'exchange'
  | 'violation'
  /** A body cut at --max-body-bytes, whose schema is not judged. */
  | 'not-judged'
  | 'miss'
  | 'upstream-failure'
  | 'refused-write'
  | 'internal'
  | 'cassette-tail';

export interface RecorderStats {
  exchanges: number;
  written: number;
  replayed: number;
  misses: number;
  failures: number;
  violations: number;
  /** Bodies cut at --max-body-bytes, whose schema could not be judged (each said in a 'not-judged' log line). */
  notJudged: number;
  refusedWrites: number;
}

export interface Recorder {
  /** The base URL clients point at, ending in /apis/v0. */
  baseUrl: string;
  stats: RecorderStats;
  close(): Promise<void>;
}

export interface Ctx {
  o: RecorderOptions;
  redactor: Redactor;
  headers: RedactionPolicy;
  matcher: Matcher | undefined;
  /** Reads matched exchanges from the cassette file (replayFirst modes). */
  store: ExchangeStore | undefined;
  matchOptions: MatchOptions;
  writer: CassetteWriter | undefined;
  /** Checks and appends completed exchanges after their answers (recorder/write-queue.ts). */
  queue: WriteQueue;
  upstream: Upstream | undefined;
  upstreamName: string;
  /** The connection's token source, when the command has one. */
  tokens: TokenSource | undefined;
  cap: number;
  stats: RecorderStats;
  log: (line: string, kind: LogKind) => void;
}

/** One request in flight. */
export interface Pending {
  t0: number;
  startedAt: string;
  rel: string;
  search: string;
  /** Shared by every request of the same target (recorder/proxy.ts targetOf): read it, never change it. */
  url: URL;
  authorization: string | undefined;
  redactor: Redactor;
}

export function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
