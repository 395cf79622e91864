/**
 * Which record a path names. A 404 from an operation whose path names a record
 * may just mean "no such record", so the checks that judge a 404 need to know
 * which record to create first.
 */
import type { Operation } from '../../specs/contract.ts';

const isParam = (segment: string) => segment.startsWith('{');

/** The template up to and including its last parameter before `end`, or undefined when there is none. */
function templateThroughLastParam(segments: string[], end: number): string | undefined {
  for (let i = end; i >= 0; i--) if (isParam(segments[i]!)) return `/${segments.slice(0, i + 1).join('/')}`;
  return undefined;
}

/**
 * The record that must exist before a 404 from `op` can mean "not served":
 * the deepest record its path names. A PUT to a path ending in an id creates
 * that record itself (spec 1), so only its parent must exist.
 */
export function recordTemplate(op: Operation): string | undefined {
  const segments = op.path.split('/').filter(Boolean);
  const last = segments.length - 1;
  const ownRecord = op.method === 'put' && isParam(segments[last]!);
  return templateThroughLastParam(segments, ownRecord ? last - 1 : last);
}
