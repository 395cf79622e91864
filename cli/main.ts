/**
 * The `flis` entry: dispatch to a subcommand, turn errors into exit codes
 * (0 passed, 1 a check failed, 2 usage or configuration error) and messages
 * that say what to fix. Nothing printed here may carry a token.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FlisError } from '../errors/flis-error.ts';
import { proxySecrets } from '../net/proxy-url.ts';
import { PROJECT_ROOT } from '../runner/run-suites.ts';
import { redactText, secretsWithDerived } from '../core/redact.ts';
import { EXIT, SIGNAL_EXIT, type CommandIo, type StopSignal } from './command.ts';
import { commands } from './commands/index.ts';

export function toolVersion(): string {
  return (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

function mainHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return `Usage: flis <command> [options]

flis-conformance ${toolVersion()}: the contract-conformance suite, embedded mock and traffic recorder
for the Freight Logistics Integration Service.

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join('\n')}

Run 'flis <command> --help' for a command's options.
Exit codes: 0 passed (advisory failures exit 0 unless --strict), 1 a contract check failed,
2 usage or configuration error (an unreachable target too), 3 coverage below --min-coverage,
4 gated drift with --fail-on drift, 130/143 a run interrupted by SIGINT/SIGTERM (cleaned up).`;
}

/**
 * Every value that must never be printed: the tokens in the environment, the OAuth client secret, the client
 * key's passphrase, and proxy passwords (net/connection.ts).
 */
function secretsIn(env: NodeJS.ProcessEnv): string[] {
  const named = Object.entries(env)
    .filter(([k, v]) => /^FLIS_.*(TOKEN|SECRET|PASSPHRASE)$/.test(k) && v)
    .map(([, v]) => v as string);
  return [...secretsWithDerived(named), ...proxySecrets(env.FLIS_PROXY ? { proxy: env.FLIS_PROXY } : {}, env)];
}

/**
 * The first SIGINT/SIGTERM asks the command to stop (it cleans up and reports); a second one exits at once.
 * Listening replaces Node's default of dying on the first signal, so a command that does not await it
 * still gets the second-signal exit.
 */
function stopSignal(): { signal: Promise<StopSignal>; release(): void } {
  let on: ((signal: StopSignal) => void) | undefined;
  const signal = new Promise<StopSignal>((done) => {
    let first: StopSignal | undefined;
    on = (signal: StopSignal) => {
      if (first) {
        process.stderr.write(`flis: ${signal} again: exiting at once, without cleaning up\n`);
        process.exit(SIGNAL_EXIT[signal]);
      }
      first = signal;
      process.stderr.write(`flis: ${signal}: stopping (send it again to exit at once)\n`);
      done(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
  // Without a listener, the signal's default action ends the process at once, whatever JavaScript is running.
  const release = () => {
    if (on) for (const s of ['SIGINT', 'SIGTERM'] as const) process.off(s, on);
  };
  return { signal, release };
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const secrets = secretsIn(env);
  const { signal, release } = stopSignal();
  const io: CommandIo = {
    out: (line) => process.stdout.write(`${redactText(line, secrets)}\n`),
    err: (line) => process.stderr.write(`${redactText(line, secrets)}\n`),
    env,
    stopped: signal.then(() => undefined),
    signal,
    endOnSignal: release,
  };
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(mainHelp());
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version' || name === '-v') {
    io.out(toolVersion());
    return EXIT.ok;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.err(`flis: unknown command '${name}'; commands: ${commands.map((c) => c.name).join(', ')}. See 'flis --help'.`);
    return EXIT.usage;
  }
  try {
    return await (await entry.load()).run(rest, io);
  } catch (error) {
    if (error instanceof FlisError) {
      io.err(`flis ${name}: ${error.message} [${error.code}]`);
      return error.code === 'FLIS_ERR_INTERNAL' || error.code === 'FLIS_ERR_UPSTREAM' ? EXIT.checkFailed : EXIT.usage;
    }
    io.err(
      `flis ${name}: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return EXIT.checkFailed;
  }
}
