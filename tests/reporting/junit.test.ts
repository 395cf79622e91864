/** JUnit XML for CI dashboards: a failed check is a <failure>; only an error outside any check is an <error>. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFailuresAsFailures } from '../../reporting/junit-failures.ts';

// The shape Playwright's junit reporter writes (one CheckFailure thrown by a check, one plain error).
const PLAYWRIGHT_JUNIT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites id="" name="" tests="3" failures="0" skipped="0" errors="2" time="1.5">
<testsuite name="billing/filters.spec.ts" hostname="billing" tests="2" failures="0" skipped="0" time="1" errors="2">
<testcase name="billing-filters · start" classname="billing/filters.spec.ts" time="0.5">
<error message="[billing-filters] spec 4.2 — listBillingGroups" type="CheckFailure">
<![CDATA[  CheckFailure: [billing-filters] spec 4.2
  received: 200 </error> <failure> in a body]]>
</error>
</testcase>
<testcase name="billing-groups · list" classname="billing/filters.spec.ts" time="0.5">
<error message="connect ECONNRESET" type="Error">
<![CDATA[Error: connect ECONNRESET]]>
</error>
</testcase>
</testsuite>
<testsuite name="billing/status.spec.ts" hostname="billing" tests="1" failures="0" skipped="0" time="0.5" errors="0">
<testcase name="billing-forced-status" classname="billing/status.spec.ts" time="0.5">
</testcase>
</testsuite>
</testsuites>`;

describe('junit.xml', () => {
  const fixed = checkFailuresAsFailures(PLAYWRIGHT_JUNIT);

  it('writes a failed check as <failure> and keeps other errors as <error>', () => {
    assert.match(fixed, /<failure message="\[billing-filters\][^"]*" type="CheckFailure">/);
    assert.match(fixed, /<error message="connect ECONNRESET" type="Error">/);
    assert.equal((fixed.match(/<failure /g) ?? []).length, 1);
    // The text inside the CDATA section is kept whole, even where it looks like a closing tag.
    assert.match(fixed, /received: 200 <\/error> <failure> in a body\]\]>\n<\/failure>/);
  });

  it('moves the counts of the suite and of the whole file along', () => {
    assert.match(fixed, /<testsuites [^>]*failures="1" skipped="0" errors="1"/);
    assert.match(fixed, /name="billing\/filters.spec.ts"[^>]*failures="1"[^>]*errors="1">/);
    assert.match(fixed, /name="billing\/status.spec.ts"[^>]*failures="0"[^>]*errors="0">/);
  });

  it('leaves a file without check failures as it is', () => {
    const clean = PLAYWRIGHT_JUNIT.replace('type="CheckFailure"', 'type="Error"');
    assert.equal(checkFailuresAsFailures(clean), clean);
  });
});
