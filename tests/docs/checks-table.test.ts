/**
 * docs/checks-and-severity.md's tables are the catalogue's (suites/lib/catalogue.ts): every check has a row, in its
 * suite, with its severity first in the severity cell, and no row names a check the catalogue lacks. A row may name
 * several checks (`a`, `b`) or extend an earlier one (`a` (extended)).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CATALOGUE, catalogueEntry } from '../../suites/lib/catalogue.ts';

const DOC = 'docs/checks-and-severity.md';

interface Row {
  line: number;
  checks: string[];
  suite: string;
  severity: string;
}

function rows(): Row[] {
  const text = readFileSync(join(import.meta.dirname, '..', '..', DOC), 'utf8');
  return text.split('\n').flatMap((line, i) => {
    if (!line.startsWith('| `')) return [];
    const [first = '', suite = '', severity = ''] = line.split('|').slice(1);
    const checks = [...first.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]!);
    return [{ line: i + 1, checks, suite: suite.trim().replaceAll('`', ''), severity: severity.trim() }];
  });
}

test(`${DOC} has a row for every check of the catalogue, true to its suite and severity`, () => {
  const table = rows();
  assert.ok(table.length >= 20, `found only ${table.length} rows in ${DOC}`);
  const problems: string[] = [];
  for (const entry of CATALOGUE) {
    const mine = table.filter((r) => r.checks.includes(entry.id));
    if (mine.length === 0) {
      problems.push(`${DOC}: add a row for '${entry.id}' (suite ${entry.suite}, ${entry.severity})`);
      continue;
    }
    for (const r of mine) {
      if (r.suite !== entry.suite)
        problems.push(`${DOC}:${r.line}: '${entry.id}' is in suite '${entry.suite}', not '${r.suite}'`);
      if (!r.severity.startsWith(entry.severity))
        problems.push(`${DOC}:${r.line}: '${entry.id}' has severity '${entry.severity}', the row says '${r.severity}'`);
    }
  }
  for (const r of table)
    for (const id of r.checks)
      if (!catalogueEntry(id)) problems.push(`${DOC}:${r.line}: '${id}' is no check of suites/lib/catalogue.ts`);
  assert.deepEqual(problems, []);
});
