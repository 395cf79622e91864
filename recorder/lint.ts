/**
 * `flis cassette lint`: the format check (the strict reader, which names file
 * and line) and the contract check of every exchange against the contract as
 * it is now, each violation cited with the exchange's line and the clause.
 */
import type { Violation } from './cassette-format.ts';
import { readCassette } from './cassette-reader.ts';
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
}

/** Throws CassetteParseError for a cassette that cannot be read. */
export function lintCassette(file: string): LintReport {
  const c = readCassette(file);
  const findings: LintFinding[] = [];
  for (const e of c.exchanges) {
    const auth = e.request.headers.authorization;
    const { violations } = checkExchange({
      request: e.request,
      response: e.response,
      authorization: Array.isArray(auth) ? auth[0] : auth,
      upstreamFailed: e.failure !== undefined,
    });
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
  }
  return { file, exchanges: c.exchanges.length, findings };
}
