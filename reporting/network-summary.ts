/**
 * What reaching the deployment took, in one line for the terminal and the
 * certificate: requests sent, throttling waited out, token refreshes and
 * timeouts (docs/throttling.md). None of them is a failure of the deployment.
 */
import type { NetworkFacts } from './certificate-types.ts';

export function describeNetwork(n: NetworkFacts): string {
  const capped = n.waitCapReached ? `, ${n.waitCapReached} given up at the wait cap (inconclusive)` : '';
  return [
    `${n.requests} requests`,
    `${n.throttled} throttled (waited ${(n.waitedMs / 1000).toFixed(1)} s in all${capped})`,
    `${n.tokenRefreshes} token refresh${n.tokenRefreshes === 1 ? '' : 'es'}`,
    `${n.timeouts} timed out (inconclusive)`,
    ...(n.closedBeforeAnswer ? [`${n.closedBeforeAnswer} closed before the answer (inconclusive)`] : []),
  ].join('; ');
}

/** Worth a line of its own after a run: the deployment throttled, a token was renewed, or a request timed out. */
export function networkWorthSaying(n: NetworkFacts | undefined): n is NetworkFacts {
  return (
    !!n && (n.throttled > 0 || n.tokenRefreshes > 0 || n.timeouts > 0 || n.waitCapReached > 0 || !!n.closedBeforeAnswer)
  );
}
