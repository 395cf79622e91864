/**
 * The connection flags every command that talks to a deployment takes (run,
 * certify, record, diff): proxy, CAs, client certificate and where the token
 * comes from, each with its environment variable. Files are read and checked
 * here, so a bad one exits 2 before anything is sent.
 */
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { ConfigError, UsageError } from '../errors/flis-error.ts';
import { readUserFile } from '../errors/user-file.ts';
import { splitProxyUrl } from './dispatcher.ts';
import type { TokenOptions } from './token-options.ts';
import type { ConnectionSettings } from './types.ts';

/** Spread into a command's node:util parseArgs options. */
export const connectionOptionSpec = {
  proxy: { type: 'string' },
  'ca-file': { type: 'string' },
  'client-cert': { type: 'string' },
  'client-key': { type: 'string' },
  'token-url': { type: 'string' },
  scope: { type: 'string' },
  'token-command': { type: 'string' },
} as const;

export interface ConnectionValues {
  proxy?: string;
  'ca-file'?: string;
  'client-cert'?: string;
  'client-key'?: string;
  'token-url'?: string;
  scope?: string;
  'token-command'?: string;
}

export const CONNECTION_HELP = `Connection (see docs/connecting.md):
  --proxy URL              forward through this proxy; user:password@ in the URL is sent as
                           Proxy-Authorization (default: HTTPS_PROXY, HTTP_PROXY, NO_PROXY)  [env FLIS_PROXY]
  --ca-file FILE           PEM CA certificate(s) to trust beside Node's own, for a private CA [env FLIS_CA_FILE]
  --client-cert FILE       PEM client certificate to present (mutual TLS)                    [env FLIS_CLIENT_CERT]
  --client-key FILE        its PEM private key; a passphrase from FLIS_CLIENT_KEY_PASSPHRASE [env FLIS_CLIENT_KEY]
  --token-url URL          fetch the bearer token by the OAuth 2.0 client credentials grant with
                           FLIS_CLIENT_ID and FLIS_CLIENT_SECRET; renewed before it expires and
                           once on a 401 error="invalid_token"                               [env FLIS_TOKEN_URL]
  --scope S                the scope to ask the token endpoint for                           [env FLIS_SCOPE]
  --token-command CMD      run CMD (a shell command) for the token: it prints the token, or JSON
                           with access_token and expires_in; run again to renew              [env FLIS_TOKEN_COMMAND]
  Without --token-url or --token-command the token comes from the environment (FLIS_TOKEN).
  Tokens, the client secret and proxy credentials are never printed or recorded.`;

/** A flag, else its environment variable; an empty value counts as unset. */
function pick(flag: string | undefined, env: string | undefined): string | undefined {
  return flag || env || undefined;
}

/** A PEM file of certificates or a key: a few kB, a CA bundle a few hundred. */
const MAX_PEM_BYTES = 4 * 1024 * 1024;

function readPem(file: string, flag: string): string {
  const words: Record<string, string> = { ENOENT: 'no such file', EACCES: 'permission denied' };
  const text = readUserFile(
    file,
    `${flag} file`,
    MAX_PEM_BYTES,
    (why) => new ConfigError(`${flag} ${file} cannot be read (${words[why] ?? why}); give a readable PEM file`),
  ).toString('utf8');
  if (!/-----BEGIN [A-Z0-9 ]+-----/.test(text))
    throw new ConfigError(`${flag} ${file} holds no PEM block (-----BEGIN ...-----); give a PEM file`);
  return text;
}

function parseCertificate(pem: string, flag: string, file: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw new ConfigError(`${flag} ${file} holds no readable certificate; give a PEM certificate`);
  }
}

function parseKey(pem: string, file: string, passphrase: string | undefined): KeyObject {
  try {
    return createPrivateKey(passphrase ? { key: pem, passphrase } : { key: pem });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    // An encrypted key says so in its PEM header. A wrong passphrase usually fails the padding (BAD_DECRYPT), but
    // about one time in 256 the garbage it decrypts to pads well and fails later, as an unreadable key.
    const encrypted = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,\s*ENCRYPTED/.test(pem);
    if (encrypted || /PASSPHRASE|BAD_DECRYPT/i.test(`${code} ${(error as Error).message}`))
      throw new ConfigError(
        `--client-key ${file} is encrypted and ${passphrase ? 'FLIS_CLIENT_KEY_PASSPHRASE does not open it' : 'FLIS_CLIENT_KEY_PASSPHRASE is not set'}; set the key's passphrase in FLIS_CLIENT_KEY_PASSPHRASE`,
      );
    throw new ConfigError(`--client-key ${file} holds no readable private key; give a PEM private key`);
  }
}

