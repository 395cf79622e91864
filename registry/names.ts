/**
 * The names the registry takes from its users: a partner, a release candidate, a deployment. Each becomes a path
 * segment of a URL and a key of the database, never a file name, but a name that could climb out of a path ("..",
 * "/", "\", "%2F") or hide in one (control characters, spaces) is refused all the same, with one line saying what
 * a name may hold.
 */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export type NameKind = 'partner' | 'release' | 'deployment';

/** Why `value` is no valid name of its kind, or undefined when it is one. */
export function nameProblem(kind: NameKind, value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return `a ${kind} name is required`;
  if (!NAME.test(value) || value.includes('..'))
    return `a ${kind} name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit, with no '..'; got ${JSON.stringify(value.slice(0, 80))}`;
  return undefined;
}

export class NameError extends Error {}

/** The name itself, or a NameError saying what a name may hold. */
export function checkName(kind: NameKind, value: unknown): string {
  const problem = nameProblem(kind, value);
  if (problem) throw new NameError(problem);
  return value as string;
}
