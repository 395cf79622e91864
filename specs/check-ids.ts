/**
 * The typed home of check and clause ids that both the suites (suites/lib/catalogue.ts) and the recorder
 * (recorder/contract-check.ts) use: the recorder may not import the suites (docs/architecture.md), and both may
 * import specs/. A check id or clause outside these types does not compile.
 */
import type { Operation } from './contract.ts';

/** A clause of the spec: a section ("spec 4.1"), or a numbered rule of a section ("spec 3 rule 4"). */
export type SpecClauseId = `spec ${number}` | `spec ${number}.${number}` | `spec ${number} rule ${number}`;
/** Beyond the spec: a server answering 5xx breaks HTTP itself, whatever the spec says. */
export type ClauseId = SpecClauseId | 'HTTP semantics';

/**
 * The citation a test's title, annotations and failure records carry, from its clause ids: rules of one section in a
 * run become a range and a clause beyond the spec leads, set apart by a semicolon ("HTTP semantics; spec 2.3,
 * spec 3 rules 1-2"), the form reporting/clauses.ts `citedClauses` reads back into the same ids.
 */
export function citation(clauses: readonly ClauseId[]): string {
  const beyond = clauses.filter((c) => !c.startsWith('spec '));
  const spec: string[] = [];
  for (let i = 0; i < clauses.length; i++) {
    const c = clauses[i]!;
    if (!c.startsWith('spec ')) continue;
    const rule = /^(spec \d+) rule (\d+)$/.exec(c);
    let last = i;
    while (rule && clauses[last + 1] === `${rule[1]} rule ${Number(rule[2]) + (last + 1 - i)}`) last++;
    spec.push(last > i && rule ? `${rule[1]} rules ${rule[2]}-${Number(rule[2]) + (last - i)}` : c);
    i = last;
  }
  return [beyond.join(', '), spec.join(', ')].filter(Boolean).join('; ');
}

/** Marks a traffic check whose clause is the operation's own (x-flis-clause: spec 4.1, 4.2 or 4.3). */
const OPERATION_CLAUSE = 'the operation';

/**
 * The checks the recorder runs on every recorded exchange (recorder/contract-check.ts), and the clause each enforces.
 * `flis certify` reports them prefixed `traffic:` (reporting/traffic-outcomes.ts).
 */
export const TRAFFIC_CHECKS = {
  'known-operation': { clause: 'spec 4' },
  'auth-header': { clause: 'spec 5 rule 2' },
  'write-content-type': { clause: 'spec 5 rule 3' },
  'request-schema': { clause: OPERATION_CLAUSE },
  'no-5xx': { clause: 'HTTP semantics' },
  'json-content-type': { clause: 'spec 4' },
  'response-schema': { clause: OPERATION_CLAUSE },
} as const satisfies Record<string, { clause: ClauseId | typeof OPERATION_CLAUSE }>;

export type TrafficCheckId = keyof typeof TRAFFIC_CHECKS;

/** The clause a traffic check cites on an exchange of `op` (spec 4 when the exchange is of no operation). */
export function trafficClause(check: TrafficCheckId, op: Operation | undefined): string {
  const { clause } = TRAFFIC_CHECKS[check];
  return clause === OPERATION_CLAUSE ? (op?.clause ?? 'spec 4') : clause;
}
