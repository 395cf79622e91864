/**
 * api-prefix (spec 9 rule 2: "The version prefix of every deployment path is
 * `/apis/v0`"; spec intro: {base_url} "ends with the version prefix"). What a
 * server can get wrong here and a client can see:
 * - the deployment serves the interface under another path (the base URL it
 *   is reached at does not end with /apis/v0): a client built for the spec
 *   cannot reach it;
 * - an operation under the prefix answers with a redirect out of it (a 3xx
 *   whose Location leaves /apis/v0), so the prefixed path is not the one served.
 * flis itself refuses a configured base URL without the prefix (exit 2), so
 * the first case shows on targets flis starts (the embedded mock) or a bare
 * Playwright run. Severity contract: both break the sentence itself. Whether
 * the operations answer at all under the prefix is operation-served's and
 * response-schema's.
 */
import { operationById } from '../../specs/contract.ts';
import { checkTest, test, WHOLE_BILLING_WINDOW } from '../lib/index.ts';

const PREFIX = '/apis/v0';

test(
  ...checkTest(
    {
      check: 'api-prefix',
      title: 'the deployment serves the interface under /apis/v0',
    },
    async ({ api, check }) => {
      const x = await api.op(operationById('listBillingGroups'), { query: WHOLE_BILLING_WINDOW });
      const base = new URL(api.target.baseUrl);
      // flis refuses a configured base URL without the prefix (exit 2); a target flis starts chooses its own path.
      if (!base.pathname.replace(/\/+$/, '').endsWith(PREFIX))
        check.fail(
          `the deployment serves the interface under '${base.pathname}', which does not end with the version prefix ${PREFIX} (spec 9 rule 2)`,
          { exchanges: [x] },
        );
      if (x.response.status >= 300 && x.response.status < 400) {
        const location = x.response.headers.location;
        const to = location ? new URL(location, x.request.url).pathname : '(no Location)';
        if (!to.includes(`${PREFIX}/`))
          check.fail(
            `GET ${PREFIX}/billingGroups answered ${x.response.status} to '${to}', out of the version prefix (spec 9 rule 2)`,
            { exchanges: [x] },
          );
      }
    },
  ),
);
