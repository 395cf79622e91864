/**
 * Open the connection a command talks to a deployment with: the dispatcher
 * (proxy, CAs, client certificate) and the token source. Every secret it
 * knows (tokens, client secret, proxy credentials) is in `tokens.secrets()`.
 */
import { ConfigError } from '../errors/flis-error.ts';
import { checkToken } from '../errors/token-value.ts';
import type { Dispatcher } from 'undici';
import { ClientCredentialsToken } from './client-credentials.ts';
import { buildDispatcher } from './dispatcher.ts';
import { proxySecrets } from './proxy-url.ts';
import { SecretBook } from './secret-book.ts';
import { StaticToken } from './static-token.ts';
import { CommandToken } from './token-command.ts';
import type { TokenOptions } from './token-options.ts';
import type { Connection, ConnectionSettings, TokenSource } from './types.ts';

export type { TokenOptions } from './token-options.ts';
export { proxySecrets } from './proxy-url.ts';

function tokenSource(
  token: TokenOptions,
  env: NodeJS.ProcessEnv,
  book: SecretBook,
  dispatcher: Dispatcher,
  tokenRequired: boolean,
): TokenSource {
  if (token.kind === 'static') {
    const value = token.token || env.FLIS_TOKEN || '';
    if (!value && tokenRequired)
      throw new ConfigError(
        'no bearer token: set FLIS_TOKEN, or give --token-url or --token-command',
        {},
        'FLIS_ERR_SECRET_MISSING',
      );
    // The target's token was checked where it was read (config/deployments.ts); FLIS_TOKEN is read here.
    return new StaticToken(value && checkToken(value, token.token ? 'the bearer token' : 'FLIS_TOKEN'), book);
  }
  if (token.kind === 'client-credentials') return new ClientCredentialsToken(token, dispatcher, book);
  return new CommandToken(token.command, env, book);
}

/**
 * `tokenRequired: false` is for the recorder, whose client sends its own token: without one, no request
 * carries a run token and nothing is swapped.
 */
export async function openConnection(
  settings: ConnectionSettings,
  token: TokenOptions,
  env: NodeJS.ProcessEnv,
  { tokenRequired = true }: { tokenRequired?: boolean } = {},
): Promise<Connection> {
  const book = new SecretBook();
  for (const secret of [...proxySecrets(settings, env), settings.clientKeyPassphrase]) book.add(secret);
  const dispatcher = buildDispatcher(settings, env);
  try {
    const tokens = tokenSource(token, env, book, dispatcher, tokenRequired);
    // The first token is fetched before the run: a token endpoint or command that fails stops it here (exit 2).
    await tokens.current();
    return { settings, dispatcher, tokens };
  } catch (error) {
    await dispatcher.close();
    throw error;
  }
}

const PROXY_VARIABLES = [
  'http_proxy',
  'HTTP_PROXY',
  'https_proxy',
  'HTTPS_PROXY',
  'no_proxy',
  'NO_PROXY',
  'FLIS_PROXY',
];

/**
 * The environment without its proxy variables: the embedded mock listens on loopback in this very process,
 * and a corporate HTTPS_PROXY must not be asked to reach it.
 */
export function withoutProxyEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !PROXY_VARIABLES.includes(name)));
}

/** Close what openConnection opened: the token source's timers and the dispatcher's sockets. */
export async function closeConnection(connection: Connection): Promise<void> {
  await connection.tokens.close();
  await connection.dispatcher.close();
}
