/**
 * `flis record`: the recording reverse proxy (recorder/proxy.ts) in front of a
 * deployment, until stopped. The embedded mock is started here, in the CLI
 * layer, because recorder/ must not import mock/.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveDeployment } from '../../config/deployments.ts';
import { UsageError } from '../../errors/flis-error.ts';
import { closeConnection, openConnection, withoutProxyEnv } from '../../net/connection.ts';
import { CONNECTION_HELP, connectionOptionSpec, parseConnectionOptions } from '../../net/connection-options.ts';
import { checkConnection } from '../../net/preflight.ts';
import { isDirect } from '../../net/proxy-url.ts';
import { issuesTokens, withTargetToken } from '../../net/token-options.ts';
import type { Connection } from '../../net/types.ts';
import { checkWritableCassette } from '../../recorder/cassette-path.ts';
import {
  DEFAULT_MAX_BODY_BYTES,
  startRecorder,
  type Recorder,
  type RecorderOptions,
  type RecorderStats,
} from '../../recorder/proxy.ts';
import { defaultMatchOptions } from '../../recorder/match.ts';
import { modePolicies, modes, parseMode } from '../../recorder/modes.ts';
import { findSecret, formsOf, secretsFromEnv, type Secret } from '../../recorder/secrets.ts';
import { mintToken } from '../../runner/start-target.ts';
import { liveCount } from '../live-count.ts';
import { pasteableExport } from '../mock-options.ts';
import { intOption, listOption, parseCommandArgs, requireLoopback } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';

export const matchHelp = `  --match-ignore-query NAME    leave a query parameter out of matching (repeatable)
  --match-ignore-body POINTER  leave a JSON body field out of matching, e.g. /offer/transportTimestamp (repeatable)
  --match-header NAME          match on this request header too (repeatable; default: authorization,
                               compared in its redacted form, so "sent a token" differs from "sent none")`;

const help = `Usage: flis record --upstream NAME|URL --cassette FILE [options]

A recording reverse proxy on loopback. Point the client's base URL at the address it prints
(ending in /apis/v0): each request is forwarded to the upstream over a keep-alive pool, the
answer is streamed back unchanged, and each completed exchange is appended to the cassette,
redacted and checked against the contract: one line per exchange and its violations are printed
as they pass (a live count under them on a terminal). Ctrl-C stops it. The recorder needs no token
of its own: the client's Authorization is forwarded, and redacted in the cassette.

Options:
  --upstream NAME|URL          a deployment of specs/deployments.yaml (embedded, mock, sandbox,
                               production-1, production-2, production-3) or a base URL ending in
                               /apis/v0. 'embedded' starts the embedded mock; it accepts the token
                               in FLIS_TOKEN, else a minted one written to a file whose path is printed
  --cassette FILE              the cassette (YAML) to write, or to replay from
  --mode MODE                  ${modes.join(' | ')} (default record):
                                 record       write every exchange, overwriting the cassette
                                 new          replay what the cassette has, record what it lacks
                                 replay       answer from the cassette only; never contact the upstream
                                 passthrough  forward and check the contract, write nothing
  --port N                     port to listen on (default 0: a free port)
  --host ADDR                  loopback address to bind (default 127.0.0.1)
  --secret-env NAME            also keep the value of this environment variable out of the cassette
                               (repeatable; FLIS_TOKEN and every deployment's token variable always are)
  --keep-header NAME           keep this header too (repeatable). Only an allow-list is kept;
                               Authorization and cookies are always replaced by [REDACTED]
  --max-body-bytes N           keep at most N bytes of a body in the cassette (default 1048576);
                               bigger bodies still stream through whole, and their schema is not judged
                               (said per exchange and in the closing count: "not judged: body over N bytes")
  --upstream-timeout-ms N      wait this long for the upstream's headers and between body chunks
                               (default 30000); then the client gets a 504 and the failure is recorded
  --label KEY=VALUE            written in the cassette header, e.g. the run id and seed of the suite
                               run being recorded, which a replay must reuse (repeatable; never a secret)
  --durable                    write each exchange before its answer ends and fdatasync it (survives
                               SIGKILL and power loss; slower). Default: written right after the answer
  --quiet                      print neither a line per exchange (method, path, status, contract verdict)
                               nor contract violations (or bodies not judged) as they pass; on a terminal,
                               no live count

Replay matching (modes new and replay):
${matchHelp}

A request the cassette cannot answer in mode replay gets a 501 JSON answer naming the cassette,
the request, and the closest recorded request with a field-by-field difference.
Upstream failures (refused, reset, timeout) are answered 502/504 with a JSON body and recorded.

${CONNECTION_HELP}
  The recorder reaches the upstream through the proxy, CAs and client certificate. A request that
  carries the token flis issued is sent with the current one and, when its body is held whole (none,
  or modes new/replay), retried once after a refresh on a 401 error="invalid_token".`;

export const matchOptions = {
  'match-ignore-query': { type: 'string', multiple: true },
  'match-ignore-body': { type: 'string', multiple: true },
  'match-header': { type: 'string', multiple: true },
} as const;

const options = {
  upstream: { type: 'string' },
  cassette: { type: 'string' },
  mode: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'secret-env': { type: 'string', multiple: true },
  'keep-header': { type: 'string', multiple: true },
  'max-body-bytes': { type: 'string' },
  'upstream-timeout-ms': { type: 'string' },
  ...connectionOptionSpec,
  label: { type: 'string', multiple: true },
  durable: { type: 'boolean' },
  quiet: { type: 'boolean' },
  ...matchOptions,
} as const;

export function matchFrom(v: {
  'match-ignore-query'?: string[];
  'match-ignore-body'?: string[];
  'match-header'?: string[];
}): RecorderOptions['match'] {
  const body = listOption('match-ignore-body', v['match-ignore-body']) ?? [];
  for (const p of body)
    if (!p.startsWith('/'))
      throw new UsageError(
        `--match-ignore-body takes a JSON pointer starting with '/', e.g. /offer/transportTimestamp; got '${p}'`,
      );
  return {
    ignoreQuery: listOption('match-ignore-query', v['match-ignore-query']) ?? [],
    ignoreBody: body,
    // Added to the default (the redacted Authorization), which keeps auth checks apart.
    ...(v['match-header']
      ? {
          headers: [
            ...new Set([
              ...defaultMatchOptions.headers,
              ...(listOption('match-header', v['match-header']) ?? []).map((h) => h.toLowerCase()),
            ]),
          ],
        }
      : {}),
  };
}

/** KEY=VALUE pairs; a value holding a known secret is refused, since the header is written as given. */
function labelsFrom(raw: string[] | undefined, secrets: Secret[]): Record<string, string> {
  const out: Record<string, string> = {};
  const forms = formsOf(secrets);
  for (const item of raw ?? []) {
    const m = /^([A-Za-z][\w.-]*)=(.*)$/s.exec(item);
    if (!m)
      throw new UsageError(
        `--label takes KEY=VALUE (KEY: letters, digits, '.', '_', '-'); got '${item.split('=')[0]}=…'`,
      );
    const hit = findSecret(m[2]!, forms);
    if (hit)
      throw new UsageError(
        `--label ${m[1]}: the value holds the secret of ${hit.label}; labels are written to the cassette as given`,
      );
    out[m[1]!] = m[2]!;
  }
  return out;
}

