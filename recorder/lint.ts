/**
 * `flis cassette lint`: the format check (the strict reader, which names file
 * and line) and the contract check of every exchange against the contract as
 * it is now, each violation cited with the exchange's line and the clause.
 * The cassette is walked one document at a time, so its size is not bounded by
 * memory; a document too large to hold parsed has its bodies cut out (recorder/large-document.ts): a list judged
 * item by item as it is read, a long text or base64 body by its size. A torn last exchange or junk after the last
 * document is a warning (`tail`): every complete exchange before it is still checked. A body the recorder cut at
 * --max-body-bytes is "not judged", said beside the findings, never a violation.
 */
import type { RawDocument } from './cassette-documents.ts';
import type { CassetteHeader, LocatedExchange, StoredBody, Violation } from './cassette-format.ts';
import { type CassetteTail, fileParts, parseExchange, walkCassette } from './cassette-reader.ts';
import { checkExchange } from './contract-check.ts';
import { type CutBody, splitBodies } from './large-document.ts';
import { NotAStreamableList } from './streamed-list.ts';

export interface LintFinding {
  seq: number;
  line: number;
  method: string;
  path: string;
  status: number;
  violation: Violation;
}

/** An exchange the contract check could not judge whole, and why ("not judged: response body over N bytes"). */
export interface LintNote {
  seq: number;
  line: number;
  method: string;
  path: string;
  status: number;
  note: string;
}

export interface LintReport {
  file: string;
  exchanges: number;
  findings: LintFinding[];
  notJudged: LintNote[];
  tail?: CassetteTail | undefined;
}

/**
 * How one exchange is judged when it is not API traffic (e.g. a webhook
 * delivery, judged by webhooks/): its violations, or undefined to apply the
 * API contract check. recorder/ cannot import webhooks/, so the caller passes it.
 */
export type ExchangeJudge = (header: CassetteHeader, e: LocatedExchange) => Violation[] | undefined;

/** The API contract check of one recorded exchange: its violations, and what it could not judge. */
export function apiCheck(e: LocatedExchange): { violations: Violation[]; notJudged: string[] } {
  const auth = e.request.headers.authorization;
  return checkExchange({
    request: e.request,
    response: e.response,
    authorization: Array.isArray(auth) ? auth[0] : auth,
    upstreamFailed: e.failure !== undefined,
  });
}

/** The API contract check's violations of one recorded exchange. */
export function apiViolations(e: LocatedExchange): Violation[] {
  return apiCheck(e).violations;
}

export interface LintOptions {
  /** Documents larger than this many bytes have their bodies judged as they are read; default LARGE_DOCUMENT. */
  streamAbove?: number;
}

/** Throws CassetteParseError for a cassette that cannot be read. */
export function lintCassette(file: string, judge?: ExchangeJudge, options: LintOptions = {}): LintReport {
  const streamAbove = options.streamAbove ?? LARGE_DOCUMENT;
  const findings: LintFinding[] = [];
  const notJudged: LintNote[] = [];
  const walked = walkCassette(file, fileParts(file), { allowTorn: true }, (doc, h) => {
    const judged = (doc.length > streamAbove && streamed(file, doc, h, judge)) || whole(file, doc, h, judge);
    const { e } = judged;
    const at = { seq: e.seq, line: e.line, method: e.request.method, path: e.request.path, status: e.response.status };
    for (const violation of judged.violations) findings.push({ ...at, violation });
    for (const note of judged.notJudged) notJudged.push({ ...at, note });
  });
  return { file, exchanges: walked.exchanges, findings, notJudged, tail: walked.tail };
}

interface Judged {
  e: LocatedExchange;
  violations: Violation[];
  notJudged: string[];
}

/**
 * Above this, a document's bodies are judged as they are read, a list item by item: parsed whole, a list costs
 * about 2.5 times its text in objects, on top of the text and its bytes.
 */
export const LARGE_DOCUMENT = 16 * 1024 * 1024;

function whole(file: string, doc: RawDocument, h: CassetteHeader, judge: ExchangeJudge | undefined): Judged {
  const e = parseExchange(file, doc);
  const delivery = judge?.(h, e);
  return delivery ? { e, violations: delivery, notJudged: [] } : { e, ...apiCheck(e) };
}

/**
 * The same verdict as `whole`, with no body held parsed: undefined when the document is not one the split can take
 * (no body written as a one-line list or a long scalar, a delivery judged on the whole exchange, a body whose text
 * is needed, or text that is not one JSON list): the document is then read whole.
 */
function streamed(
  file: string,
  doc: RawDocument,
  h: CassetteHeader,
  judge: ExchangeJudge | undefined,
): Judged | undefined {
  const split = splitBodies(doc);
  if (!split) return undefined;
  const e = parseExchange(file, split.rest);
  const request = withCut(e.request.body, split.request);
  const response = withCut(e.response.body, split.response);
  if (request === undefined || response === undefined || judge?.(h, e) !== undefined) return undefined;
  // A text request body sent under another content type is judged by its JSON, when it is JSON: its text is needed.
  if (split.request?.kind === 'scalar' && !/^application\/json\b/i.test(String(e.request.headers['content-type'])))
    return undefined;
  try {
    const x = { ...e, request: { ...e.request, body: request }, response: { ...e.response, body: response } };
    return { e, ...apiCheck(x) };
  } catch (err) {
    if (err instanceof NotAStreamableList) return undefined;
    throw err;
  }
}

/** A body with what was cut out of its document put back (a list to read, a scalar's size); undefined: read whole. */
function withCut(body: StoredBody | null, cut: CutBody | undefined): StoredBody | null | undefined {
  if (!cut) return body;
  if (!body || body.truncated) return undefined;
  if (cut.kind === 'list')
    return body.encoding === 'json' && Array.isArray(body.value) && body.value.length === 0
      ? { ...body, value: cut.list }
      : undefined;
  // The check reads no more of a text or base64 body than its size; the size the emitter wrote, else the cut's.
  return body.encoding !== 'json' && body.value === '' ? { ...body, size: body.size || cut.bytes } : undefined;
}
