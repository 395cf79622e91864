/**
 * Reads every view of the records the run holds, and nothing else: a step of reads alone, after which the world must
 * read as before (a GET is safe: RFC 9110 9.2.1).
 */
import { Step } from '../../lib/world/index.ts';
import type { ExploreCommand, Explored, Real } from './model.ts';

export class ReadViewsCommand implements ExploreCommand {
  constructor(readonly times: number) {}

  check(m: Readonly<Explored>): boolean {
    return m.present.length > 0 || m.offers.some((o) => o !== 'none');
  }

  async run(_m: Explored, real: Real): Promise<void> {
    for (let i = 1; i <= this.times; i++)
      await real.settle(Step.read(`reading every view (round ${i} of ${this.times})`));
  }

  toString(): string {
    return `read(every view, ${this.times} time(s))`;
  }
}
