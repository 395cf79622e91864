/**
 * The reads of one comparison of the world: a view every record of a group shares (a list) is read once for all of
 * them. A record the step's write names polls its views afresh instead, until they show the write.
 */
import type { Operation } from '../../../specs/contract.ts';
import type { CheckContext } from '../check-test.ts';
import type { Exchange } from '../exchange.ts';

export class StepReads {
  private readonly cache = new Map<string, Promise<Exchange>>();

  read(ctx: CheckContext, op: Operation, params: Record<string, string>): Promise<Exchange> {
    const key = `${op.operationId} ${JSON.stringify(params)}`;
    let x = this.cache.get(key);
    if (!x) {
      x = ctx.api.op(op, { params });
      this.cache.set(key, x);
    }
    return x;
  }
}