/**
 * An explicit `ca` makes Node ignore NODE_EXTRA_CA_CERTS, so a user who set both keeps both: the extra file is
 * read (best effort, as Node itself does) and joined to --ca-file.
 */
function caSetting(file: string | undefined, extraCertsFile: string | undefined): Pick<ConnectionSettings, 'ca'> {
  if (!file) return {};
  const ca = readPem(file, '--ca-file');
  parseCertificate(ca, '--ca-file', file);
  let extra = '';
  try {
    extra = extraCertsFile ? readUserFile(extraCertsFile, 'NODE_EXTRA_CA_CERTS', MAX_PEM_BYTES).toString('utf8') : '';
  } catch {
    // Node warns about an unreadable NODE_EXTRA_CA_CERTS and goes on; so does flis.
  }
  return { ca: extra ? `${ca.trimEnd()}\n${extra}` : ca };
}

function clientCertSettings(
  certFile: string | undefined,
  keyFile: string | undefined,
  passphrase: string | undefined,
): Pick<ConnectionSettings, 'clientCert' | 'clientKey' | 'clientKeyPassphrase'> {
  if (!certFile && !keyFile) return {};
  if (!certFile) throw new UsageError('--client-key needs --client-cert (FLIS_CLIENT_CERT): give the certificate too');
  if (!keyFile) throw new UsageError('--client-cert needs --client-key (FLIS_CLIENT_KEY): give its private key too');
  const clientCert = readPem(certFile, '--client-cert');
  const clientKey = readPem(keyFile, '--client-key');
  const certificate = parseCertificate(clientCert, '--client-cert', certFile);
  const key = parseKey(clientKey, keyFile, passphrase);
  if (!certificate.checkPrivateKey(key))
    throw new ConfigError(
      `--client-key ${keyFile} does not match --client-cert ${certFile}; give the key the certificate was issued for`,
    );
  return { clientCert, clientKey, clientKeyPassphrase: passphrase || undefined };
}

function checkHttpUrl(raw: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL; got '${raw.replace(/\/\/[^@/]*@/, '//***@')}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${flag} must use http or https; got '${url.protocol}'`);
  return raw;
}

function proxySetting(raw: string | undefined): Pick<ConnectionSettings, 'proxy'> {
  if (!raw) return {};
  checkHttpUrl(raw, '--proxy');
  splitProxyUrl(raw);
  return { proxy: raw };
}

function tokenOptions(values: ConnectionValues, env: NodeJS.ProcessEnv): TokenOptions {
  const tokenUrl = pick(values['token-url'], env.FLIS_TOKEN_URL);
  const command = pick(values['token-command'], env.FLIS_TOKEN_COMMAND);
  const scope = pick(values.scope, env.FLIS_SCOPE);
  if (tokenUrl && command) throw new UsageError('give either --token-url or --token-command, not both');
  if (scope && !tokenUrl)
    throw new UsageError('--scope needs --token-url (FLIS_TOKEN_URL): it is sent to the token endpoint');
  if (command) return { kind: 'command', command };
  if (!tokenUrl) return { kind: 'static' };
  checkHttpUrl(tokenUrl, '--token-url');
  const clientId = env.FLIS_CLIENT_ID;
  const clientSecret = env.FLIS_CLIENT_SECRET;
  if (!clientId || !clientSecret)
    throw new ConfigError(
      `--token-url needs the client's credentials in ${!clientId ? 'FLIS_CLIENT_ID' : 'FLIS_CLIENT_SECRET'}${!clientId && !clientSecret ? ' and FLIS_CLIENT_SECRET' : ''}`,
      {},
      'FLIS_ERR_SECRET_MISSING',
    );
  return { kind: 'client-credentials', tokenUrl, clientId, clientSecret, scope: scope || undefined };
}

export function parseConnectionOptions(
  values: ConnectionValues,
  env: NodeJS.ProcessEnv,
): { settings: ConnectionSettings; token: TokenOptions } {
  const settings: ConnectionSettings = {
    ...proxySetting(pick(values.proxy, env.FLIS_PROXY)),
    ...caSetting(pick(values['ca-file'], env.FLIS_CA_FILE), env.NODE_EXTRA_CA_CERTS),
    ...clientCertSettings(
      pick(values['client-cert'], env.FLIS_CLIENT_CERT),
      pick(values['client-key'], env.FLIS_CLIENT_KEY),
      env.FLIS_CLIENT_KEY_PASSPHRASE || undefined,
    ),
  };
  return { settings, token: tokenOptions(values, env) };
}
