/**
 * A run owns its report folder: it clears what flis writes there (an old certificate never sits beside a new
 * run.json) and nothing else, in a folder it created or can prove an older flis left.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { MARKER } from '../../errors/owned-paths.ts';
import { claimReportFolder, clearReportFolder } from '../../reporting/report-folder.ts';
import { makeSandbox, runFlis, type Sandbox } from '../cli/bad-input-harness.ts';

const code = (e: unknown) => (e as { code?: string }).code;

/** A report folder as a flis without the marker left it: a run, a certify, a report, a diff and the history. */
function olderFlisFolder(sb: Sandbox, dir: string): void {
  sb.write(`${dir}/run.json`, JSON.stringify({ deployment: 'embedded', seed: 7, runId: 'flis-20250101-000000-old1' }));
  sb.write(`${dir}/results.json`, '{"suites":[],"errors":[]}');
  sb.write(`${dir}/certificate.json`, JSON.stringify({ verdict: { status: 'certified' }, run: { runId: 'old' } }));
  sb.write(`${dir}/certificate.html`, '<html>old run</html>');
  sb.write(`${dir}/certificate-acme.html`, '<html>old certify</html>');
  sb.write(`${dir}/allure-report/index.html`, '<html>old allure</html>');
  sb.write(`${dir}/observations/worker-1.json`, '{}');
  sb.write(`${dir}/allure-history.jsonl`, '{"uuid":"h1"}\n');
  sb.write(`${dir}/diff.md`, '# flis cassette diff\n');
}

describe('the report folder', () => {
  it('a folder an older flis left is adopted and cleared of what runs write; the history and diffs stay', () => {
    const sb = makeSandbox();
    try {
      olderFlisFolder(sb, 'reports');
      clearReportFolder(sb.path('reports'));
      assert.deepEqual(readdirSync(sb.path('reports')).sort(), [MARKER, 'allure-history.jsonl', 'diff.md'].sort());
      assert.equal(readFileSync(sb.path('reports/allure-history.jsonl'), 'utf8'), '{"uuid":"h1"}\n');
    } finally {
      sb.remove();
    }
  });

  it("one file of the user's among flis's names disproves it: refused, nothing touched", () => {
    const sb = makeSandbox();
    try {
      olderFlisFolder(sb, 'reports');
      sb.write('reports/thesis.txt', 'chapter 1\n');
      assert.throws(
        () => clearReportFolder(sb.path('reports')),
        (e) =>
          code(e) === 'FLIS_ERR_PATH' && /reports: --report-dir names a folder flis did not create/.test(String(e)),
      );
      assert.ok(existsSync(sb.path('reports/certificate-acme.html')));
      assert.ok(!existsSync(sb.path('reports', MARKER)));
    } finally {
      sb.remove();
    }
  });

  it("flis's names without a run.json or certificate flis wrote (a working folder) prove nothing", () => {
    const sb = makeSandbox();
    try {
      sb.write('work/results.json', '{"mine":true}');
      sb.write('work/blob/precious.txt', 'precious');
      sb.write('work/observations/notes.txt', 'notes');
      assert.throws(() => claimReportFolder(sb.path('work'), 'FLIS_REPORT_DIR'), /FLIS_REPORT_DIR names a folder/);
    } finally {
      sb.remove();
    }
  });
});

describe('flis run in a folder a run owns', () => {
  it('clears the earlier run, certify and report outputs, keeps the rest, and marks the folder', async () => {
    const sb = makeSandbox();
    try {
      olderFlisFolder(sb, 'reports');
      const r = await runFlis(['run', '--suite', 'bad-input', '--progress', 'none', '--seed', '3'], {
        cwd: sb.dir,
        timeoutMs: 300_000,
      });
      assert.equal(r.code, 0, `flis run failed:\n${r.stdout}\n${r.stderr}`);
      const left = readdirSync(sb.path('reports'));
      for (const stale of ['certificate-acme.html', 'allure-report'])
        assert.ok(!left.includes(stale), `${stale} of an earlier run is still beside this run's reports: ${left}`);
      assert.ok(left.includes(MARKER), 'the adopted folder carries the marker');
      assert.doesNotMatch(readFileSync(sb.path('reports/certificate.html'), 'utf8'), /old run/);
      assert.deepEqual(readdirSync(sb.path('reports/observations')).includes('worker-1.json'), false);
      assert.equal(readFileSync(sb.path('reports/allure-history.jsonl'), 'utf8'), '{"uuid":"h1"}\n');
      assert.equal(readFileSync(sb.path('reports/diff.md'), 'utf8'), '# flis cassette diff\n');
    } finally {
      sb.remove();
    }
  });
});
