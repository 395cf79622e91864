/**
 * json-content-type: bodies are JSON (spec 4), so a JSON body is labelled as
 * JSON (application/json or any +json type). Judged on the documented
 * responses of 4.1 and 4.2 and on the parameterless GETs of 4.3. Error bodies
 * are not judged: their shape is not shown (spec 7). A byte-order mark before
 * the body (judged on the raw bytes) is an advisory failure: RFC 8259 section
 * 8.1 forbids it, the spec says only that bodies are JSON.
 */
import { operations, type Operation } from '../../specs/contract.ts';
import { type Exchange, is2xx, checkTest, test, type CheckContext, skip } from '../lib/index.ts';
import { scenarioFor } from './scenarios.ts';

const meta = (op: Operation) => ({ check: 'json-content-type' as const, operation: op });

function expectJsonTyped(ctx: CheckContext, answers: readonly Exchange[]): void {
  const judged = answers.filter(is2xx);
  if (judged.length === 0) {
    skip.nothingToJudge(
      ctx,
      `no 2xx answer to judge (got ${answers.map((x) => x.response.status).join(', ')}); the status is judged by response-schema and operation-served`,
    );
  }
  for (const x of judged) ctx.check.expectJsonContentType(x);
  for (const x of judged) ctx.check.expectNoByteOrderMark(x);
}

for (const op of operations().filter((o) => o.documented)) {
  const scenario = scenarioFor(op);
  test(
    ...checkTest({ ...meta(op), writes: scenario.writes }, async (ctx) =>
      expectJsonTyped(ctx, await scenario.run(ctx, op)),
    ),
  );
}

for (const op of operations().filter((o) => !o.documented && o.method === 'get' && o.pathParams.length === 0)) {
  test(...checkTest(meta(op), async (ctx) => expectJsonTyped(ctx, [await ctx.api.op(op)])));
}
