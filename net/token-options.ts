/** Where the run's bearer token comes from, as the flags and environment asked (net/connection-options.ts). */
export type TokenOptions =
  /** A fixed token: the one given, else FLIS_TOKEN (the target's own variable is resolved by config/deployments.ts). */
  | { kind: 'static'; token?: string }
  /** OAuth 2.0 client credentials grant against --token-url. */
  | { kind: 'client-credentials'; tokenUrl: string; clientId: string; clientSecret: string; scope?: string | undefined }
  /** --token-command: a shell command that prints a token, or JSON with access_token and expires_in. */
  | { kind: 'command'; command: string };

/** True when the token is issued during the run rather than read from the environment. */
export function issuesTokens(token: TokenOptions): boolean {
  return token.kind !== 'static';
}

/** The static case with the target's token filled in (the deployment's token variable, or the embedded mock's). */
export function withTargetToken(token: TokenOptions, targetToken: string | undefined): TokenOptions {
  return token.kind === 'static' && !token.token && targetToken ? { kind: 'static', token: targetToken } : token;
}
