/**
 * A failure record against the embedded mock says how to rerun the whole run: the runner passes the command line
 * as FLIS_REPRODUCE (runner/run-suites.ts) and every CheckFailure prints it (docs/architecture.md). Elsewhere the
 * variable is unset and no such line appears.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CheckFailure, withoutFrames } from '../../core/check-failure.ts';

const exchange = {
  request: { method: 'GET', url: 'http://127.0.0.1:41235/apis/v0/offers/o-1', headers: {} },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body: [], text: '[]', durationMs: 1 },
};

function failureUnder(reproduce: string | undefined): CheckFailure {
  const saved = process.env.FLIS_REPRODUCE;
  if (reproduce === undefined) delete process.env.FLIS_REPRODUCE;
  else process.env.FLIS_REPRODUCE = reproduce;
  try {
    return new CheckFailure('offer-cancel', 'spec 3 rule 4', 'canceled stayed false', { exchanges: [exchange] }, []);
  } finally {
    if (saved === undefined) delete process.env.FLIS_REPRODUCE;
    else process.env.FLIS_REPRODUCE = saved;
  }
}

test('a failure record prints FLIS_REPRODUCE, the command that reruns the run', () => {
  const command = 'npx flis run --seed 7 --suite offers --mock-fault cancel-flag-ignored';
  const f = failureUnder(command);
  assert.equal(f.record.rerun, command);
  assert.match(
    f.message,
    /^ {2}rerun the run: npx flis run --seed 7 --suite offers --mock-fault cancel-flag-ignored$/m,
  );
  // The embedded mock's port is gone after the run: no curl points at it.
  assert.doesNotMatch(f.message, /curl/);
});

test('without FLIS_REPRODUCE (any target but the embedded mock) there is no rerun line', () => {
  const f = failureUnder(undefined);
  assert.equal(f.record.rerun, undefined);
  assert.doesNotMatch(f.message, /rerun the run/);
  assert.match(f.message, /^ {2}reproduce: curl .*\/offers\/o-1/m);
});

test('a failure reaches the terminal as its record, without the stack frames of the tool (dist/ in an install)', () => {
  const f = withoutFrames(failureUnder(undefined));
  assert.doesNotMatch(f.stack ?? '', /^\s+at /m);
  assert.ok(f.stack?.startsWith('CheckFailure: [offer-cancel] spec 3 rule 4'), f.stack);
});
