/**
 * utc-timestamps (spec 2: "Timestamps are ISO 8601 date-times in UTC"): every
 * timestamp in the documented responses (Offer.transportTimestamp, Invoice
 * created and updated, in every form of 4.1 and 4.2) carries a zero offset.
 * The schemas check that a value is a date-time (`format: date-time` accepts
 * any offset), so a value in local time passes response-schema and fails here,
 * and a value that is no date-time at all fails response-schema only.
 * Identifiers as strings and dates as calendar dates are the schemas' own
 * rules (`type: string`, `format: date`), judged by response-schema.
 */
import type { SchemaName } from '../../schemas/registry.ts';
import { operations, type Operation } from '../../specs/contract.ts';
import { checkTest, test, skip, is2xx } from '../lib/index.ts';
import { hasTimestamps, notUtc, timestampsOf } from './date-time-fields.ts';
import { scenarioFor } from './scenarios.ts';

const judged = operations().filter((o) => o.documented && o.responseSchema && hasTimestamps(o.responseSchema));

for (const op of judged) {
  const scenario = scenarioFor(op);
  test(
    ...checkTest({ check: 'utc-timestamps', operation: op, writes: scenario.writes }, async (ctx) => {
      const answers = (await scenario.run(ctx, op)).filter(is2xx);
      const schema = op.responseSchema as SchemaName;
      const seen = answers.flatMap((x) => timestampsOf(schema, x.response.body).map((t) => ({ ...t, x })));
      if (seen.length === 0)
        skip.nothingToJudge(
          ctx,
          `no timestamp to judge: the 2xx answers of ${opLabel(op)} carried none (an empty list?)`,
        );
      const bad = seen.map((t) => ({ ...t, why: notUtc(t.value) })).filter((t) => t.why !== undefined);
      const first = bad[0];
      if (!first) return;
      ctx.check.fail(
        `timestamps are ISO 8601 date-times in UTC (spec 2); ${bad.length} of ${seen.length} are not: ${bad
          .slice(0, 5)
          .map((b) => `${b.pointer} '${b.value}' (${b.why})`)
          .join('; ')}`,
        { exchanges: [first.x], pointer: first.pointer },
      );
    }),
  );
}

function opLabel(op: Operation): string {
  return `${op.method.toUpperCase()} ${op.path}`;
}
