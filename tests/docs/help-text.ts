/**
 * What `flis <command> --help` prints, taken in-process (each command answers --help before it loads anything
 * heavy), and the flags and environment variables it names. A mention of another command ('flis mock --help'
 * inside `flis run --help`) belongs to that command, so quoted `'flis …'` spans are left out.
 */
import type { CommandIo } from '../../cli/command.ts';
import { commands } from '../../cli/commands/index.ts';

export const commandNames: readonly string[] = commands.map((c) => c.name);

export async function helpOf(name: string): Promise<string> {
  const entry = commands.find((c) => c.name === name);
  if (!entry) throw new Error(`no command '${name}' in cli/commands/index.ts`);
  const lines: string[] = [];
  const io: CommandIo = {
    out: (line) => lines.push(line),
    err: (line) => lines.push(line),
    env: {},
    stopped: new Promise(() => {}),
  };
  await (await entry.load()).run(['--help'], io);
  return lines.join('\n');
}

function ownText(help: string): string {
  return help.replace(/'flis [^'\n]*'/g, "''");
}

/** Every `--flag` the help names (but `--help`, which every command takes). */
export function flagsOf(help: string): Set<string> {
  const flags = ownText(help).match(/(?<![\w-])--[a-z][a-z0-9-]*/g) ?? [];
  return new Set(flags.filter((f) => f !== '--help'));
}

export function envVarsOf(help: string): Set<string> {
  return new Set(ownText(help).match(/\bFLIS_[A-Z0-9_]*[A-Z0-9]\b/g) ?? []);
}

/** How the help introduces a flag ("--seed N") and what it says of it, to write a table row from. */
export function flagUsage(help: string, flag: string): { usage: string; what: string } {
  for (const line of help.split('\n')) {
    const m = new RegExp(`^\\s+(${flag}(?: [^\\s,]+)?)(?:,[^\\n]*?)?(?:\\s{2,}(.*))?$`).exec(line);
    if (m) return { usage: m[1]!, what: (m[2] ?? '').replace(/\s*\[env [^\]]*\]/, '').trim() };
  }
  return { usage: flag, what: '' };
}
