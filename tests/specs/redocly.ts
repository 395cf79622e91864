/** Runs the Redocly linter as its users do (the CLI, recommended rules), offline and with telemetry off. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { message: string }[];
  status: number | null;
}

export function redoclyLint(file: string): LintReport {
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--format', 'json'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
      timeout: 120_000,
    },
  );
  return { ...(JSON.parse(r.stdout) as Omit<LintReport, 'status'>), status: r.status };
}
