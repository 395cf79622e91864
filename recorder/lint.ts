/**
 * `flis cassette lint`: the format check (the strict reader, which names file
 * and line) and the contract check of every exchange against the contract as
 * it is now, each violation cited with the exchange's line and the clause.
 * The cassette is walked one document at a time, so its size is not bounded by
 * memory. A torn last exchange or junk after the last document is a warning
 * (`tail`): every complete exchange before it is still checked.
 */
import type { CassetteHeader, LocatedExchange, Violation } from './cassette-format.ts';
import { type CassetteTail, fileParts, parseExchange, walkCassette } from './cassette-reader.ts';
import { checkExchange } from './contract-check.ts';

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

/** Throws CassetteParseError for a cassette that cannot be read. */
export function lintCassette(file: string, judge?: ExchangeJudge): LintReport {
  const findings: LintFinding[] = [];
  const walked = walkCassette(file, fileParts(file), { allowTorn: true }, (doc, h) => {
    const e = parseExchange(file, doc);
    const violations = judge?.(h, e) ?? apiViolations(e);
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
