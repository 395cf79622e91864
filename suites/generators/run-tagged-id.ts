/**
 * An id or reference the suite writes. It always starts with the run id, so
 * everything a run leaves on a deployment can be found and attributed to it.
 * Only [A-Za-z0-9-] follow: the spec says ids are strings (spec 2) but not which
 * characters a server accepts in a path segment, so the suite stays safe there.
 */
import fc from 'fast-check';

// Built once: compiling the pattern into an arbitrary is far dearer than drawing from it.
const suffixArb = fc.stringMatching(/^[a-z0-9]{1,12}$/);

export function runTaggedIdArb(runId: string, kind: string): fc.Arbitrary<string> {
  return suffixArb.map((suffix) => `${runId}-${kind}-${suffix}`);
}
