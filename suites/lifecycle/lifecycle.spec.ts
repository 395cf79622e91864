/**
 * offer-lifecycle: a fast-check model-based run over create, upsert, update,
 * cancel by flag, delete, bulk and read (spec 1, 2.3, 3 rule 4, 4.1). The
 * server is checked against the model after every command, and a failure
 * shrinks to the shortest command sequence that still fails.
 */
import fc from 'fast-check';
import { offerWriteBodyArb } from '../generators/offer-write-body.ts';
import { expectationsOf } from '../lib/readback.ts';
import { checkTest, test } from '../lib/check-test.ts';
import { checkProperty } from '../lib/property.ts';
import { target } from '../lib/target.ts';
import { BulkCommand } from './commands/bulk.ts';
import { CancelByFlagCommand } from './commands/cancel-by-flag.ts';
import { CreateCommand } from './commands/create.ts';
import { DeleteCommand } from './commands/delete.ts';
import { ReadCommand } from './commands/read.ts';
import { UpdateCommand } from './commands/update.ts';
import { UpsertNewCommand } from './commands/upsert-new.ts';
import type { OfferModel, Real } from './model.ts';

const MAX_COMMANDS = 8;

function commandArbs(runId: string): fc.Arbitrary<fc.AsyncCommand<OfferModel, Real>>[] {
  // Cancelling is a command of its own; other writes never carry cancel: true.
  const body = offerWriteBodyArb(runId, { cancel: false });
  // An update that writes no documented field proves nothing either way.
  const change = body.filter((b) => expectationsOf(b, { created: false }).some((e) => e.pointer !== '/canceled'));
  const pick = fc.nat({ max: 7 });
  const entry = fc.record({ target: fc.oneof(fc.constant('new' as const), pick), body });
  return [
    body.map((b) => new CreateCommand(b)),
    body.map((b) => new UpsertNewCommand(b)),
    fc.tuple(pick, change).map(([p, b]) => new UpdateCommand(p, b)),
    fc.tuple(pick, body).map(([p, b]) => new CancelByFlagCommand(p, b)),
    pick.map((p) => new DeleteCommand(p)),
    fc.array(entry, { minLength: 1, maxLength: 3 }).map((entries) => new BulkCommand(entries)),
    pick.map((p) => new ReadCommand(p)),
  ];
}

test(
  ...checkTest(
    {
      check: 'offer-lifecycle',
      clause: 'spec 1, spec 2.3, spec 3 rule 4, spec 4.1',
      title: 'create, upsert, update, cancel, delete, bulk and read agree with a model after every step',
      writes: true,
    },
    async (flow) => {
      const commands = fc.commands(commandArbs(target().runId), { maxCommands: MAX_COMMANDS });
      await checkProperty(
        flow,
        [commands],
        async (cmds) => {
          await fc.asyncModelRun(() => ({ model: { offers: [] }, real: { flow } }), cmds);
        },
        { numRuns: Math.max(1, Math.ceil(target().runs / 2)), waitsPerRun: MAX_COMMANDS, independentRuns: true },
      );
    },
  ),
);
