/**
 * Section 4.3 records as path-addressed records (docs/verdicts.md, "The model of the spec's state"): a write that
 * reaches its parent, ids that differ only by case taken for one, a record made by POST that a PUT does not update,
 * a list that leaves out what the GET by id shows or keeps what a DELETE removed, and a DELETE that works once. Each
 * fault fails exactly its owner (tests/suites/fault-owners.ts) on three seeds, over every suite that writes or reads
 * section 4.3 records; the checks whose shapes also meet it are blocked by the owner, never failed. Faults share a run
 * where neither hides the other: the world-model explorer stops at the first divergence it meets, so its own fault has
 * a run without another that its sequences meet first.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe } from 'node:test';
import { type FaultRun, testFaultRuns } from './fault-owners.ts';

const TOKEN = `record-model-faults-${randomBytes(12).toString('hex')}`;
const SEEDS = [101, 202, 303];
const SUITES = ['contract', 'records', 'model'];
const reportRoot = mkdtempSync(join(tmpdir(), 'flis-record-model-faults-'));
after(() => rmSync(reportRoot, { recursive: true, force: true }));

const RUNS: FaultRun[] = [
  {
    suites: SUITES,
    faults: ['record-child-overwrites-parent', 'record-posted-not-updated'],
    mustBlock: { 'record-upsert': /^blocked by record-isolation on /, 'world-model': /^blocked by record-/ },
  },
  {
    suites: SUITES,
    faults: ['record-ids-fold-case', 'record-list-keeps-deleted'],
    mustBlock: { 'world-model': /^blocked by record-/ },
  },
  { suites: SUITES, faults: ['record-list-omits-updated'], mustBlock: { 'world-model': /^blocked by record-upsert / } },
  { suites: SUITES, faults: ['record-second-delete-ignored'] },
];

describe('section 4.3 record faults, each failing its owner alone, on three seeds', { concurrency: 2 }, () => {
  testFaultRuns(RUNS, SEEDS, { token: TOKEN, reportRoot, runIdPrefix: 'flis-record-model' });
});
