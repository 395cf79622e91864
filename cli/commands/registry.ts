/**
 * `flis registry`: the certification registry. `serve` runs it (embedded database in one file by default, or
 * PostgreSQL); the admin adds partners and records where a release runs; a partner publishes (usually through
 * `flis certify --publish`); `backup` copies the embedded database. docs/registry.md walks through it.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../errors/flis-error.ts';
import { listenError } from '../../errors/listen-error.ts';
import type { Partner } from '../../registry/store.ts';
import { flagOrEnv, flagOrEnvValue, intOption, listOption, parseCommandArgs } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';
import { deploymentName, REGISTRY_HELP, registryClient } from '../registry-options.ts';

const DEFAULT_DATABASE = 'flis-registry.db';

const help = `Usage: flis registry <subcommand> [options]

The certification registry: partners publish their certificates and cassettes, the service team's
CI replays them against a release candidate and asks 'flis can-i-release'; the matrix page shows
partners × release candidates and partners × contract versions (docs/registry.md).

  flis registry serve [--database FILE|postgres://…] [--host H] [--port N]
                                          run the registry until stopped (Ctrl-C); the admin token is
                                          read from FLIS_REGISTRY_ADMIN_TOKEN (16 characters at least)
  flis registry partner add NAME [--deployments LIST]
                                          add a partner and print its token, once (only its hash is kept)
  flis registry partner list              every partner, active or not, and its deployments
  flis registry partner set NAME [--deployments LIST] [--active yes|no]
                                          change the deployments a partner is live on, or (de)activate it
  flis registry record-release NAME --deployment NAME
                                          record that release NAME now runs on that deployment
  flis registry publish --certificate FILE [--cassette FILE]
                                          publish a certificate ('flis certify' writes it) and the
                                          partner's cassette: what 'flis certify --publish' sends, sent again
  flis registry backup OUT                copy the embedded database, consistent, into OUT (PostgreSQL: pg_dump)

serve:
  --database FILE|URL      the embedded database's file (default ${DEFAULT_DATABASE}), or a postgres://
                           URL for a team server (same schema and migrations)   [env FLIS_REGISTRY_DATABASE]
  --host H                 the address to listen on (default 127.0.0.1; put a TLS proxy in front of any
                           other)                                                  [env FLIS_REGISTRY_HOST]
  --port N                 the port (default 4545; 0: a free one)                  [env FLIS_REGISTRY_PORT]
  --max-upload-mb N        the largest request body (default 32)          [env FLIS_REGISTRY_MAX_UPLOAD_MB]
  --max-cassette-mb N      the largest cassette a partner may publish (default 16)
                                                                        [env FLIS_REGISTRY_MAX_CASSETTE_MB]
partner, record-release, publish, backup:
${REGISTRY_HELP}
  --deployments LIST       comma-separated deployments the partner is live on: a release gate asked
                           about one deployment asks only about its partners    [env FLIS_PARTNER_DEPLOYMENTS]
  --active yes|no          an inactive partner's cassettes are not replayed, nor can it publish
                                                                                [env FLIS_PARTNER_ACTIVE]
  --deployment NAME        the deployment the release now runs on (record-release)   [env FLIS_DEPLOYMENT]
  --certificate FILE       certificate-<partner>.json, its HTML beside it (publish)  [env FLIS_CERTIFICATE]
  --cassette FILE          the partner's cassette (publish; scanned for secrets first) [env FLIS_CASSETTE]

The admin token adds partners, records releases and reads everything; a partner's token publishes
and reads its own records only.

Exit codes: 0 done, 2 usage error or a refusal of the registry (one line says why).`;

const options = {
  database: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  'max-upload-mb': { type: 'string' },
  'max-cassette-mb': { type: 'string' },
  registry: { type: 'string' },
  deployments: { type: 'string' },
  active: { type: 'string' },
  deployment: { type: 'string' },
  certificate: { type: 'string' },
  cassette: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseCommandArgs<typeof options>>['values'];

function fromEnv(v: Values, io: CommandIo, flag: keyof Values & string, variable: string): string | undefined {
  const given = flagOrEnvValue(flag, v[flag] as string | undefined, io.env, variable);
  return given.raw;
}

function megabytes(v: Values, io: CommandIo, flag: 'max-upload-mb' | 'max-cassette-mb', variable: string, def: number) {
  const given = flagOrEnvValue(flag, v[flag], io.env, variable);
  return (intOption(given.name, given.raw, { min: 1, max: 4096 }) ?? def) * 1024 * 1024;
}

async function serve(v: Values, io: CommandIo): Promise<number> {
  const adminToken = io.env.FLIS_REGISTRY_ADMIN_TOKEN?.trim() ?? '';
  if (adminToken.length < 16)
    throw new UsageError(
      'FLIS_REGISTRY_ADMIN_TOKEN must hold the admin token, 16 characters at least (e.g. openssl rand -hex 32)',
    );
  const database = fromEnv(v, io, 'database', 'FLIS_REGISTRY_DATABASE') || DEFAULT_DATABASE;
  const host = fromEnv(v, io, 'host', 'FLIS_REGISTRY_HOST') || '127.0.0.1';
  const portIn = flagOrEnvValue('port', v.port, io.env, 'FLIS_REGISTRY_PORT');
  const port = intOption(portIn.name, portIn.raw, { max: 65_535 }) ?? 4545;
  const maxUploadBytes = megabytes(v, io, 'max-upload-mb', 'FLIS_REGISTRY_MAX_UPLOAD_MB', 32);
  const maxCassetteBytes = megabytes(v, io, 'max-cassette-mb', 'FLIS_REGISTRY_MAX_CASSETTE_MB', 16);
  const { openDatabase } = await import('../../registry/database.ts');
  const { startRegistry } = await import('../../registry/server.ts');
  const db = await openDatabase(database);
  let registry: Awaited<ReturnType<typeof startRegistry>>;
  try {
    registry = await startRegistry({
      db,
      adminToken,
      host,
      port,
      maxUploadBytes,
      maxCassetteBytes,
      log: (line) => io.out(`flis registry: ${line}`),
    });
  } catch (e) {
    await db.close();
    throw listenError(e, host, port);
  }
  io.out(
    `flis registry: serving ${registry.url} on ${db.dialect === 'sqlite' ? `the embedded database ${db.where}` : `PostgreSQL ${db.where}`} (Ctrl-C stops it); the matrix: ${registry.url}/matrix`,
  );
  await io.stopped;
  await registry.close();
  await db.close();
  io.out('flis registry: stopped');
  return EXIT.ok;
}

function deploymentsOf(v: Values, io: CommandIo): string[] | undefined {
  const given = flagOrEnvValue('deployments', v.deployments as string | undefined, io.env, 'FLIS_PARTNER_DEPLOYMENTS');
  return listOption(given.name, given.raw)?.map((d) => deploymentName('--deployments', d));
}

function partnerLine(p: Partner): string {
  return `${p.name}\t${p.active ? 'active' : 'inactive'}\t${p.deployments.join(',') || '(no deployment)'}`;
}

async function partner(args: string[], v: Values, io: CommandIo): Promise<number> {
  const [verb, name, ...extra] = args;
  if (extra.length) throw new UsageError(`partner ${verb ?? ''} takes one name; got ${args.length - 1}`);
  const client = registryClient(v.registry, io.env, `partner ${verb ?? ''}`.trim());
  if (verb === 'list') {
    const { partners } = (await client.call('GET', '/api/partners')).json<{ partners: Partner[] }>();
    for (const p of partners) io.out(partnerLine(p));
    io.out(`flis registry: ${partners.length} partner(s)`);
    return EXIT.ok;
  }
  if (verb !== 'add' && verb !== 'set')
    throw new UsageError("partner takes add NAME, list or set NAME (see 'flis registry --help')");
  if (!name) throw new UsageError(`partner ${verb} NAME: the partner's name is required`);
  const path = `/api/partners/${encodeURIComponent(name)}`;
  if (verb === 'add') {
    const added = (
      await client.call('POST', '/api/partners', { json: { name, deployments: deploymentsOf(v, io) ?? [] } })
    ).json<Partner & { token: string }>();
    io.out(
      `flis registry: partner ${added.name} added${added.deployments.length ? ` (live on ${added.deployments.join(', ')})` : ''}; its token, shown this once (only its hash is kept):`,
    );
    io.out(added.token);
    return EXIT.ok;
  }
  const activeRaw = fromEnv(v, io, 'active', 'FLIS_PARTNER_ACTIVE');
  const change: { active?: boolean; deployments?: string[] } = {};
  if (activeRaw !== undefined)
    change.active = flagOrEnv(undefined, activeRaw, v.active !== undefined ? '--active' : 'FLIS_PARTNER_ACTIVE');
  const deployments = deploymentsOf(v, io);
  if (deployments) change.deployments = deployments;
  if (!Object.keys(change).length) throw new UsageError('partner set NAME needs --deployments LIST or --active yes|no');
  const p = (await client.call('PATCH', path, { json: change })).json<Partner>();
  io.out(`flis registry: ${partnerLine(p)}`);
  return EXIT.ok;
}

async function recordRelease(args: string[], v: Values, io: CommandIo): Promise<number> {
  if (args.length !== 1) throw new UsageError(`record-release takes one release name; got ${args.length}`);
  const raw = fromEnv(v, io, 'deployment', 'FLIS_DEPLOYMENT');
  if (!raw) throw new UsageError('record-release NAME --deployment NAME: the deployment it now runs on is required');
  const deployment = deploymentName('--deployment', raw);
  const client = registryClient(v.registry, io.env, 'record-release');
  const r = (
    await client.call('POST', `/api/releases/${encodeURIComponent(args[0]!)}/deployments`, {
      json: { deployment },
    })
  ).json<{ release: string; deployment: string; recordedAt: string }>();
  io.out(`flis registry: release ${r.release} runs on ${r.deployment} since ${r.recordedAt}`);
  return EXIT.ok;
}

async function publish(args: string[], v: Values, io: CommandIo): Promise<number> {
  if (args.length) throw new UsageError(`publish takes --certificate FILE [--cassette FILE]; got '${args[0]}'`);
  const certificate = fromEnv(v, io, 'certificate', 'FLIS_CERTIFICATE');
  if (!certificate)
    throw new UsageError('publish needs --certificate FILE (certificate-<partner>.json of flis certify)');
  const cassette = fromEnv(v, io, 'cassette', 'FLIS_CASSETTE');
  const client = registryClient(v.registry, io.env, 'publish');
  const { publishCertificate } = await import('../../registry/publish.ts');
  const r = await publishCertificate(client, {
    certificate: resolve(certificate),
    cassette: cassette ? resolve(cassette) : undefined,
    env: io.env,
  });
  io.out(
    `flis registry: ${r.created ? 'published' : 'already published'}: publication ${r.id} of ${r.partner}; ${r.url}`,
  );
  return EXIT.ok;
}

async function backup(args: string[], v: Values, io: CommandIo): Promise<number> {
  if (args.length !== 1) throw new UsageError('backup takes the file to write: flis registry backup OUT');
  const out = resolve(args[0]!);
  const client = registryClient(v.registry, io.env, 'backup');
  const r = await client.call('GET', '/api/backup', { accept: 'application/vnd.sqlite3' });
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, r.body, { flag: 'wx' });
  renameSync(tmp, out);
  io.out(`flis registry: backup of ${r.body.length} bytes written to ${out}`);
  return EXIT.ok;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values: v, positionals } = parseCommandArgs('registry', argv, options, true);
  const [sub, ...rest] = positionals;
  if (v.help || sub === undefined) {
    io.out(help);
    return v.help ? EXIT.ok : EXIT.usage;
  }
  if (sub === 'serve') {
    if (rest.length) throw new UsageError(`serve takes no arguments; got '${rest[0]}'`);
    return serve(v, io);
  }
  if (sub === 'partner') return partner(rest, v, io);
  if (sub === 'record-release') return recordRelease(rest, v, io);
  if (sub === 'publish') return publish(rest, v, io);
  if (sub === 'backup') return backup(rest, v, io);
  throw new UsageError(
    `unknown subcommand '${sub}'; serve, partner, record-release, publish or backup (see 'flis registry --help')`,
  );
}

export const registryCommand: Command = {
  name: 'registry',
  help,
  run,
};
