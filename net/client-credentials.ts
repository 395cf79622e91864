/**
 * The OAuth 2.0 client credentials grant (RFC 6749 4.4) against --token-url:
 * the client authenticates with HTTP Basic (2.3.1), the token is fetched
 * before the run and renewed ahead of expires_in or on refresh(). The token
 * endpoint is reached through the same dispatcher as the deployment.
 */
import { type Dispatcher, request } from 'undici';
import { FlisError } from '../errors/flis-error.ts';
import { isConnectionReset } from '../errors/connection-reset.ts';
import { describeNetworkError, PROXY_407 } from './network-error.ts';
import { type IssuedToken, RenewingToken, tokenFromJson } from './renewing-token.ts';
import type { SecretBook } from './secret-book.ts';

export const TOKEN_REQUEST_TIMEOUT_MS = 15_000;

export interface ClientCredentials {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope?: string | undefined;
}

/** RFC 6749 2.3.1: id and secret are form-encoded before they are joined and base64-encoded. */
function basicAuthorization(clientId: string, clientSecret: string): string {
  const form = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${form(clientId)}:${form(clientSecret)}`).toString('base64')}`;
}

function tokenError(message: string): FlisError {
  return new FlisError('FLIS_ERR_TOKEN', message);
}

export class ClientCredentialsToken extends RenewingToken {
  constructor(
    private readonly grant: ClientCredentials,
    private readonly dispatcher: Dispatcher,
    book: SecretBook,
  ) {
    super(book);
    book.add(grant.clientSecret);
  }

  protected override issuer(): string {
    return `the token endpoint ${this.grant.tokenUrl}`;
  }

  protected async issue(): Promise<IssuedToken> {
    const { tokenUrl, clientId, clientSecret, scope } = this.grant;
    const form = new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
    const ask = () =>
      request(tokenUrl, {
        method: 'POST',
        dispatcher: this.dispatcher,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          authorization: basicAuthorization(clientId, clientSecret),
        },
        body: form.toString(),
        signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
      });
    let res: Dispatcher.ResponseData;
    try {
      // Asking for a token twice is harmless (the first, if issued, is never used): a reset connection is asked again.
      res = await ask().catch((error: unknown) => {
        if (isConnectionReset(error)) return ask();
        throw error;
      });
    } catch (error) {
      throw tokenError(
        `token endpoint ${tokenUrl} is unreachable: ${describeNetworkError(error, TOKEN_REQUEST_TIMEOUT_MS)}; check --token-url`,
      );
    }
    const text = await res.body.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (res.statusCode === 407) throw tokenError(`token endpoint ${tokenUrl}: ${PROXY_407}`);
    const oauthError = (body as { error?: unknown } | undefined)?.error;
    if (res.statusCode >= 400 || typeof oauthError === 'string') {
      if (oauthError === 'invalid_client' || res.statusCode === 401)
        throw tokenError(
          `token endpoint ${tokenUrl} refused the client (${typeof oauthError === 'string' ? oauthError : res.statusCode}); check FLIS_CLIENT_ID and FLIS_CLIENT_SECRET`,
        );
      throw tokenError(
        `token endpoint ${tokenUrl} answered ${res.statusCode}${typeof oauthError === 'string' ? ` (${oauthError.slice(0, 60)})` : ''}; check --token-url${oauthError === 'invalid_scope' ? ' and --scope' : ''}`,
      );
    }
    const issued = tokenFromJson(body);
    if (!issued)
      throw tokenError(
        `token endpoint ${tokenUrl} answered ${res.statusCode} without an access_token; check --token-url`,
      );
    return issued;
  }
}
