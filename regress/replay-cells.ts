/**
 * The report's cells: one per operation, the partner's exchanges counted by outcome, and the cell's verdict the
 * worst of them (broken, changed, blocked, unchanged, not replayed).
 */
import type { ExchangeReport, OperationCell } from './types.ts';

export class Cells {
  private readonly cells = new Map<string, OperationCell>();

  add(operation: string, outcome: ExchangeReport['outcome'], n = 1): void {
    let c = this.cells.get(operation);
    if (!c) {
      c = {
        operation,
        exchanges: 0,
        unchanged: 0,
        changed: 0,
        broken: 0,
        blocked: 0,
        notReplayed: 0,
        verdict: 'unchanged',
      };
      this.cells.set(operation, c);
    }
    c.exchanges += n;
    if (outcome === 'not-replayed') c.notReplayed += n;
    else c[outcome] += n;
  }

  list(): OperationCell[] {
    const rank = (c: OperationCell): OperationCell['verdict'] =>
      c.broken ? 'broken' : c.changed ? 'changed' : c.blocked ? 'blocked' : c.unchanged ? 'unchanged' : 'not-replayed';
    return [...this.cells.values()]
      .map((c) => ({ ...c, verdict: rank(c) }))
      .sort((a, b) => a.operation.localeCompare(b.operation));
  }
}
