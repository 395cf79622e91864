/**
 * The table of freedoms (specs/freedoms.ts) is what docs/verdicts.md shows, and each row holds: the files that leave
 * it open exist, and the preset that proves it exists and sets every option the row names (a preset that stopped
 * taking the choice would prove nothing).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { variantPresets } from '../../mock/variant.ts';
import { FREEDOMS } from '../../specs/freedoms.ts';
import { freedomsTable, tableInPage, VERDICTS } from './freedoms-table.ts';

const ROOT = join(import.meta.dirname, '..', '..');

test('docs/verdicts.md shows the table of specs/freedoms.ts', () => {
  assert.equal(
    tableInPage(readFileSync(VERDICTS, 'utf8')),
    freedomsTable(),
    'regenerate it: node --import tsx tests/docs/freedoms-table.ts',
  );
});

test('every freedom names files that exist and a preset that takes the choice', () => {
  const problems: string[] = [];
  for (const f of FREEDOMS) {
    for (const file of f.leftOpenIn) if (!existsSync(join(ROOT, file))) problems.push(`${f.freedom}: no ${file}`);
    const preset = (variantPresets as unknown as Record<string, Record<string, unknown> | undefined>)[f.proof.preset];
    if (!preset) {
      problems.push(`${f.freedom}: no preset '${f.proof.preset}'`);
      continue;
    }
    for (const option of f.proof.options)
      if (preset[option] === undefined)
        problems.push(`${f.freedom}: preset '${f.proof.preset}' does not set ${option}`);
  }
  assert.deepEqual(problems, []);
});
