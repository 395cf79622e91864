/**
 * After a run stopped by a signal: undo what it wrote (runner/undo-run.ts) and say so. Shared by `flis run`
 * and `flis certify`; a read-only run wrote nothing and a cassette replay has no deployment to clean.
 */
import type { SuiteRunResult } from '../runner/run-suites.ts';
import { undoRunWrites } from '../runner/undo-run.ts';
import type { CommandIo } from './command.ts';

export interface WrittenTarget {
  command: string;
  baseUrl: string;
  token: string;
  deployment: string;
  /** False on a read-only target or a replay: nothing to undo. */
  wrote: boolean;
}

export async function undoIfInterrupted(io: CommandIo, result: SuiteRunResult, t: WrittenTarget): Promise<void> {
  if (!result.interrupted || !t.wrote) return;
  io.out(`interrupted by ${result.interrupted}: undoing what run ${result.runId} wrote on ${t.deployment}`);
  const undone = await undoRunWrites({
    baseUrl: t.baseUrl,
    token: t.token,
    deployment: t.deployment,
    runId: result.runId,
  });
  io.out(
    `cleanup: ${undone.offersCancelled.length} offer(s) cancelled, ${undone.statusesRemoved.length} forced status(es) removed, ${undone.recordsDeleted.length} record(s) deleted`,
  );
  for (const l of undone.leftBehind) io.err(`flis ${t.command}: could not undo: ${l}`);
}
