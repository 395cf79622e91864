/**
 * suites/lib/catalogue.ts is true of the suites and of the spec. The type system keeps most of it: `CheckId` is derived
 * from the rows, so a check id, or the owner a check is blocked by, that has no row does not compile, nor does a test
 * citing a clause its row lacks, nor a test repeating its clause or severity (the row's are the only ones). What types
 * cannot say is tested here: each row sits in the suite that names it, no row is left over, every spec clause a row
 * cites is in the project's clause list (reporting/clauses.ts), and the citation a test carries reads back, through the
 * certificate's one clause parser, into the row's clause ids.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { BEYOND_SPEC, citedClauses, specClauses } from '../../reporting/clauses.ts';
import { citation } from '../../specs/check-ids.ts';
import { CATALOGUE, catalogueEntry, type CheckId, clausesOf } from '../../suites/lib/catalogue.ts';
import { Check } from '../../suites/lib/check.ts';
import { CheckFailure } from '../../core/check-failure.ts';
import type { checkTest } from '../../suites/lib/check-test.ts';
import { ROOT } from '../runner/helpers.ts';

const SHARED = new Set(['lib', 'generators']);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? files(full) : name.endsWith('.ts') ? [full] : [];
  });
}

/** The suite folder of every check id a suite's files name (`check: '<id>'`): which suite a check lives in. */
function suitesNaming(): { check: string; suite: string; file: string }[] {
  const suitesDir = join(ROOT, 'suites');
  return readdirSync(suitesDir)
    .filter((d) => !SHARED.has(d) && statSync(join(suitesDir, d)).isDirectory())
    .flatMap((suite) =>
      files(join(suitesDir, suite)).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/check: '([a-z0-9-]+)'/g)].map((m) => ({
          check: m[1]!,
          suite,
          file: relative(ROOT, file),
        })),
      ),
    );
}

const named = suitesNaming();

test('every check a suite names is in the suite its row says', () => {
  assert.ok(named.length >= 30, `found ${named.length} check ids in suites/`);
  const problems = named.flatMap((u) => {
    const entry = catalogueEntry(u.check);
    if (entry && entry.suite === u.suite) return [];
    return [
      entry
        ? `suites/lib/catalogue.ts: '${u.check}' is in suite '${u.suite}' (${u.file}), not '${entry.suite}'`
        : `${u.file} names check '${u.check}', which suites/lib/catalogue.ts lacks`,
    ];
  });
  assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
});

test('every row of the catalogue names a check some suite has, once', () => {
  const ids = CATALOGUE.map((e) => e.id);
  assert.deepEqual(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    [],
    'a check id appears in two rows',
  );
  const seen = new Set(named.map((u) => u.check));
  assert.deepEqual(
    ids
      .filter((id) => !seen.has(id))
      .map((id) => `suites/lib/catalogue.ts: remove the row of '${id}': no suite has it`),
    [],
  );
});

const LISTED = new Set(specClauses.map((c) => c.id));

/**
 * The project's own clause list (reporting/clauses.ts, the one the certificate prints) is the reference here, so the
 * test needs nothing outside the repository; tests/reporting/clauses.test.ts compares that list with the spec itself
 * where ../shared/interface-spec.md is at hand.
 */
test('every clause the catalogue cites is in the clause list of reporting/clauses.ts', () => {
  const missing = CATALOGUE.flatMap((e) =>
    e.clauses
      .filter((c) => (c.startsWith('spec ') ? !LISTED.has(c) : c !== BEYOND_SPEC))
      .map((c) => `suites/lib/catalogue.ts: '${e.id}' cites '${c}', which reporting/clauses.ts does not list`),
  );
  assert.deepEqual(missing, []);
});

test("a row's citation reads back, through the certificate's clause parser, into the row's clauses", () => {
  for (const e of CATALOGUE)
    assert.deepEqual(
      [...citedClauses(citation(e.clauses))].sort(),
      [...e.clauses].sort(),
      `'${e.id}' is cited as '${citation(e.clauses)}'`,
    );
  assert.equal(citation(['spec 3 rule 1', 'spec 3 rule 2']), 'spec 3 rules 1-2');
  assert.equal(
    citation(['HTTP semantics', 'spec 2.3', 'spec 4', 'spec 5 rule 3']),
    'HTTP semantics; spec 2.3, spec 4, spec 5 rule 3',
  );
});

test("a test takes its clause and severity from its row, or narrows the clause to some of the row's", () => {
  assert.deepEqual(
    { ...new Check({ check: 'bad-input-rejected' }, []).meta },
    { check: 'bad-input-rejected', clause: 'HTTP semantics; spec 2.3, spec 4, spec 5 rule 3', severity: 'advisory' },
  );
  assert.equal(new Check({ check: 'record-identity', clauses: ['spec 4.2'] }, []).meta.clause, 'spec 4.2');
});

test("one failure cites one clause of the catalogue, or its check's whole citation", () => {
  const check = new Check({ check: 'billing-forced-status' }, []);
  assert.throws(
    () => check.fail('why', {}, 'spec 3 rule 2'),
    (e: unknown) => e instanceof CheckFailure && e.record.clause === 'spec 3 rule 2',
  );
  assert.throws(
    () => check.fail('why'),
    (e: unknown) => e instanceof CheckFailure && e.record.clause === 'spec 3 rules 1-2',
  );
});

test('a clause read from the contract that the row lacks fails the suites as they load, naming the row', () => {
  assert.deepEqual(clausesOf('response-schema', ['spec 4.1', 'spec 2.2']), ['spec 4.1', 'spec 2.2']);
  assert.throws(
    () => clausesOf('response-schema', ['spec 4.1', 'spec 6']),
    /suites\/lib\/catalogue\.ts: add 'spec 6' to the clauses of 'response-schema'/,
  );
});

/**
 * Never called: its lines only have to compile, and each `@ts-expect-error` fails `npm run typecheck` (run by
 * `npm test`) the day the line under it compiles, that is, the day a wrong id, owner or clause is accepted.
 */
export function wrongIdsDoNotCompile(check: Check, checkTestOf: typeof checkTest): void {
  const body = async () => {};
  // @ts-expect-error: 'no-such-check' is no row of the catalogue
  checkTestOf({ check: 'no-such-check' }, body);
  // @ts-expect-error: 'no-such-check' is no row of the catalogue
  new Check({ check: 'no-such-check' }, []);
  // @ts-expect-error: a check is blocked by a check of the catalogue, not by any text
  check.blocked('no-such-owner', undefined, 'why');
  // @ts-expect-error: record-identity's row does not cite spec 6
  checkTestOf({ check: 'record-identity', clauses: ['spec 6'] }, body);
  // @ts-expect-error: the clause and severity are the row's; a test's metadata does not repeat them
  checkTestOf({ check: 'offer-upsert', clause: 'spec 1', severity: 'contract' }, body);
  checkTestOf({ check: 'record-identity', clauses: ['spec 4.2'] }, body);
  // @ts-expect-error: one failure cites a clause of the catalogue, not any text
  check.fail('why', {}, 'spec 3 rule 9');
  const typo: CheckId = 'offer-upsert';
  // @ts-expect-error: a typo of a check id is no check id
  const other: CheckId = 'offer-upsrt';
  void [typo, other];
}
