/**
 * PUT again to a record the run already wrote, present or deleted: histories of one record (an update, a DELETE and a
 * re-creation, a second DELETE) are where a server that keeps state per record goes wrong.
 */
import type { BodyId } from '../../lib/world/index.ts';
import { type ExploreCommand, type Explored, notePresence, type Real } from './model.ts';

export class RewriteRecordCommand implements ExploreCommand {
  constructor(
    readonly pick: number,
    readonly bodyId: BodyId,
  ) {}

  check(m: Readonly<Explored>): boolean {
    return m.written > 0;
  }

  async run(m: Explored, real: Real): Promise<void> {
    const written = real.records.all().filter((r) => r.markers.length > 0);
    const r = written[this.pick % written.length];
    if (!r) throw new Error('rewrite ran without a written record: check() should have prevented it');
    const { step } = await real.records.put(real.ctx, r, this.bodyId);
    notePresence(m, real);
    await real.settle(step);
  }

  toString(): string {
    return `rewrite(written record #${this.pick}, body id ${this.bodyId})`;
  }
}
