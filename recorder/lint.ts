/**
 * `flis cassette lint`: the format check (the strict reader, which names file
 * and line) and the contract check of every exchange against the contract as
 * it is now, each violation cited with the exchange's line and the clause.
 * The cassette is walked one document at a time, so its size is not bounded by
 * memory; a document too large to hold parsed has its response list judged item
 * by item as it is read (recorder/large-document.ts). A torn last exchange or junk after the last document is a warning
 * (`tail`): every complete exchange before it is still checked.
 */
import type { RawDocument } from './cassette-documents.ts';
import type { CassetteHeader, LocatedExchange, Violation } from './cassette-format.ts';
import { type CassetteTail, fileParts, parseExchange, walkCassette } from './cassette-reader.ts';
import { checkExchange } from './contract-check.ts';
import { splitResponseBody } from './large-document.ts';
import { NotAStreamableList } from './streamed-list.ts';

export interface LintFinding {
  seq: number;
  line: number;
  method: string;
  path: string;
  status: number;
  violation: Violation;
}

export interface LintReport {
  file: string;
  exchanges: number;
  findings: LintFinding[];
  tail?: CassetteTail | undefined;
}

/**
 * How one exchange is judged when it is not API traffic (e.g. a webhook
 * delivery, judged by webhooks/): its violations, or undefined to apply the
 * API contract check. recorder/ cannot import webhooks/, so the caller passes it.
 */
export type ExchangeJudge = (header: CassetteHeader, e: LocatedExchange) => Violation[] | undefined;

/** The API contract check of one recorded exchange. */
export function apiViolations(e: LocatedExchange): Violation[] {
  const auth = e.request.headers.authorization;
  return checkExchange({
    request: e.request,
    response: e.response,
    authorization: Array.isArray(auth) ? auth[0] : auth,
    upstreamFailed: e.failure !== undefined,
  }).violations;
}

export interface LintOptions {
  /** Documents larger than this many bytes have their response list judged as it is read; default LARGE_DOCUMENT. */
  streamAbove?: number;
}

/** Throws CassetteParseError for a cassette that cannot be read. */
export function lintCassette(file: string, judge?: ExchangeJudge, options: LintOptions = {}): LintReport {
  const streamAbove = options.streamAbove ?? LARGE_DOCUMENT;
  const findings: LintFinding[] = [];
  const walked = walkCassette(file, fileParts(file), { allowTorn: true }, (doc, h) => {
    const { e, violations } = (doc.length > streamAbove && streamed(file, doc, h, judge)) || whole(file, doc, h, judge);
    for (const violation of violations) {
      findings.push({
        seq: e.seq,
        line: e.line,
        method: e.request.method,
        path: e.request.path,
        status: e.response.status,
        violation,
      });
    }
  });
  return { file, exchanges: walked.exchanges, findings, tail: walked.tail };
}

interface Judged {
  e: LocatedExchange;
  violations: Violation[];
}

/**
 * Above this, a document's response list is judged as it is read, item by item: parsed whole, a list costs about
 * 2.5 times its text in objects, on top of the text and its bytes.
 */
export const LARGE_DOCUMENT = 16 * 1024 * 1024;

function whole(file: string, doc: RawDocument, h: CassetteHeader, judge: ExchangeJudge | undefined): Judged {
  const e = parseExchange(file, doc);
  return { e, violations: judge?.(h, e) ?? apiViolations(e) };
}

/**
 * The same verdict as `whole`, with the response list never held parsed; undefined when the document is not one the
 * stream can take (no one-line JSON list as its response body, a delivery judged on the whole exchange, or text
 * that is not one JSON list): the document is then read whole.
 */
function streamed(
  file: string,
  doc: RawDocument,
  h: CassetteHeader,
  judge: ExchangeJudge | undefined,
): Judged | undefined {
  const split = splitResponseBody(doc);
  if (!split) return undefined;
  const e = parseExchange(file, split.rest);
  const body = e.response.body;
  if (body?.encoding !== 'json' || !Array.isArray(body.value) || body.value.length > 0) return undefined;
  if (judge?.(h, e) !== undefined) return undefined;
  try {
    return {
      e,
      violations: apiViolations({ ...e, response: { ...e.response, body: { ...body, value: split.body } } }),
    };
  } catch (err) {
    if (err instanceof NotAStreamableList) return undefined;
    throw err;
  }
}
