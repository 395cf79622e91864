/**
 * Text made safe for a Markdown report (GitHub-flavoured, as a CI page or a pull request renders it), as
 * escape-html.ts makes it safe for HTML: what a partner, a cassette or a document supplied never becomes markup.
 * HTML's specials become entities (no raw `<script>`), a line break or other control character is shown as its escape
 * (it would end a table row, or start a heading), a `|` cannot end a table cell, and the marks that act in the middle
 * of a line (`*`, `_`, `~`, a backtick, brackets, a backslash) are escaped. Untrusted text goes through here, and never
 * into a code span, whose content a renderer shows raw. The reports put it in table cells and after a label, never at
 * the start of a line, where `#`, `-` or `>` would act.
 */
import { oneLine } from './one-line.ts';

const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

export function markdownText(s: string): string {
  return oneLine(s.replace(/[\\`*_~[\]|]/g, (c) => `\\${c}`).replace(/[&<>]/g, (c) => ENTITY[c] ?? c));
}
