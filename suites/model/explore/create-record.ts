/**
 * A POST that creates a section 4.3 record (POST /customers, its bulk, the deprecated POST /bookings): the record is
 * addressed by the id its body carried or the id the answer named, where the run finds one (not shown which).
 */
import { type ExploreCommand, type Explored, notePresence, type Real, slotId } from './model.ts';

export class CreateRecordCommand implements ExploreCommand {
  constructor(
    readonly pick: number,
    readonly parentSlot: number,
  ) {}

  check(): boolean {
    return true;
  }

  async run(m: Explored, real: Real): Promise<void> {
    const creates = real.groups.flatMap((group) => group.creates.map((op) => ({ group, op })));
    const made = creates[this.pick % Math.max(1, creates.length)];
    if (!made) return;
    const parent = Object.fromEntries(made.op.pathParams.map((p) => [p, slotId(real, this.parentSlot)]));
    const { step } = await real.records.create(real.ctx, made.group, made.op, parent);
    notePresence(m, real);
    await real.settle(step);
  }

  toString(): string {
    return `create(#${this.pick} of the groups' POSTs, parent slot ${this.parentSlot})`;
  }
}
