/**
 * A real PostgreSQL 15 server for the registry's tests, started by the test file itself in a temporary folder on
 * loopback (a free port, a socket folder of its own, trust authentication for 127.0.0.1 only), and stopped when the
 * file ends. initdb refuses to run as root: as root (CI), the cluster belongs to the `postgres` user and its
 * programs run through runuser. A server that cannot be started fails the test loudly, never skips it: the
 * registry's PostgreSQL claims are tested or the run is red. FLIS_TEST_PG_BIN names another bin folder.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const BIN = process.env.FLIS_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });
}

export interface TestPostgres {
  /** A URL to a fresh database of its own. */
  database(name: string): Promise<string>;
  bin: string;
  port: number;
  stop(): void;
}

function asOwner(root: boolean, command: string, args: string[]): { status: number | null; output: string } {
  const [file, argv] = root ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const r = spawnSync(file, argv, { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

export async function startPostgres(): Promise<TestPostgres> {
  if (!existsSync(join(BIN, 'initdb')))
    throw new Error(
      `PostgreSQL 15 is not installed (no ${BIN}/initdb): .ci/run installs it (apt-get install postgresql-15); the registry's tests need a real server`,
    );
  const root = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), 'flis-pg-'));
  if (root) {
    chmodSync(dir, 0o700);
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString()),
      Number(execFileSync('id', ['-g', 'postgres']).toString()),
    );
  }
  const data = join(dir, 'data');
  const init = asOwner(root, join(BIN, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  if (init.status !== 0) throw new Error(`initdb failed (exit ${init.status}): ${init.output.slice(-800)}`);
  const port = await freePort();
  const opts = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=100 -c shared_buffers=32MB`;
  const start = asOwner(root, join(BIN, 'pg_ctl'), [
    '-D',
    data,
    '-o',
    opts,
    '-l',
    join(dir, 'log'),
    '-w',
    '-t',
    '60',
    'start',
  ]);
  if (start.status !== 0) throw new Error(`pg_ctl start failed (exit ${start.status}): ${start.output.slice(-800)}`);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    asOwner(root, join(BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stop);
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    bin: BIN,
    port,
    stop,
    async database(name: string) {
      const pg = (await import('pg')).default;
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await c.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
  };
}
