/**
 * Proxy URLs as the flags and environment give them: the address (safe to
 * print) apart from the credentials (secrets). No undici here: cli/main.ts
 * reads the proxy passwords to redact on every start.
 */
import type { ConnectionSettings } from './types.ts';

/** A proxy URL split into the address (safe to print) and its Basic credentials (a secret). */
export function splitProxyUrl(raw: string): { uri: string; user?: string; password?: string; authorization?: string } {
  const url = new URL(raw);
  if (!url.username && !url.password) return { uri: url.toString() };
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  return { uri: url.toString(), user, password, authorization };
}

/** The proxies the environment names (lower case first, as curl and undici read them); '' means none. */
export function environmentProxies(env: NodeJS.ProcessEnv): { httpProxy: string; httpsProxy: string; noProxy: string } {
  const httpProxy = env.http_proxy ?? env.HTTP_PROXY ?? '';
  return {
    httpProxy,
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? httpProxy,
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  };
}

/** True when nothing stands between flis and a deployment: no proxy (flag or environment), no CA, no client certificate. */
export function isDirect(settings: ConnectionSettings, env: NodeJS.ProcessEnv): boolean {
  const { httpProxy, httpsProxy } = environmentProxies(env);
  return Object.keys(settings).length === 0 && !httpProxy && !httpsProxy;
}

/** Proxy credentials are secrets too: the user, the password and the Basic header made of them. */
export function proxySecrets(settings: ConnectionSettings, env: NodeJS.ProcessEnv): string[] {
  const { httpProxy, httpsProxy } = environmentProxies(env);
  const urls = settings.proxy ? [settings.proxy] : [httpProxy, httpsProxy].filter(Boolean);
  return urls.flatMap((raw) => {
    try {
      const { password, authorization } = splitProxyUrl(raw);
      return password && authorization ? [password, authorization.slice('Basic '.length)] : [];
    } catch {
      return [];
    }
  });
}
