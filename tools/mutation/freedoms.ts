/**
 * The freedom-annotation rule: a mutant may be marked a freedom only in place, one line at a time, naming the
 * mutators, and citing the spec clause that leaves the choice open:
 *
 *   // Stryker disable next-line StringLiteral: spec 7 error body not shown
 *
 * Every `Stryker` directive in mock/ must read so. A directive that disables a whole file or every mutator, or
 * whose reason cites no clause of the spec (reporting/clauses.ts), would hide a gap as a freedom.
 */
import { specClauses } from '../../reporting/clauses.ts';

export interface Directive {
  file: string;
  /** 1-based line of the comment. */
  line: number;
  text: string;
}

export interface DirectiveProblem extends Directive {
  problem: string;
}

/** What Stryker reads as a directive: a comment that starts with `Stryker disable` or `Stryker restore`. */
const DIRECTIVE = /\/\/\s?Stryker (?:disable|restore)\b.*$|\/\*\s?Stryker (?:disable|restore)\b[\s\S]*?\*\//gm;
const FREEDOM = /^(?:\/\/|\/\*)\s*Stryker disable next-line ([A-Za-z]+(?:\s*,\s*[A-Za-z]+)*)\s*:\s*(.+?)\s*(?:\*\/)?$/;
const CITATION = /\bspec \d+(?:\.\d+)?(?: rule \d+)?/g;
const KNOWN = new Set(specClauses.map((c) => c.id));

/** Every Stryker directive comment of a source text, with its line. */
export function directivesIn(file: string, text: string): Directive[] {
  return [...text.matchAll(DIRECTIVE)].map((m) => ({
    file,
    line: text.slice(0, m.index).split('\n').length,
    text: m[0].trim(),
  }));
}

/** Why a directive is not an honest freedom, or undefined when it is one. */
export function problemOf(text: string): string | undefined {
  const m = FREEDOM.exec(text);
  if (!m) return 'a freedom is marked with `// Stryker disable next-line Mutator: spec N …` only';
  const mutators = (m[1] ?? '').split(',').map((s) => s.trim());
  if (mutators.some((s) => s.toLowerCase() === 'all')) return 'name the mutators, not all';
  const cited = [...(m[2] ?? '').matchAll(CITATION)].map((c) => c[0]);
  if (cited.length === 0) return 'cite the spec clause that leaves the choice open (e.g. spec 7)';
  const unknown = cited.filter((c) => !KNOWN.has(c));
  if (unknown.length > 0) return `no such clause: ${unknown.join(', ')} (reporting/clauses.ts lists them)`;
  return undefined;
}

export function directiveProblems(directives: readonly Directive[]): DirectiveProblem[] {
  return directives.flatMap((d) => {
    const problem = problemOf(d.text);
    return problem ? [{ ...d, problem }] : [];
  });
}

/**
 * Directives that mark no mutant of their next line: Stryker reads a comment only where it leads a node of that
 * line (one inside a method chain leads nothing), so the freedom it claims is not taken. Each as `file:line`.
 */
export function idleDirectives(
  directives: readonly Directive[],
  mutants: readonly { file: string; start: { line: number }; freedom?: string | undefined }[],
): string[] {
  const marked = new Set(mutants.filter((m) => m.freedom !== undefined).map((m) => `${m.file}:${m.start.line}`));
  return directives
    .filter((d) => /disable next-line/.test(d.text) && !marked.has(`${d.file}:${d.line + 1}`))
    .map((d) => `${d.file}:${d.line}`);
}
