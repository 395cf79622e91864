/** Every `flis` subcommand, in the order `flis --help` lists them. */
import type { Command } from '../command.ts';
import { mockCommand } from './mock.ts';
import { runCommand } from './run.ts';

export const commands: Command[] = [runCommand, mockCommand];
