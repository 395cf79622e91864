/**
 * reporting/clauses.ts is the project's own copy of the spec's clause list: the certificate prints it and the
 * catalogue's citations are checked against it, so neither needs a file outside the repository. Where the spec itself
 * is at hand (../shared/interface-spec.md, beside a checkout in the service team's layout), this test holds the copy
 * to it; in any other clone it says that it skipped the comparison, and why.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { specClauses } from '../../reporting/clauses.ts';
import { ROOT } from '../runner/helpers.ts';

const SPEC = join(ROOT, '..', 'shared', 'interface-spec.md');

/** The clauses the spec has: its sections ("## 4." and "### 4.1") and the numbered rules under each section. */
export function clausesOfSpec(text: string): string[] {
  const clauses: string[] = [];
  let section: string | undefined;
  for (const line of text.split('\n')) {
    const heading = /^#{2,3} (\d+(?:\.\d+)?)\.? /.exec(line);
    if (heading) {
      clauses.push(`spec ${heading[1]}`);
      if (!heading[1]!.includes('.')) section = heading[1];
      continue;
    }
    const rule = /^(\d+)\. /.exec(line);
    if (rule && section) clauses.push(`spec ${section} rule ${rule[1]}`);
  }
  return clauses;
}

test('the spec reader finds sections, subsections and numbered rules', () => {
  const text = '# FLIS\n## 3. States\n1. first\n2. second\n### 3.1 More\n## 4. Endpoints\n### 4.1 Offers\n';
  assert.deepEqual(clausesOfSpec(text), ['spec 3', 'spec 3 rule 1', 'spec 3 rule 2', 'spec 3.1', 'spec 4', 'spec 4.1']);
});

test('the clause list is well formed: unique spec ids, each with a title', () => {
  const ids = specClauses.map((c) => c.id);
  assert.deepEqual(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    [],
    'a clause listed twice',
  );
  for (const c of specClauses) {
    assert.match(c.id, /^spec \d+(\.\d+)?( rule \d+)?$/, `reporting/clauses.ts: '${c.id}' is not a spec clause id`);
    assert.ok(c.title.trim().length > 0, `reporting/clauses.ts: '${c.id}' has no title`);
  }
});

test('reporting/clauses.ts lists the clauses of ../shared/interface-spec.md, no more and no fewer', (t) => {
  if (!existsSync(SPEC)) {
    t.skip(`${SPEC} is not beside this checkout: the copy in reporting/clauses.ts was not compared with the spec`);
    return;
  }
  const spec = clausesOfSpec(readFileSync(SPEC, 'utf8'));
  assert.ok(spec.includes('spec 4.1') && spec.includes('spec 3 rule 4'), `the spec reader found only: ${spec}`);
  const listed = new Set(specClauses.map((c) => c.id));
  // A section whose numbered rules are listed one by one needs no row of its own (spec 5 and spec 9 are only rules).
  const hasRules = (id: string) => [...listed].some((l) => l.startsWith(`${id} rule `));
  assert.deepEqual(
    spec.filter((c) => !listed.has(c) && !hasRules(c)).map((c) => `reporting/clauses.ts: add a row for '${c}'`),
    [],
  );
  assert.deepEqual(
    [...listed]
      .filter((c) => !spec.includes(c))
      .map((c) => `reporting/clauses.ts: '${c}' is not in ${SPEC}: remove or renumber it`),
    [],
  );
});
