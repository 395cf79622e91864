/**
 * The cassette format, version 1, as types. A cassette is a YAML multi-document
 * stream: the first document is the header, each following document is one
 * exchange, and every document ends with the YAML end marker `...` so that a
 * document torn by a crash (no end marker) is told apart from a complete one.
 */

export const CASSETTE_FORMAT = 1;
export const CASSETTE_KIND = 'flis-cassette';
/** The value that stands where a secret was (the same placeholder the suites use in their reports). */
export const REDACTED = '[REDACTED]';

export interface CassetteHeader {
  format: typeof CASSETTE_FORMAT;
  kind: typeof CASSETTE_KIND;
  recordedAt: string;
  /** Deployment name from specs/deployments.yaml, or null when recorded against a bare URL. */
  deployment: string | null;
  /** The upstream base URL with any credentials stripped. */
  upstream: string | null;
  specVersion: string;
  tool: { name: string; version: string };
  /**
   * What the recording was made for, given by whoever started it: e.g. the
   * suite run's `runId` and `seed`, which a replayed run must reuse to send
   * the same requests. Never a secret. Absent when none were given.
   */
  labels?: Record<string, string>;
}

/**
 * A body as stored. JSON bodies whose compact serialisation reproduces the
 * received bytes are stored as native YAML (`json`), so replay sends the same
 * bytes; other UTF-8 text is `text`; anything else is `base64`.
 */
export type BodyEncoding = 'json' | 'text' | 'base64';

export interface StoredBody {
  encoding: BodyEncoding;
  /** The JSON value for `json`, the string for `text` and `base64`. */
  value: unknown;
  /** Bytes received on the wire (may exceed what was kept). */
  size: number;
  /** True when more than the configured cap arrived and only the cap was kept. */
  truncated: boolean;
}

export type HeaderMap = Record<string, string | string[]>;
/** Query parameters by name; a name given several times keeps its values in order. */
export type QueryMap = Record<string, string | string[]>;

export interface RecordedRequest {
  method: string;
  /** Path relative to the base URL (without `/apis/v0`), e.g. "/offers/abc". */
  path: string;
  query: QueryMap;
  headers: HeaderMap;
  body: StoredBody | null;
}

export interface RecordedResponse {
  status: number;
  headers: HeaderMap;
  body: StoredBody | null;
  timing: { durationMs: number; firstByteMs: number };
}

/** Why the upstream gave no normal answer; the response then is the recorder's own 502/504. */
export interface UpstreamFailure {
  kind: 'refused' | 'reset' | 'timeout' | 'other';
  code: string;
  message: string;
}

/** One contract violation seen in recorded traffic, citing the clause of the spec. */
export interface Violation {
  check: string;
  clause: string;
  operationId: string | null;
  direction: 'request' | 'response';
  /** Schema name from schemas/registry.ts, when a schema was applied. */
  schema?: string;
  /** JSON pointer into the body. */
  pointer?: string;
  /** Location of the rule in the schema. */
  schemaPath?: string;
  /**
   * Set on the entry that follows the listed violations of one body and schema
   * when there were more: how many were not listed (recorder/contract-check.ts).
   */
  more?: number;
  /** Set with `more` when it is a lower bound (past the cap, an item of a list counts once). */
  atLeast?: true;
  message: string;
}

export interface Exchange {
  seq: number;
  startedAt: string;
  operationId: string | null;
  request: RecordedRequest;
  response: RecordedResponse;
  failure?: UpstreamFailure;
  violations: Violation[];
}

/** An exchange read back from a file, with where it starts (for messages that cite it). */
export interface LocatedExchange extends Exchange {
  line: number;
}
