/**
 * `flis webhooks listen`: receive webhook POSTs (spec 6), judge each against
 * the envelope schema and its type's payload rule, print it and record it.
 */
import { resolve } from 'node:path';
import { UsageError } from '../../errors/flis-error.ts';
import { listenError } from '../../errors/listen-error.ts';
import { WebhookCassette } from '../../webhooks/cassette.ts';
import { startReceiver, type Delivery } from '../../webhooks/receiver.ts';
import { intOption, parseCommandArgs } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';

const help = `Usage: flis webhooks listen [--port N] [--cassette FILE]

Receive webhook deliveries (spec 6) on 127.0.0.1 until stopped (Ctrl-C). Each POST is answered 204 and
judged: its body must be a JSON envelope with one of the 8 types and a payload
(schemas/webhook-envelope.schema.json), and a BOOKING payload must be the full Booking entity (an object).
Nothing else is judged: subscription, delivery headers, signing, retries and the payload fields of the
other types are not shown by the spec.

  --port N                 port to listen on (default 0: a free port, printed)
  --cassette FILE          record every delivery to FILE (the cassette format of 'flis record';
                           'flis certify --cassette FILE' and the drift report read it)

Against the embedded mock: start 'flis mock --webhook http://127.0.0.1:PORT/' (or PUT {"url": …} to
/__flis/webhooks on the mock, a mock-only endpoint outside the contract), then write a booking with a
carrierId or a booking event.
Exit codes: 0 stopped and every delivery was valid, 1 a delivery broke the contract, 2 usage error.`;

const options = { port: { type: 'string' }, cassette: { type: 'string' } } as const;

function describe(d: Delivery): string {
  const head = `#${d.seq} ${d.receivedAt} ${d.method} ${d.path} ${d.type ?? '(no valid type)'}`;
  if (d.violations.length === 0) return `${head}: valid`;
  return `${head}: ${d.violations.length} violation(s)\n${d.violations.map((v) => `  [${v.check}] ${v.clause}: ${v.message}`).join('\n')}`;
}

/** One delivery into the cassette; whatever becomes of it is said in one line, and the receiver keeps serving. */
function record(cassette: WebhookCassette, d: Delivery): string {
  try {
    const r = cassette.append(d);
    if (!r.written) return `not recorded: ${r.reason}`;
    return r.redacted ? 'recorded, with a secret it carried redacted' : 'recorded';
  } catch (error) {
    return `not recorded: ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function listen(argv: string[], io: CommandIo): Promise<number> {
  const { values: v } = parseCommandArgs('webhooks listen', argv, options);
  if (v.help) {
    io.out(help);
    return EXIT.ok;
  }
  const port = intOption('port', v.port, { max: 65_535 });
  const cassette = v.cassette ? new WebhookCassette(resolve(v.cassette), io.env) : undefined;
  const receiver = await startReceiver({ port }).catch((e: unknown) => {
    throw listenError(e, '127.0.0.1', port ?? 0);
  });
  let broken = 0;
  receiver.onDelivery((d) => {
    if (d.violations.length) broken += 1;
    io.out(describe(d));
    if (d.type) io.out(`  payload: ${JSON.stringify(d.payload).slice(0, 500)}`);
    if (cassette) io.out(`  ${record(cassette, d)}`);
  });
  io.out(
    `listening for webhooks at ${receiver.url}${cassette ? `, recording to ${resolve(v.cassette ?? '')}` : ''} (Ctrl-C to stop)`,
  );
  await io.stopped;
  await receiver.close();
  cassette?.close();
  io.out(`${receiver.deliveries.length} delivery(ies), ${broken} broke the contract`);
  return broken ? EXIT.checkFailed : EXIT.ok;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'listen') return listen(rest, io);
  if (!sub || sub === '--help' || sub === '-h') {
    io.out(help);
    return sub ? EXIT.ok : EXIT.usage;
  }
  throw new UsageError(`unknown subcommand '${sub}'; the one subcommand is 'listen'. See 'flis webhooks --help'.`);
}

export const webhooksCommand: Command = {
  name: 'webhooks',
  help,
  run,
};