interface Upstream {
  name: string | null;
  /** The embedded mock, on loopback in this process: reached without the environment's proxy. */
  embedded: boolean;
  baseUrl: string;
  secrets: Secret[];
  note: string;
  close(): Promise<void>;
}

async function openUpstream(nameOrUrl: string, io: CommandIo, tokenIssued: boolean): Promise<Upstream> {
  // A recorder forwards the client's own Authorization: it needs no token of its own, only one to redact if given.
  const target = resolveDeployment(nameOrUrl, io.env, undefined, true);
  if (target.embedded) {
    const fromEnv = io.env.FLIS_TOKEN;
    const token = fromEnv || mintToken();
    // Loaded only when asked for, so the other modes and commands never depend on the mock.
    const { startMock } = await import('../../mock/server.ts');
    const mock = await startMock({ token, port: 0 });
    let note = 'token: from FLIS_TOKEN';
    if (!fromEnv) {
      const file = join(tmpdir(), `flis-record-${new URL(mock.baseUrl).port}.token`);
      writeFileSync(file, token, { mode: 0o600 });
      note = `token: in ${file}; for a client: ${pasteableExport(file)}`;
    }
    return {
      name: target.name,
      embedded: true,
      baseUrl: mock.baseUrl,
      secrets: [{ label: 'the embedded mock token', value: token }],
      note,
      close: () => mock.close(),
    };
  }
  const secrets = target.token ? [{ label: `the token of ${target.name}`, value: target.token }] : [];
  return {
    name: target.name === 'ad-hoc' ? null : target.name,
    embedded: false,
    baseUrl: target.baseUrl!,
    secrets,
    note:
      target.token || tokenIssued
        ? ''
        : "token: none of the recorder's own (FLIS_TOKEN is not set): the client's Authorization is forwarded as it is, and redacted in the cassette",
    close: async () => {},
  };
}

type RecordValues = ReturnType<typeof parseCommandArgs<typeof options>>['values'];

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values: v } = parseCommandArgs('record', argv, options);
  if (v.help) {
    io.out(help);
    return EXIT.ok;
  }
  const settings = recordSettings(v, io);
  const { mode, cassette } = settings;
  const upstream =
    v.upstream && modePolicies[mode].needsUpstream
      ? await openUpstream(v.upstream, io, issuesTokens(settings.net.token))
      : undefined;
  // On a terminal, a count that updates in place under the exchange lines.
  const count = liveCount(v.quiet ? undefined : process.stderr);
  const { recorder, connection } = await startRecording(v, io, settings, upstream, count);
  const to = upstream ? `${upstream.name ?? 'ad-hoc'} (${new URL(upstream.baseUrl).origin})` : 'no upstream';
  io.out(`flis record: serving ${recorder.baseUrl} → ${to}; mode ${mode}; cassette ${cassette}`);
  if (upstream?.note) io.out(upstream.note);
  await io.stopped;
  await recorder.close();
  count.clear();
  if (connection) await closeConnection(connection);
  await upstream?.close();
  return finalCount(recorder.stats, io, settings.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
}

