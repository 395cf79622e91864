/**
 * The certificate's matrix: the 125 operations of the contract against the
 * checks, each cell passed, failed (with the clause and the failure it links
 * to), skipped (with why) or not covered.
 *
 * Which cells a test speaks for: a passed test for every operation it called
 * and the one it is named for; a failed test for the operations its failure
 * names (the others it called were not shown to be right); a skipped test for
 * the operation it is named for. A cell that any test failed is failed;
 * otherwise passed if any test passed it; otherwise skipped if a test was skipped.
 */
import { operations, type Operation } from '../specs/contract.ts';
import type { CheckOutcome } from './outcomes.ts';

/**
 * `blocked` and `inconclusive` are skips with those reasons (reporting/outcomes.ts SkipKind), shown apart;
 * `not-judged` is an operation a test that ran could not judge (its `not-judged` annotation): never passed.
 */
export type CellStatus = 'passed' | 'failed' | 'not-judged' | 'blocked' | 'inconclusive' | 'skipped' | 'not-covered';

export interface CellFailure {
  /** Anchor of the failure in the certificate ("failure-3"). */
  failure: string;
  clause: string;
}

export interface MatrixCell {
  status: Exclude<CellStatus, 'not-covered'>;
  /** Tests that spoke for this cell. */
  tests: number;
  failures?: CellFailure[];
  skipReasons?: string[];
}

export interface MatrixRow {
  operationId: string;
  method: string;
  path: string;
  resource: string;
  clause: string;
  deprecated: boolean;
  /** True when at least one check ran on the operation (passed, failed, or ran its probes but could not judge it). */
  covered: boolean;
  /** Check id → cell; a check absent here is not covered for this operation. */
  cells: Record<string, MatrixCell>;
}

/** A test that names no operation and called none (nothing to place in a row). */
export interface UnplacedOutcome {
  check: string;
  title: string;
  status: CheckOutcome['status'];
  reason?: string | undefined;
  failure?: string | undefined;
}

export interface Matrix {
  checks: string[];
  rows: MatrixRow[];
  unplaced: UnplacedOutcome[];
  coverage: { covered: number; total: number; percent: number };
}

type Contribution = { status: MatrixCell['status']; failure?: CellFailure; skipReason?: string };

const RANK: Record<MatrixCell['status'], number> = {
  failed: 6,
  passed: 5,
  'not-judged': 4,
  blocked: 3,
  inconclusive: 2,
  skipped: 1,
};

/** The cells one outcome speaks for, as operationId → contribution. */
function contributions(o: CheckOutcome, failureId: string | undefined): Map<string, Contribution> {
  const out = new Map<string, Contribution>();
  if (o.status === 'failed') {
    const blamed = o.blamed.length ? o.blamed : o.operation ? [o.operation] : o.exercised;
    for (const op of blamed)
      out.set(op, {
        status: 'failed',
        failure: { failure: failureId ?? '', clause: o.record?.clause ?? o.clause ?? '' },
      });
  } else if (o.status === 'skipped') {
    if (o.operation) {
      const status = o.skipKind === undefined || o.skipKind === 'not-shown' ? 'skipped' : o.skipKind;
      out.set(o.operation, { status, skipReason: o.skipReason ?? 'skipped' });
    }
  } else {
    for (const op of new Set([...(o.operation ? [o.operation] : []), ...o.exercised]))
      out.set(op, { status: 'passed' });
  }
  // What a test could not judge is not what it passed (nor a failure it did not name).
  for (const n of o.notJudged ?? [])
    if (out.get(n.operation)?.status !== 'failed')
      out.set(n.operation, { status: 'not-judged', skipReason: `not judged: ${n.reason}` });
  return out;
}

function addTo(cells: Record<string, MatrixCell>, check: string, c: Contribution): void {
  const cell = (cells[check] ??= { status: c.status, tests: 0 });
  cell.tests += 1;
  if (RANK[c.status] > RANK[cell.status]) cell.status = c.status;
  if (c.failure) (cell.failures ??= []).push(c.failure);
  if (c.skipReason && !(cell.skipReasons ??= []).includes(c.skipReason)) cell.skipReasons.push(c.skipReason);
}

function rowOf(op: Operation): MatrixRow {
  return {
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    path: op.path,
    resource: op.tag,
    clause: op.clause,
    deprecated: op.deprecated,
    covered: false,
    cells: {},
  };
}

/**
 * `failureIds` maps an outcome's id to its anchor in the certificate's failure list.
 * Outcomes without a check annotation are not checks and are left out.
 */
export function buildMatrix(outcomes: readonly CheckOutcome[], failureIds: ReadonlyMap<string, string>): Matrix {
  const rows = new Map(operations().map((op) => [op.operationId, rowOf(op)]));
  const checks = new Set<string>();
  const unplaced: UnplacedOutcome[] = [];
  for (const o of outcomes) {
    if (!o.check) continue;
    checks.add(o.check);
    const failure = failureIds.get(o.id);
    const placed = [...contributions(o, failure)].filter(([op]) => rows.has(op));
    for (const [op, c] of placed) addTo(rows.get(op)!.cells, o.check, c);
    if (placed.length === 0) {
      unplaced.push({
        check: o.check,
        title: o.title,
        status: o.status,
        reason: o.skipReason || undefined,
        failure,
      });
    }
  }
  // A not-judged cell is covered: the check ran on the operation and its probes could still have failed it (a 2xx
  // without a valid token fails wherever it happens); it is only never shown as passed.
  for (const row of rows.values())
    row.covered = Object.values(row.cells).some(
      (c) => c.status === 'passed' || c.status === 'failed' || c.status === 'not-judged',
    );
  const all = [...rows.values()];
  const covered = all.filter((r) => r.covered).length;
  return {
    checks: [...checks].sort(),
    rows: all,
    unplaced,
    coverage: { covered, total: all.length, percent: all.length ? Math.round((covered / all.length) * 1000) / 10 : 0 },
  };
}
