/** PUT a section 4.3 record at a slot id, under a parent at a slot id (spec 1: creates or updates it). */
import type { BodyId } from '../../lib/world/index.ts';
import { type ExploreCommand, type Explored, groupOf, notePresence, type Real, slotId } from './model.ts';

export class PutRecordCommand implements ExploreCommand {
  constructor(
    readonly pick: number,
    readonly slot: number,
    readonly parentSlot: number,
    readonly bodyId: BodyId,
  ) {}

  check(): boolean {
    return true;
  }

  async run(m: Explored, real: Real): Promise<void> {
    const group = groupOf(real, this.pick);
    const params = group.params;
    const values = Object.fromEntries(
      params.map((p, i) => [p, slotId(real, i === params.length - 1 ? this.slot : this.parentSlot)]),
    );
    const r = real.records.record(group.template, values);
    const { step } = await real.records.put(real.ctx, r, this.bodyId);
    notePresence(m, real);
    await real.settle(step);
  }

  toString(): string {
    return `put(group #${this.pick}, slot ${this.slot}, parent slot ${this.parentSlot}, body id ${this.bodyId})`;
  }
}
