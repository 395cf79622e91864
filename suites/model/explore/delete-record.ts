/** DELETE a present section 4.3 record (spec 1: it is removed or marked; spec 3 rule 5: a booking event is marked). */
import { type ExploreCommand, type Explored, notePresence, type Real } from './model.ts';

export class DeleteRecordCommand implements ExploreCommand {
  constructor(readonly pick: number) {}

  check(m: Readonly<Explored>): boolean {
    return m.present.some((r) => r.deletable);
  }

  async run(m: Explored, real: Real): Promise<void> {
    const deletable = m.present.filter((r) => r.deletable);
    const key = deletable[this.pick % deletable.length]?.key;
    const r = real.records.all().find((x) => x.key === key);
    if (!r) throw new Error('delete ran without a deletable record: check() should have prevented it');
    const { step } = await real.records.delete(real.ctx, r);
    notePresence(m, real);
    await real.settle(step);
  }

  toString(): string {
    return `delete(present record #${this.pick})`;
  }
}
