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
  text: string;
  durationMs: number;
}

export interface Exchange {
  operationId?: string;
  request: SentRequest;
  response: ReceivedResponse;
}

export function isJsonContentType(contentType: string | undefined): boolean {
  return !!contentType && /^application\/([\w.+-]*\+)?json(\s*;.*)?$/i.test(contentType.trim());
}
