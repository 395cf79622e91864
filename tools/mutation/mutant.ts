/**
 * A mutant as `npm run mutation` reports it: where it is, what it changes, and what became of it. Positions are
 * 1-based, as an editor counts lines and columns.
 */

export interface Position {
  line: number;
  column: number;
}

export interface Mutant {
  /** Stryker's id within one instrumentation (the value of __STRYKER_ACTIVE_MUTANT__). */
  id: string;
  /** Path from the repository root, with forward slashes. */
  file: string;
  /** Stryker's mutator name (StringLiteral, ConditionalExpression, …). */
  mutator: string;
  /** The code in place of the original. */
  replacement: string;
  start: Position;
  end: Position;
  /** The reason of the `// Stryker disable next-line` comment that marks it a freedom, if one does. */
  freedom?: string | undefined;
}

export const STATUSES = ['killed', 'timed out', 'survived', 'no coverage', 'freedom', 'error'] as const;
export type Status = (typeof STATUSES)[number];

export interface MutantResult extends Mutant {
  /** The original code, on one line (whitespace runs collapsed, cut past 100 characters). */
  original: string;
  status: Status;
  /** The checks whose contract failure killed it. */
  killedBy?: string[] | undefined;
  /** What else the run said: a survivor's PARTIAL verdict, an error's first line, why no run was needed. */
  detail?: string | undefined;
  /** Wall time of its flis run. */
  ms?: number | undefined;
  /** The conformant variant its run was against (`--mock-variant`), when only a variant's clean run reaches it. */
  mock?: string | undefined;
}

const MAX_SHOWN = 100;

/** Code on one line, for a report: whitespace runs collapsed, cut past 100 characters. */
export function oneLine(code: string): string {
  const flat = code.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SHOWN ? `${flat.slice(0, MAX_SHOWN - 1)}…` : flat;
}

/** The source text between two 1-based positions (the end column exclusive). */
export function sourceBetween(source: string, start: Position, end: Position): string {
  const lines = source.split('\n');
  if (start.line === end.line) return (lines[start.line - 1] ?? '').slice(start.column - 1, end.column - 1);
  const first = (lines[start.line - 1] ?? '').slice(start.column - 1);
  const middle = lines.slice(start.line, end.line - 1);
  const last = (lines[end.line - 1] ?? '').slice(0, end.column - 1);
  return [first, ...middle, last].join('\n');
}

/** `mock/routes/offers.ts:42:7`. */
export function whereOf(m: Pick<Mutant, 'file' | 'start'>): string {
  return `${m.file}:${m.start.line}:${m.start.column}`;
}
