/**
 * suites/lib/catalogue.ts is true of the suites and of the spec: every check id the suites annotate has a row (the
 * message says which row to add), in the suite it lives in, with every clause the suite cites for it and its
 * severity; no row names a check no suite has; every spec clause a row cites is in the project's clause list (reporting/clauses.ts).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { specClauses } from '../../reporting/clauses.ts';
import { CATALOGUE, type CatalogueEntry, catalogueEntry } from '../../suites/lib/catalogue.ts';
import { ROOT } from '../runner/helpers.ts';

const SHARED = new Set(['lib', 'generators']);

interface Use {
  check: string;
  suite: string;
  file: string;
  /** The clauses cited beside it, when written as a literal (or a literal constant of the file). */
  clauses?: string[];
  severity?: string;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? files(full) : name.endsWith('.ts') ? [full] : [];
  });
}

/** "spec 1, spec 3 rules 1-2; HTTP semantics" → ["spec 1", "spec 3 rule 1", "spec 3 rule 2", "HTTP semantics"]. */
export function expandClauses(text: string): string[] {
  return text
    .split(/[,;]/)
    .map((c) => c.trim())
    .filter(Boolean)
    .flatMap((c) => {
      const range = /^(spec \d+) rules (\d+)-(\d+)$/.exec(c);
      if (!range) return [c];
      return Array.from(
        { length: Number(range[3]) - Number(range[2]) + 1 },
        (_, i) => `${range[1]} rule ${Number(range[2]) + i}`,
      );
    });
}

/** Every `check: '<id>'` of the suites, with the clause and severity of the same object where they are literals. */
function uses(): Use[] {
  const out: Use[] = [];
  const suitesDir = join(ROOT, 'suites');
  for (const suite of readdirSync(suitesDir).filter((d) => !SHARED.has(d))) {
    if (!statSync(join(suitesDir, suite)).isDirectory()) continue;
    for (const file of files(join(suitesDir, suite))) {
      const text = readFileSync(file, 'utf8');
      const constants = new Map([...text.matchAll(/const (\w+) = '([^']*)';/g)].map((m) => [m[1]!, m[2]!]));
      for (const m of text.matchAll(/check: '([a-z0-9-]+)'/g)) {
        const object = text.slice(m.index, text.indexOf('}', m.index));
        const literal =
          /clause: '([^']*)'/.exec(object)?.[1] ?? constants.get(/clause: (\w+)\b/.exec(object)?.[1] ?? '');
        const severity = /severity: '(\w+)'/.exec(object)?.[1];
        out.push({
          check: m[1]!,
          suite,
          file: relative(ROOT, file),
          ...(literal !== undefined ? { clauses: expandClauses(literal) } : {}),
          ...(severity ? { severity } : {}),
        });
      }
    }
  }
  return out;
}

const used = uses();

function row(u: Use): string {
  const clauses = (u.clauses ?? ['spec …']).map((c) => `'${c}'`).join(', ');
  return `  { id: '${u.check}', clauses: [${clauses}], severity: '${u.severity ?? 'contract'}', suite: '${u.suite}' },`;
}

test('every check the suites annotate has its row in suites/lib/catalogue.ts, true to the suite', () => {
  assert.ok(used.length >= 30, `found ${used.length} check annotations in suites/`);
  const problems: string[] = [];
  for (const u of used) {
    const entry: CatalogueEntry | undefined = catalogueEntry(u.check);
    if (!entry) {
      problems.push(`${u.file} uses check '${u.check}', which suites/lib/catalogue.ts lacks: add the row\n${row(u)}`);
      continue;
    }
    if (entry.suite !== u.suite)
      problems.push(`suites/lib/catalogue.ts: '${u.check}' is in suite '${u.suite}' (${u.file}), not '${entry.suite}'`);
    for (const c of u.clauses ?? [])
      if (!(entry.clauses as readonly string[]).includes(c))
        problems.push(`suites/lib/catalogue.ts: add '${c}' to the clauses of '${u.check}' (${u.file} cites it)`);
    if (u.severity && u.severity !== entry.severity)
      problems.push(
        `suites/lib/catalogue.ts: '${u.check}' has severity '${u.severity}' in ${u.file}, not '${entry.severity}'`,
      );
  }
  assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
});

test('every row of the catalogue names a check some suite has, once', () => {
  const ids = CATALOGUE.map((e) => e.id);
  assert.deepEqual(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    [],
    'a check id appears in two rows',
  );
  const seen = new Set(used.map((u) => u.check));
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
test('every spec clause the catalogue cites is in the clause list of reporting/clauses.ts', () => {
  const missing = CATALOGUE.flatMap((e) =>
    e.clauses
      .filter((c) => c.startsWith('spec ') && !LISTED.has(c))
      .map((c) => `suites/lib/catalogue.ts: '${e.id}' cites '${c}', which reporting/clauses.ts does not list`),
  );
  assert.deepEqual(missing, []);
});

test('the clause expansion reads ranges and lists as the certificate does', () => {
  assert.deepEqual(expandClauses('spec 1, spec 3 rules 1-2; HTTP semantics'), [
    'spec 1',
    'spec 3 rule 1',
    'spec 3 rule 2',
    'HTTP semantics',
  ]);
});
