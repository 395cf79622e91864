/** `flis replay`: serve a cassette offline on loopback until stopped (the same as `flis record --mode replay`). */
import { resolve } from 'node:path';
import { UsageError } from '../../errors/flis-error.ts';
import { startReplayServer } from '../../recorder/replay-server.ts';
import { intOption, parseCommandArgs, requireLoopback } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';
import { matchFrom, matchHelp, matchOptions } from './record.ts';

const help = `Usage: flis replay --cassette FILE [--port N] [--host ADDR] [matching options]

Serve a cassette offline on loopback, with no network: point a client's base URL at the address
it prints (ending in /apis/v0). The same as 'flis record --mode replay'. Ctrl-C stops it.
A cassette holding a path that could leave /apis/v0 ('..' in any encoding, a backslash, '//') is
refused (exit 2, naming its file and line).

Identical requests are answered in recorded order (a client polling a batch sees pending, then
done, as recorded); after the last recorded answer, the last one repeats. A request the cassette
has no answer for gets a 501 JSON answer naming the cassette, the request, and the closest
recorded request with a field-by-field difference, and how to fix it.

Options:
  --cassette FILE              the cassette to serve
  --port N                     port to listen on (default 0: a free port)
  --host ADDR                  loopback address to bind (default 127.0.0.1)
${matchHelp}`;

const options = {
  cassette: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  ...matchOptions,
} as const;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values: v } = parseCommandArgs('replay', argv, options);
  if (v.help) {
    io.out(help);
    return EXIT.ok;
  }
  if (!v.cassette) throw new UsageError(`flis replay: --cassette FILE is required. See 'flis replay --help'.`);
  const port = intOption('port', v.port, { max: 65_535 }) ?? 0;
  const host = requireLoopback(v.host ?? '127.0.0.1');
  const match = matchFrom(v);
  const cassette = resolve(v.cassette);
  const server = await startReplayServer({
    cassette,
    port,
    host,
    env: io.env,
    match,
    log: (line) => io.err(line),
  });
  io.out(`flis replay: serving ${server.baseUrl} from ${cassette}`);
  await io.stopped;
  await server.close();
  return EXIT.ok;
}

export const replayCommand: Command = {
  name: 'replay',
  help,
  run,
};
