/** `flis mock`: serve the embedded mock until stopped, for manual exploration or another client's tests. */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { oneOf, UsageError } from '../../errors/flis-error.ts';
import { faultDescriptions, faultNames, type FaultName } from '../../mock/faults.ts';
import { startMock } from '../../mock/server.ts';
import { variantPresets } from '../../mock/variant.ts';
import { mintToken } from '../../runner/start-target.ts';
import { intOption, listOption, parseCommandArgs } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';

function help(): string {
  const faults = faultNames.map((f) => `  ${f.padEnd(30)} ${faultDescriptions[f]}`).join('\n');
  return `Usage: flis mock [--port N] [--host ADDR] [--fault NAME ...] [--variant default|different] [--write-delay MS]

Serve the embedded mock deployment on loopback until stopped (Ctrl-C). Prints its base URL.
The bearer token is FLIS_MOCK_TOKEN if set; else a fresh one is minted and written to a
file readable only by you, whose path is printed (flis never prints a token).

Options:
  --port N             port to listen on (default 0: a free port)
  --host ADDR          loopback address to bind (default 127.0.0.1)
  --fault NAME         switch a deliberate contract violation on (repeatable)
  --variant NAME       default | different (201/202 creates, uuid ids, extra fields: still conformant)
  --write-delay MS     delay before an asynchronous offer write becomes visible (default 0)

Faults:
${faults}`;
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
} as const;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values: v } = parseCommandArgs('mock', argv, options);
  if (v.help) {
    io.out(help());
    return EXIT.ok;
  }
  const faults = (listOption(v.fault) ?? []).map((f) => oneOf<FaultName>('--fault', f, faultNames));
  const variant = v.variant ? variantPresets[oneOf('--variant', v.variant, ['default', 'different'] as const)] : undefined;
  const writeDelayMs = intOption('write-delay', v['write-delay'], { max: 600_000 }) ?? 0;
  const port = intOption('port', v.port, { max: 65_535 }) ?? 0;
  const host = v.host ?? '127.0.0.1';
  const tokenFromEnv = io.env.FLIS_MOCK_TOKEN;
  const token = tokenFromEnv || mintToken();
  const mock = await startMock({ token, port, host, faults, writeDelayMs, ...(variant ? { variant } : {}) }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${host} is in use; choose another with --port N, or --port 0 for a free one`);
    throw e;
  });
  io.out(`flis mock: serving ${mock.baseUrl}`);
  io.out(tokenFromEnv ? 'token: from FLIS_MOCK_TOKEN' : `token: in ${writeTokenFile(token, mock.baseUrl)} (export FLIS_TOKEN=$(cat FILE))`);
  if (faults.length) io.out(`faults on: ${faults.join(', ')}`);
  await io.stopped;
  await mock.close();
  return EXIT.ok;
}

export const mockCommand: Command = { name: 'mock', summary: 'Serve the embedded mock deployment on loopback until stopped', help: help(), run };
