/**
 * operation-served: every catalogued operation is served (spec 4.3). With a
 * valid token, a parameterless GET of 4.3 answers a 2xx with a JSON body, or a
 * 4xx other than 404/405/410: its query parameters are not shown, so a 400
 * that asks for a missing parameter is a fair answer. 404, 405 and 410 mean
 * the operation is not there; 5xx means it is broken.
 */
import { operations } from '../../specs/contract.ts';
import { checkTest, test, is2xx } from '../lib/index.ts';

const NOT_THERE = new Set([404, 405, 410]);

for (const op of operations().filter((o) => !o.documented && o.method === 'get' && o.pathParams.length === 0)) {
  test(
    ...checkTest({ check: 'operation-served', operation: op }, async ({ api, check, testInfo }) => {
      const x = await api.op(op);
      const status = x.response.status;
      if (NOT_THERE.has(status))
        check.fail(`the operation is catalogued in spec 4.3 but answered ${status}: it is not served`, {
          exchanges: [x],
        });
      if (status >= 500) check.fail(`the operation answered ${status}: it is not served correctly`, { exchanges: [x] });
      if (is2xx(x)) {
        const body = x.response.body;
        if (body === undefined || typeof body === 'string')
          check.fail(
            `a 2xx answer must carry a JSON body (bodies are JSON, spec 4); got ${body === undefined ? 'an empty body' : 'text that is not JSON'}`,
            { exchanges: [x] },
          );
        return;
      }
      if (status < 400)
        check.fail(`expected a 2xx with a JSON body, or a 4xx other than 404/405/410; got ${status}`, {
          exchanges: [x],
        });
      testInfo.annotations.push({
        type: 'note',
        description: `answered ${status} with a valid token; accepted, since the query parameters of spec 4.3 are not shown`,
      });
    }),
  );
}