/** Every flag checked before the upstream is reached, so a mistake costs nothing started. */
function recordSettings(v: RecordValues, io: CommandIo) {
  const mode = parseMode(v.mode ?? 'record');
  if (!v.cassette) throw new UsageError(`--cassette FILE is required. See 'flis record --help'.`);
  const cassette = resolve(v.cassette);
  // Before the upstream is reached: a cassette path flis may not write (or a file of the user's) is one line.
  if (modePolicies[mode].write !== 'none') checkWritableCassette(cassette);
  if (!v.upstream && modePolicies[mode].needsUpstream)
    throw new UsageError(`--upstream NAME|URL is required in mode '${mode}'. See 'flis record --help'.`);
  const port = intOption('port', v.port, { max: 65_535 }) ?? 0;
  const host = requireLoopback(v.host ?? '127.0.0.1');
  const maxBodyBytes = intOption('max-body-bytes', v['max-body-bytes'], { min: 0 });
  const upstreamTimeoutMs = intOption('upstream-timeout-ms', v['upstream-timeout-ms'], { min: 1, max: 3_600_000 });
  const match = matchFrom(v);
  const secretEnv = listOption('secret-env', v['secret-env']) ?? [];
  for (const name of secretEnv)
    if (!io.env[name]) io.err(`flis record: warning: --secret-env ${name} is not set; nothing to redact for it`);
  const labels = labelsFrom(v.label, secretsFromEnv(io.env, secretEnv));
  const net = parseConnectionOptions(v, io.env);
  return { mode, cassette, port, host, maxBodyBytes, upstreamTimeoutMs, match, secretEnv, labels, net };
}

/**
 * The connection to the upstream, checked, and the recorder in front of it. If either fails, what was opened is
 * closed again: the mock and the connection's token source must not keep the process alive.
 */
async function startRecording(
  v: RecordValues,
  io: CommandIo,
  s: ReturnType<typeof recordSettings>,
  upstream: Upstream | undefined,
  count: ReturnType<typeof liveCount>,
): Promise<{ recorder: Recorder; connection: Connection | undefined }> {
  let recorder: Recorder | undefined;
  let connection: Connection | undefined;
  // The embedded mock is in this process, on loopback: never through the environment's proxy.
  const env = upstream?.embedded ? withoutProxyEnv(io.env) : io.env;
  try {
    if (upstream) {
      connection = await openConnection(s.net.settings, withTargetToken(s.net.token, upstream.secrets[0]?.value), env, {
        tokenRequired: false,
      });
      await checkConnection(connection, upstream.baseUrl, env);
    }
    recorder = await startRecorder({
      mode: s.mode,
      cassette: s.cassette,
      upstream: upstream ? { baseUrl: upstream.baseUrl, deployment: upstream.name } : undefined,
      host: s.host,
      port: s.port,
      secrets: [
        ...secretsFromEnv(io.env, s.secretEnv),
        ...(upstream?.secrets ?? []),
        ...(connection?.tokens.secrets() ?? []).map((value) => ({ label: 'a secret of the connection', value })),
      ],
      // A direct upstream keeps the recorder's own tuned Pool; only the token source is needed then.
      connection: connection
        ? isDirect(connection.settings, env)
          ? { tokens: connection.tokens }
          : { dispatcher: connection.dispatcher, tokens: connection.tokens }
        : undefined,
      keepHeaders: listOption('keep-header', v['keep-header']) ?? [],
      match: s.match,
      maxBodyBytes: s.maxBodyBytes,
      upstreamTimeoutMs: s.upstreamTimeoutMs,
      durable: v.durable === true,
      labels: s.labels,
      logExchanges: !v.quiet,
      log: (line, kind) => {
        if (v.quiet && (kind === 'violation' || kind === 'exchange' || kind === 'not-judged')) return;
        count.clear();
        io.err(line);
        if (kind === 'exchange') count.show(recorder?.stats);
      },
    });
  } catch (e) {
    if (connection) await closeConnection(connection);
    await upstream?.close();
    throw e;
  }
  return { recorder, connection };
}

/** The closing count; exchanges left unwritten because a secret survived redaction fail the command. */
function finalCount(s: RecorderStats, io: CommandIo, maxBodyBytes: number): number {
  io.out(
    `flis record: ${s.exchanges} exchanges forwarded, ${s.written} written, ${s.replayed} replayed, ${s.misses} misses, ${s.failures} upstream failures, ${s.violations} contract violations${s.notJudged ? `, ${s.notJudged} not judged: body over ${maxBodyBytes} bytes (--max-body-bytes)` : ''}`,
  );
  if (s.refusedWrites > 0) {
    io.err(
      `flis record: ${s.refusedWrites} exchanges were not written because a secret survived redaction (see above)`,
    );
    return EXIT.checkFailed;
  }
  return EXIT.ok;
}

export const recordCommand: Command = {
  name: 'record',
  help,
  run,
};
