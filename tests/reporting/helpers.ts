/** Runs a flis command in-process with its output captured (the commands take their io as an argument). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command, CommandIo } from '../../cli/command.ts';

export interface CommandResult {
  code: number;
  out: string;
  err: string;
}

export async function runCommand(
  command: Command,
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommandResult> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { out: (l) => out.push(l), err: (l) => err.push(l), env, stopped: new Promise(() => {}) };
  const code = await command.run(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Every file under a folder (for "the token is nowhere in the reports"). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

export function filesContaining(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle);
  return filesUnder(dir).filter((f) => readFileSync(f).includes(bytes));
}
