/**
 * Checks for tests/suites/check-timeout-run.test.ts, against its loopback server: /slow and /forever answer each
 * request after a pause well under the check timeout, /silent answers long after it.
 */
import { checkTest, test } from '../../../suites/lib/check-test.ts';

test(
  ...checkTest({ check: 'operation-served', title: 'answered slowly' }, async (ctx) => {
    for (let i = 0; i < 32; i++) await ctx.api.send('GET', '/slow');
  }),
);

test(
  ...checkTest({ check: 'operation-served', title: 'went quiet' }, async (ctx) => {
    await ctx.api.send('GET', '/slow');
    await ctx.api.send('GET', '/silent');
  }),
);

test(
  ...checkTest({ check: 'operation-served', title: 'answered forever' }, async (ctx) => {
    // Until the timeout stops it: a stopped body runs on in the background, so it ends its own loop.
    while (ctx.testInfo.status !== 'timedOut') await ctx.api.send('GET', '/forever');
  }),
);
