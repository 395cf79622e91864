/** Every `flis` subcommand, in the order `flis --help` lists them. */
import type { Command } from '../command.ts';
import { cassetteCommand } from './cassette.ts';
import { certifyCommand } from './certify.ts';
import { diffCommand } from './diff.ts';
import { mergeCommand } from './merge.ts';
import { mockCommand } from './mock.ts';
import { recordCommand } from './record.ts';
import { replayCommand } from './replay.ts';
import { reportCommand } from './report.ts';
import { runCommand } from './run.ts';
import { showReportCommand } from './show-report.ts';
import { webhooksCommand } from './webhooks.ts';

export const commands: Command[] = [
  runCommand,
  certifyCommand,
  reportCommand,
  showReportCommand,
  mergeCommand,
  diffCommand,
  mockCommand,
  webhooksCommand,
  recordCommand,
  replayCommand,
  cassetteCommand,
];
