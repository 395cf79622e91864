/** One request the suite sent and the answer it got, as a failure report shows it. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The body exactly as sent (a string), if any. */
  body?: string;
}

export interface ReceivedResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the body parses, the raw text otherwise. */
  body: unknown;
  /** The body decoded as UTF-8, a leading byte-order mark left out (as undici's text() does). */
  text: string;
  /** True when the body's raw bytes began with a UTF-8 byte-order mark (EF BB BF), which `text` no longer shows. */
  bom?: true;
  durationMs: number;
}

export interface Exchange {
  operationId?: string;
  request: SentRequest;
  response: ReceivedResponse;
  /** The first attempt, when a 502/503/504 to a GET was retried once (core/client.ts): this is the second. */
  retryOf?: Exchange;
  /** What a failure record says about this exchange besides what it holds (e.g. that it was the first attempt). */
  note?: string;
}

export function isJsonContentType(contentType: string | undefined): boolean {
  return !!contentType && /^application\/([\w.+-]*\+)?json(\s*;.*)?$/i.test(contentType.trim());
}

/** Any 2xx: the spec does not show success status codes (spec 4.3). */
export function is2xx(x: Exchange): boolean {
  return x.response.status >= 200 && x.response.status <= 299;
}
