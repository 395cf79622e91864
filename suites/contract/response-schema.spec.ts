/**
 * response-schema: every documented response of spec 4.1 and 4.2 validates
 * against the JSON Schema of its shape (spec 2.x). Extra fields, id formats,
 * ordering and the exact 2xx code are the server's choice and pass.
 */
import { operations } from '../../specs/contract.ts';
import { responseClauses } from './clauses.ts';
import { checkTest, test } from '../lib/index.ts';
import { scenarioFor } from './scenarios.ts';

for (const op of operations().filter((o) => o.documented)) {
  const scenario = scenarioFor(op);
  test(
    ...checkTest(
      { check: 'response-schema', clauses: responseClauses(op), operation: op, writes: scenario.writes },
      async (ctx) => {
        const schema = op.responseSchema;
        if (!schema)
          throw new Error(
            `suite bug: documented operation ${op.operationId} has no response schema in specs/openapi.yaml`,
          );
        for (const x of await scenario.run(ctx, op)) {
          ctx.check.expectSuccess(x, `${op.method.toUpperCase()} ${op.path}`);
          ctx.check.expectSchema(x, schema);
        }
      },
    ),
  );
}
