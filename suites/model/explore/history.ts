/**
 * A history of one record: PUTs (with or without the path's id in the body) and DELETEs in a row, compared with the
 * model after each. Random sequences of single commands meet a long history of one record only now and then; a
 * server that keeps state per record (counts its writes, remembers a first DELETE) goes wrong in exactly those.
 */
import { type ExploreCommand, type Explored, groupOf, notePresence, type Real, slotId } from './model.ts';

export type HistoryOp = 'put' | 'put-with-id' | 'delete';

export class HistoryCommand implements ExploreCommand {
  constructor(
    readonly pick: number,
    readonly slot: number,
    readonly ops: readonly HistoryOp[],
  ) {}

  check(): boolean {
    return true;
  }

  async run(m: Explored, real: Real): Promise<void> {
    // A history goes on a group with a DELETE where the sequence writes one: removing and making again is half of it.
    const deletable = real.groups.filter((g) => g.del !== undefined);
    const group =
      deletable.length > 0
        ? (deletable[this.pick % deletable.length] ?? groupOf(real, this.pick))
        : groupOf(real, this.pick);
    const params = group.params;
    const values = Object.fromEntries(params.map((p, i) => [p, slotId(real, i === params.length - 1 ? this.slot : 0)]));
    const r = real.records.record(group.template, values);
    for (const op of this.ops) {
      if (op === 'delete' && (!group.del || r.state().kind !== 'present')) continue;
      const { step } =
        op === 'delete'
          ? await real.records.delete(real.ctx, r)
          : await real.records.put(real.ctx, r, op === 'put' ? 'none' : 'path');
      notePresence(m, real);
      await real.settle(step);
    }
  }

  toString(): string {
    return `history(group #${this.pick}, slot ${this.slot}: ${this.ops.join(', ')})`;
  }
}
