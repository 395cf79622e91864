/** `flis mock`: serve the embedded mock until stopped, for manual exploration or another client's tests. */
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { oneOf, UsageError } from '../../errors/flis-error.ts';
import { listenError } from '../../errors/listen-error.ts';
import { checkToken } from '../../errors/token-value.ts';
import { faultDescriptions, faultNames, type FaultName } from '../../mock/faults.ts';
import { startMock } from '../../mock/server.ts';
import { variantPresetNames, variantPresets } from '../../mock/variant.ts';
import { loopbackUrl } from '../../mock/webhook-hub.ts';
import { webhookFaultDescriptions, webhookFaultNames, type WebhookFaultName } from '../../mock/webhook-faults.ts';
import { mintToken } from '../../runner/start-target.ts';
import { intOption, listOption, parseCommandArgs, requireLoopback } from '../args.ts';
import { pasteableExport } from '../mock-options.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';

function help(): string {
  const faults = faultNames.map((f) => `  ${f.padEnd(30)} ${faultDescriptions[f]}`).join('\n');
  return `Usage: flis mock [--port N] [--host ADDR] [--fault NAME ...] [--variant NAME] [--write-delay MS]

Serve the embedded mock deployment on loopback until stopped (Ctrl-C). Prints its base URL.
The bearer token is FLIS_MOCK_TOKEN if set; else a fresh one is minted and written to a
file readable only by you, whose path is printed (flis never prints a token).

Options:
  --port N             port to listen on (default 0: a free port)
  --host ADDR          loopback address to bind (default 127.0.0.1)
  --fault NAME         switch a deliberate contract violation on (repeatable)
  --variant NAME       default | different (201/202 creates, uuid ids, extra fields: still conformant)
                       | throttled (429 with Retry-After once 100 requests in a second are spent: conformant)
                       | open-choices (offer windows on write time, exclusive bounds, pages from 0, 20 by default)
                       | eventual (async, 202, batch 'state: done', cancelled offers unlisted)
                       | offer-versions (GET /offers and /billingGroups need start and end, GET /invoices
                         createdSince; GET /offers/{id} answers every version; ids that need percent-encoding)
                       | paged-lists (billing groups latest first, 10 a page with a Link header; invoices by update
                         time, at most 12 an answer; invoices' groups with their id under another key)
                       : all conformant
  --write-delay MS     delay before an asynchronous offer write becomes visible (default 0)
  --webhook URL        deliver webhooks (spec 6) to this loopback receiver, e.g. 'flis webhooks listen' (repeatable;
                       mock-only, like PUT /__flis/webhooks {"url": …}: the spec shows no subscription method)
  --webhook-fault NAME switch a deliberate webhook violation on (repeatable; listed below)
  --drift              answer with drift: undocumented fields added, a documented field removed (see drift.md)

Faults:
${faults}

Webhook faults:
${webhookFaultNames.map((f) => `  ${f.padEnd(30)} ${webhookFaultDescriptions[f]}`).join('\n')}`;
}

function writeTokenFile(token: string, baseUrl: string): string {
  const file = join(tmpdir(), `flis-mock-${new URL(baseUrl).port}.token`);
  writeFileSync(file, token, { mode: 0o600 });
  return file;
}

const options = {
  port: { type: 'string' },
  host: { type: 'string' },
  fault: { type: 'string', multiple: true },
  variant: { type: 'string' },
  'write-delay': { type: 'string' },
  webhook: { type: 'string', multiple: true },
  'webhook-fault': { type: 'string', multiple: true },
  drift: { type: 'boolean' },
} as const;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values: v } = parseCommandArgs('mock', argv, options);
  if (v.help) {
    io.out(help());
    return EXIT.ok;
  }
  const faults = (listOption('fault', v.fault) ?? []).map((f) =>
    oneOf<FaultName>('--fault', f, faultNames, "'flis mock --help'"),
  );
  const variant =
    v.variant !== undefined ? variantPresets[oneOf('--variant', v.variant, variantPresetNames)] : undefined;
  const writeDelayMs = intOption('write-delay', v['write-delay'], { max: 600_000 }) ?? 0;
  const port = intOption('port', v.port, { max: 65_535 }) ?? 0;
  // The mock serves a token it minted: it listens on this machine only, and its banner names where.
  const host = requireLoopback(v.host ?? '127.0.0.1');
  const tokenFromEnv = io.env.FLIS_MOCK_TOKEN && checkToken(io.env.FLIS_MOCK_TOKEN, 'FLIS_MOCK_TOKEN');
  const token = tokenFromEnv || mintToken();
  const webhookFaults = (listOption('webhook-fault', v['webhook-fault']) ?? []).map((f) =>
    oneOf<WebhookFaultName>('--webhook-fault', f, webhookFaultNames, "'flis mock --help'"),
  );
  const webhooks = v.webhook ?? [];
  for (const w of webhooks)
    if (!loopbackUrl(w))
      throw new UsageError(
        `--webhook must be an http(s) URL on a loopback address (the mock never posts off the machine); got '${w}'`,
      );
  const mock = await startMock({
    token,
    port,
    host,
    faults,
    writeDelayMs,
    webhooks,
    webhookFaults,
    drift: v.drift === true,
    variant,
  }).catch((e: unknown) => {
    throw listenError(e, host, port);
  });
  io.out(`flis mock: serving ${mock.baseUrl}`);
  const tokenFile = tokenFromEnv ? undefined : writeTokenFile(token, mock.baseUrl);
  io.out(
    tokenFile ? `token: in ${tokenFile}; for a client: ${pasteableExport(tokenFile)}` : 'token: from FLIS_MOCK_TOKEN',
  );
  if (faults.length) io.out(`faults on: ${faults.join(', ')}`);
  if (webhooks.length) io.out(`webhooks delivered to: ${webhooks.join(', ')}`);
  if (webhookFaults.length) io.out(`webhook faults on: ${webhookFaults.join(', ')}`);
  if (v.drift) io.out('drift switch on');
  await io.stopped;
  // The token dies with the mock (SIGINT or SIGTERM both resolve io.stopped): a file left behind names a dead secret.
  await mock.close().finally(() => tokenFile && rmSync(tokenFile, { force: true }));
  return EXIT.ok;
}

export const mockCommand: Command = {
  name: 'mock',
  help: help(),
  run,
};
