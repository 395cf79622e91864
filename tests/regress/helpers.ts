/** Running `flis regress` in-process for the tests, and reading what it wrote. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandIo } from '../../cli/command.ts';
import { regressCommand } from '../../cli/commands/regress.ts';
import type { RegressReport } from '../../regress/types.ts';

export function tempDir(prefix = 'flis-regress-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Ran {
  code: number;
  out: string[];
  err: string[];
  report: RegressReport;
  reportDir: string;
}

export async function regress(
  args: string[],
  reportDir: string,
  o: { env?: NodeJS.ProcessEnv; stopped?: Promise<void> } = {},
): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: o.env ?? {},
    stopped: o.stopped ?? new Promise(() => {}),
    signal: o.stopped?.then(() => 'SIGINT' as const),
  };
  const code = await regressCommand.run([...args, '--report-dir', reportDir], io);
  const report = JSON.parse(readFileSync(join(reportDir, 'regress.json'), 'utf8')) as RegressReport;
  return { code, out, err, report, reportDir };
}

export function verdicts(r: RegressReport): Record<string, string> {
  return Object.fromEntries(r.partners.map((p) => [p.partner, p.verdict]));
}
