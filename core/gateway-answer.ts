/**
 * The gateway (runner/gateway.ts) answers a request it gave up on itself: the
 * deployment did not answer in time, or throttled past the run's wait cap, or
 * could not be reached. Such an answer carries the run's nonce in this header,
 * so a deployment cannot pass an answer of its own off as the gateway's; the
 * suites' client turns it into an inconclusive check (or an error when the
 * deployment could not be reached), never into a judged answer.
 */

export const GATEWAY_HEADER = 'x-flis-gateway';

/** `inconclusive`: the deployment's right (slow, throttling past the cap); `unreachable`: no HTTP answer at all. */
export type SyntheticKind = 'inconclusive' | 'unreachable';

export interface SyntheticBody {
  flisGateway: SyntheticKind;
  reason: string;
}

/** The gateway's own answer, when the headers carry the run's nonce; undefined for the deployment's answers. */
export function syntheticAnswer(
  headers: Record<string, string>,
  text: string,
  nonce: string | undefined,
): SyntheticBody | undefined {
  if (!nonce || headers[GATEWAY_HEADER] !== nonce) return undefined;
  try {
    const body = JSON.parse(text) as Partial<SyntheticBody>;
    if (body.flisGateway === 'inconclusive' || body.flisGateway === 'unreachable')
      return { flisGateway: body.flisGateway, reason: String(body.reason ?? 'no reason given') };
  } catch {
    // An answer the gateway wrote in a hurry (a bug in it): not a verdict on the deployment either.
  }
  return { flisGateway: 'unreachable', reason: `the flis gateway failed: ${text.slice(0, 200)}` };
}
