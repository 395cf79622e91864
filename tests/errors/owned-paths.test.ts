/**
 * The ownership rule (errors/owned-paths.ts): flis deletes or overwrites only what it can prove it wrote. A folder
 * it creates carries the marker; an empty one is adopted; anything else of the user's is a PathError and untouched.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  checkFolder,
  checkNamesIn,
  claimFile,
  claimFolder,
  clearOwned,
  givenPath,
  MARKER,
} from '../../errors/owned-paths.ts';
import { diffSnapshots, makeSandbox, snapshotDir } from '../cli/bad-input-harness.ts';

const code = (e: unknown) => (e as { code?: string }).code;

describe('folders', () => {
  it('creates a missing folder with the marker, adopts an empty one, accepts a marked one', () => {
    const sb = makeSandbox();
    try {
      claimFolder(sb.path('new/reports/shard-1'), { flag: '--report-dir' });
      for (const made of ['new', 'new/reports', 'new/reports/shard-1'])
        assert.ok(existsSync(sb.path(made, MARKER)), `${made}, created by flis, carries the marker`);
      assert.ok(!existsSync(sb.path(MARKER)), 'a folder that was there already is not marked');
      sb.mkdir('empty');
      claimFolder(sb.path('empty'), { flag: '--report-dir' });
      assert.ok(existsSync(sb.path('empty', MARKER)), 'an empty folder is adopted');
      sb.write('new/reports/run.json', '{}');
      assert.equal(checkFolder(sb.path('new/reports'), { flag: '--report-dir' }), 'owned');
    } finally {
      sb.remove();
    }
  });

  it("refuses a folder holding the user's files, and a file, naming the path; checking leaves no trace", () => {
    const sb = makeSandbox();
    try {
      sb.write('mydocs/thesis.txt', 'chapter 1\n');
      sb.write('notes.txt', 'mine\n');
      const before = snapshotDir(sb.dir);
      assert.throws(
        () => claimFolder(sb.path('mydocs'), { flag: '--output' }),
        (e) => code(e) === 'FLIS_ERR_PATH' && /mydocs: --output names a folder .*thesis\.txt/.test(String(e)),
      );
      assert.throws(
        () => claimFolder(sb.path('notes.txt'), { flag: '--output' }),
        (e) => code(e) === 'FLIS_ERR_PATH' && /notes\.txt: --output names a file/.test(String(e)),
      );
      assert.throws(
        () => claimFolder(sb.path('notes.txt/deeper/reports'), { flag: '--report-dir' }),
        (e) => code(e) === 'FLIS_ERR_PATH' && /notes\.txt is a file, not a folder/.test(String(e)),
      );
      assert.equal(checkFolder(sb.path('not/yet'), { flag: '--report-dir' }), 'create');
      assert.deepEqual(diffSnapshots(before, snapshotDir(sb.dir)), [], 'a refused or checked path changed files');
    } finally {
      sb.remove();
    }
  });

  it("a folder that proves itself flis's (provesOurs) is adopted", () => {
    const sb = makeSandbox();
    try {
      sb.write('old/run.json', '{}');
      claimFolder(sb.path('old'), { flag: '--report-dir', provesOurs: (_d, entries) => entries.includes('run.json') });
      assert.ok(existsSync(sb.path('old', MARKER)));
    } finally {
      sb.remove();
    }
  });

  it('clears only the names it is given, and only in a marked folder', () => {
    const sb = makeSandbox();
    try {
      claimFolder(sb.path('r'), { flag: '--report-dir' });
      sb.write('r/results.json', '{}');
      sb.write('r/mine.txt', 'keep');
      clearOwned(sb.path('r'), ['results.json', MARKER, '../mine.txt']);
      assert.ok(!existsSync(sb.path('r/results.json')));
      assert.equal(readFileSync(sb.path('r/mine.txt'), 'utf8'), 'keep');
      assert.ok(existsSync(sb.path('r', MARKER)), 'the marker is never cleared');
      sb.write('u/results.json', '{}');
      assert.throws(
        () => clearOwned(sb.path('u'), ['results.json']),
        (e) => code(e) === 'FLIS_ERR_INTERNAL',
      );
      assert.ok(existsSync(sb.path('u/results.json')));
    } finally {
      sb.remove();
    }
  });
});

describe('files', () => {
  const har = { flag: 'OUT.har', kind: 'a HAR file', isOurs: (f: string) => readFileSync(f, 'utf8').startsWith('{') };

  it("an absent, empty or proven file may be replaced; a user's file or a folder may not", () => {
    const sb = makeSandbox();
    try {
      claimFile(sb.path('new/out.har'), har);
      assert.ok(!existsSync(sb.path('new')), 'claimFile creates nothing');
      claimFile(sb.write('empty.har', ''), har);
      claimFile(sb.write('ours.har', '{"log":{}}'), har);
      assert.throws(
        () => claimFile(sb.write('notes.txt', 'mine'), har),
        (e) => code(e) === 'FLIS_ERR_PATH' && /notes\.txt: exists and is not a HAR file flis wrote/.test(String(e)),
      );
      sb.mkdir('dir.har');
      assert.throws(
        () => claimFile(sb.path('dir.har'), har),
        (e) => code(e) === 'FLIS_ERR_PATH' && /OUT\.har names a folder/.test(String(e)),
      );
    } finally {
      sb.remove();
    }
  });

  it("names written into the user's folder: only those names are judged", () => {
    const sb = makeSandbox();
    try {
      sb.write('shared/cassette.yaml', 'mine');
      const names = [{ name: 'diff.md', kind: 'a diff report', isOurs: () => false }];
      checkNamesIn(sb.path('shared'), '--out', names);
      sb.write('shared/diff.md', 'my notes');
      assert.throws(
        () => checkNamesIn(sb.path('shared'), '--out', names),
        (e) => code(e) === 'FLIS_ERR_PATH' && /shared\/diff\.md: exists/.test(String(e)),
      );
    } finally {
      sb.remove();
    }
  });
});

it('an empty or blank path is a usage error naming the flag, never the current folder', () => {
  for (const raw of ['', '   ', '\t'])
    assert.throws(
      () => givenPath('--report-dir', raw),
      (e) => code(e) === 'FLIS_ERR_USAGE' && /--report-dir is empty/.test(String(e)),
    );
  assert.equal(givenPath('--report-dir', 'x'), join(process.cwd(), 'x'));
});
