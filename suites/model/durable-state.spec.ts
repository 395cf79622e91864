/**
 * durable-state (spec 1, spec 3 rules 1, 2, 4, 5): what was written stays until it is written again, judged by an
 * audit at least one visibility deadline after the last write (suites/model/durable-state.ts). The two tests run in
 * order in one worker: the first writes one state of each kind and sees each show; the second waits for the deadline
 * and reads every view of every state again. A state that showed and then changed with no write to it fails here, once
 * the same write on fresh records, left as long, changes alike (time alone did it); the checks that own each write's
 * rule (offer-cancel, billing-forced-status, event-cancel, record-upsert …) judge only that it shows.
 */
import { operationById } from '../../specs/contract.ts';
import { checkTest, test } from '../lib/index.ts';
import { auditStates, writeStates } from './durable-state.ts';

test.describe.configure({ mode: 'default' });

test(
  ...checkTest(
    {
      check: 'durable-state',
      operation: operationById('upsertOffer'),
      title: 'one state of each kind is written and shows: offers, forced statuses, records, cancellations, removals',
      writes: true,
    },
    writeStates,
  ),
);

test(
  ...checkTest(
    {
      check: 'durable-state',
      operation: operationById('getOffer'),
      title: 'a visibility deadline after the last write, every state still shows what was written',
      writes: true,
    },
    auditStates,
  ),
);
