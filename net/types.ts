/**
 * The contract between the parts that connect flis to a deployment (net/) and
 * the gateway that every suite request goes through (runner/gateway*.ts).
 * net/ imports errors/ only; everything that talks to a deployment takes these.
 */
import type { Dispatcher } from 'undici';

/** How to reach a deployment: proxy, extra CAs, client certificate. Parsed and checked from flags and environment. */
export interface ConnectionSettings {
  /** `--proxy URL`; when absent, HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured (undici EnvHttpProxyAgent). */
  proxy?: string;
  /** PEM text of `--ca-file`, added to Node's default CAs. */
  ca?: string;
  /** PEM text of `--client-cert` and `--client-key`, with the key's passphrase from the environment. */
  clientCert?: string;
  clientKey?: string;
  clientKeyPassphrase?: string | undefined;
}

/** Where the run's bearer token comes from, and how it is renewed. */
export interface TokenSource {
  /** The token to send now (fetched or renewed ahead of its expiry). */
  current(): Promise<string>;
  /**
   * Renew at once (after a 401 with error="invalid_token"); resolves with the new token. Given the token that
   * was refused, a source that has renewed since hands out its current token without asking again, so many
   * requests refused with the same old token cost one renewal, not one each.
   */
  refresh(reason: string, refused?: string): Promise<string>;
  /** True for every token this source has issued during the run (the current one and earlier ones). */
  isRunToken(token: string): boolean;
  /** Every secret this source knows: each token issued so far, the client secret, proxy credentials. */
  secrets(): string[];
  /** Called with each new secret as it is learnt, so redaction learns it before it can be printed. */
  onSecret(listener: (secret: string) => void): void;
  /** Renewals so far, for run.json and the certificate. */
  refreshes(): { at: string; reason: string }[];
  close(): Promise<void>;
}

/** Everything a command needs to talk to a deployment. */
export interface Connection {
  settings: ConnectionSettings;
  /** undici dispatcher with the proxy, CAs and client certificate applied. */
  dispatcher: Dispatcher;
  tokens: TokenSource;
}
