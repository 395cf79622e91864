/**
 * A deployment as a partner reaches it, all on loopback: the embedded mock
 * behind an HTTPS gate (private CA, client certificate required, JWTs of a
 * real authorization server), reached through a proxy that demands
 * credentials. `flags()` and `env` are what a partner gives flis to get there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningMock, startMock } from '../../../mock/server.ts';
import { makePki, type Pki } from './pki.ts';
import * as servers from './servers.ts';
import { type GateCounts, tokenGate } from './token-gate.ts';

const MOCK_TOKEN = 'partner-site-mock-token-Df4Gh6Jk8';
const PROXY_PASSWORD = 'proxy-pw-Qa1Ws2Ed3';

export interface PartnerSite {
  /** The gate's base URL, https://127.0.0.1:PORT/apis/v0. */
  baseUrl: string;
  pki: Pki;
  oauth: servers.OAuth;
  proxy: servers.ForwardProxy;
  counts: GateCounts;
  /** A scratch directory under /tmp, removed by close(). */
  dir: string;
  /** --proxy (with credentials), --ca-file, --client-cert, --client-key (encrypted), --token-url. */
  flags(): string[];
  /** The client's credentials and the key's passphrase. */
  env: NodeJS.ProcessEnv;
  /** Every secret that must appear nowhere: each token issued so far, client secret, proxy password, passphrase. */
  secrets(): string[];
  close(): Promise<void>;
}

export async function startPartnerSite(ttlSeconds: number, name: string): Promise<PartnerSite> {
  const pki = makePki();
  const dir = mkdtempSync(join(tmpdir(), `net-${name}-`));
  const counts: GateCounts = { valid: 0, expired: 0, other: 0 };
  const oauth = await servers.startOAuth({ ttlSeconds, clockToleranceSeconds: 2 });
  const proxy = await servers.startProxy({ user: 'partner', password: PROXY_PASSWORD });
  const mock: RunningMock = await startMock({ token: MOCK_TOKEN });
  const gate = await servers.startTlsServer(pki, tokenGate(oauth, mock.baseUrl, MOCK_TOKEN, counts));
  return {
    baseUrl: gate.baseUrl,
    pki,
    oauth,
    proxy,
    counts,
    dir,
    flags: () => [
      ...['--proxy', proxy.urlWithCredentials, '--ca-file', pki.caCert, '--client-cert', pki.clientCert],
      ...['--client-key', pki.clientKeyEncrypted, '--token-url', oauth.tokenUrl],
    ],
    env: {
      FLIS_CLIENT_ID: servers.CLIENT_ID,
      FLIS_CLIENT_SECRET: servers.CLIENT_SECRET,
      FLIS_CLIENT_KEY_PASSPHRASE: pki.passphrase,
    },
    secrets: () => [...oauth.issued, servers.CLIENT_SECRET, PROXY_PASSWORD, pki.passphrase],
    close: async () => {
      await Promise.all([oauth.close(), proxy.close(), gate.close(), mock.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
