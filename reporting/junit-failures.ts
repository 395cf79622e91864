/**
 * JUnit XML as CI dashboards read it: a failed check is a `<failure>` (a test that ran and found the target
 * wrong), and only an error outside any check (a bug, a network error) is an `<error>`. Playwright's junit
 * reporter calls every thrown error that is not an `expect()` an `<error>`, so the CheckFailure errors the
 * checks throw are rewritten here, with the suites' `failures`/`errors` counts moved along.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/** A CheckFailure element: its one CDATA section cannot hold "]]>", so the first "]]></error>" closes it. */
const CHECK_ERROR = /<error(\s[^>]*\btype="CheckFailure"[^>]*)>(\s*<!\[CDATA\[[\s\S]*?\]\]>)?(\s*)<\/error>/g;
const SUITE = /<testsuite(\s[^>]*)>([\s\S]*?)<\/testsuite>/g;

function shiftCounts(attrs: string, moved: number): string {
  if (moved === 0) return attrs;
  return attrs
    .replace(/\bfailures="(\d+)"/, (_, n: string) => `failures="${Number(n) + moved}"`)
    .replace(/\berrors="(\d+)"/, (_, n: string) => `errors="${Math.max(0, Number(n) - moved)}"`);
}

export function checkFailuresAsFailures(xml: string): string {
  let total = 0;
  const suites = xml.replace(SUITE, (_, attrs: string, body: string) => {
    let moved = 0;
    const rewritten = body.replace(CHECK_ERROR, (_m, a: string, cdata: string | undefined, space: string) => {
      moved += 1;
      return `<failure${a}>${cdata ?? ''}${space}</failure>`;
    });
    total += moved;
    return `<testsuite${shiftCounts(attrs, moved)}>${rewritten}</testsuite>`;
  });
  return suites.replace(/<testsuites(\s[^>]*)>/, (_, attrs: string) => `<testsuites${shiftCounts(attrs, total)}>`);
}

/** Rewrites DIR/junit.xml in place (through a temporary file, so a crash never leaves half a report). */
export function fixJunitFile(file: string): void {
  if (!existsSync(file)) return;
  const before = readFileSync(file, 'utf8');
  const after = checkFailuresAsFailures(before);
  if (after === before) return;
  writeFileSync(`${file}.tmp`, after);
  renameSync(`${file}.tmp`, file);
}
