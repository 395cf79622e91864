/**
 * A resolved target made reachable for a command that sends its own requests
 * (`flis diff`, `flis regress`): the embedded mock is started in this process
 * and reached directly with its minted token; any other deployment gets its
 * connection (proxy, CAs, client certificate, token source) opened and checked
 * before anything is sent.
 */
import type { ResolvedTarget } from '../config/deployments.ts';
import { closeConnection, openConnection, withoutProxyEnv } from '../net/connection.ts';
import { checkConnection } from '../net/preflight.ts';
import { type TokenOptions, withTargetToken } from '../net/token-options.ts';
import type { Connection, ConnectionSettings } from '../net/types.ts';
import { type EmbeddedOptions, startTarget } from '../runner/start-target.ts';

export interface Reached {
  name: string;
  baseUrl: string;
  connection: Connection;
  close(): Promise<void>;
}

export async function reachTarget(
  name: string,
  r: ResolvedTarget,
  net: { settings: ConnectionSettings; token: TokenOptions },
  env: NodeJS.ProcessEnv,
  embedded: EmbeddedOptions = {},
): Promise<Reached> {
  if (r.embedded) {
    const live = await startTarget(r, embedded);
    const connection = await openConnection({}, { kind: 'static', token: live.token }, withoutProxyEnv(env)).catch(
      async (e: unknown) => {
        await live.close();
        throw e;
      },
    );
    const close = async () => {
      await closeConnection(connection);
      await live.close();
    };
    return { name, baseUrl: live.baseUrl, connection, close };
  }
  const baseUrl = r.baseUrl!;
  const connection = await openConnection(net.settings, withTargetToken(net.token, r.token), env);
  try {
    await checkConnection(connection, baseUrl, env);
  } catch (e) {
    await closeConnection(connection);
    throw e;
  }
  return { name, baseUrl, connection, close: () => closeConnection(connection) };
}
