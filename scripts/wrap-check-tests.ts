/**
 * Rewrites spec files so each calls Playwright's test() itself:
 * `checkTest(meta, body);` becomes `test(...checkTest(meta, body));` (and the
 * same for contractTest), importing `test` next to the helper. Playwright
 * records a test's location as the line that called test(); called inside a
 * helper, every test would point at the helper. Idempotent: a call already
 * wrapped is left alone. Run after merging a branch that adds checks the old way:
 *   node --import tsx scripts/wrap-check-tests.ts $(git ls-files 'suites/*.spec.ts') && npx biome check --write suites
 */
import { readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';

const HELPERS = ['checkTest', 'contractTest'];

function bareHelperCalls(sf: ts.SourceFile): [number, number][] {
  const found: [number, number][] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isExpressionStatement(node) &&
      ts.isCallExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      HELPERS.includes(node.expression.expression.text)
    )
      found.push([node.expression.getStart(sf), node.expression.end]);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function importTest(text: string): string {
  return text
    .replace(/import \{([^}]*)\bcheckTest\b([^}]*)\} from '(\.\.\/lib\/check-test\.ts)';/, (m, a, b, f) =>
      /\btest\b/.test(a + b) ? m : `import {${a}checkTest, test${b}} from '${f}';`,
    )
    .replace(/import \{([^}]*)\bcontractTest\b([^}]*)\} from '(\.\/contract-test\.ts)';/, (m, a, b, f) =>
      /\btest\b/.test(a + b) ? m : `import {${a}contractTest, test${b}} from '${f}';`,
    );
}

/** The file's text with every bare helper call wrapped; the same text when there is none. */
export function wrapCheckTests(file: string, text: string): string {
  const calls = bareHelperCalls(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  if (calls.length === 0) return text;
  let out = text;
  for (const [a, b] of calls.sort((x, y) => y[0] - x[0]))
    out = `${out.slice(0, a)}test(...${out.slice(a, b)})${out.slice(b)}`;
  return importTest(out);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const file of process.argv.slice(2)) {
    const text = readFileSync(file, 'utf8');
    const out = wrapCheckTests(file, text);
    if (out !== text) {
      writeFileSync(file, out);
      console.log(`wrapped ${file}`);
    }
  }
}
