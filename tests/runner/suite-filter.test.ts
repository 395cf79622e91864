/**
 * `--suite` picks folders of suites/ by Playwright file filter (all suites are one project): the filter matches the
 * suite's own folder by absolute path, and nothing in a checkout that sits under another `suites/<name>/` folder.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { suiteFileFilter } from '../../runner/suite-names.ts';

/** What Playwright makes of a `/…/` argument (forceRegExp in its sources). */
function asPlaywrightReads(arg: string): RegExp {
  const m = /^\/(.*)\/([gi]*)$/.exec(arg);
  assert.ok(m, `${arg} is read as a regular expression`);
  return new RegExp(m[1] as string, m[2]);
}

test('a suite filter matches its own folder only, whatever the checkout path holds', () => {
  const dir = '/home/p/suites/contract/flis (copy)/suites';
  const re = asPlaywrightReads(suiteFileFilter('offers', dir));
  assert.ok(re.test(`${dir}/offers/upsert.spec.ts`));
  assert.ok(!re.test(`${dir}/contract/no-5xx.spec.ts`));
  const contract = asPlaywrightReads(suiteFileFilter('contract', dir));
  assert.ok(!contract.test(`${dir}/offers/upsert.spec.ts`), 'the checkout path names suites/contract/ too');
  assert.ok(
    !asPlaywrightReads(suiteFileFilter('offer', dir)).test(`${dir}/offers/upsert.spec.ts`),
    'a prefix is no match',
  );
});
