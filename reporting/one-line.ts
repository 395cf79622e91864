/**
 * Text from a cassette, a partner or a document shown on one line of a terminal or a report: a line break, an escape
 * sequence or any other control character is written as its escape (`\n`, `\u001b`), so a partner's name can neither
 * add a line nor move the cursor. Nothing else changes.
 */
export function oneLine(s: string): string {
  // C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
