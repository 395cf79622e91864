/** `flis show-report`: serve a run's report folder on loopback until stopped, and print where to open it. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../../errors/flis-error.ts';
import { listenError } from '../../errors/listen-error.ts';
import { REPORT_ENTRY_POINTS, serveReportFolder } from '../../reporting/report-server.ts';
import { intOption, parseCommandArgs } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';

const DEFAULT_PORT = 9323;

const help = `Usage: flis show-report [--report-dir DIR] [--port N]

Serve a run's report folder read-only on http://127.0.0.1 until stopped (Ctrl-C), and print the URLs of
its reports. The Playwright HTML report needs this: opened from file:// a browser refuses to load its
data and shows "No tests found". The certificate's links into the Playwright report work from here too.

Options:
  --report-dir DIR   the run's report folder (default reports/)                   [env FLIS_REPORT_DIR]
  --port N           port on 127.0.0.1 (default ${DEFAULT_PORT}, as 'playwright show-report'; 0: a free port)

Exit codes: 0 stopped, 2 no report in DIR or the port is in use.`;

const options = { 'report-dir': { type: 'string' }, port: { type: 'string' } } as const;

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values: v } = parseCommandArgs('show-report', argv, options);
  if (v.help) {
    io.out(help);
    return EXIT.ok;
  }
  const dir = resolve(v['report-dir'] ?? io.env.FLIS_REPORT_DIR ?? 'reports');
  const port = intOption('port', v.port, { max: 65_535 }) ?? DEFAULT_PORT;
  const present = REPORT_ENTRY_POINTS.filter((p) => existsSync(join(dir, p)));
  if (present.length === 0)
    throw new UsageError(`no report in ${dir} (no ${REPORT_ENTRY_POINTS.join(', ')}); run 'flis run' first`);
  const server = await serveReportFolder(dir, port).catch((e: unknown) => {
    throw listenError(e, '127.0.0.1', port);
  });
  io.out(`flis show-report: serving ${dir} at ${server.url} (Ctrl-C stops it)`);
  for (const p of present) io.out(`  ${server.url}${p}`);
  await io.stopped;
  await server.close();
  return EXIT.ok;
}

export const showReportCommand: Command = {
  name: 'show-report',
  help,
  run,
};

/** The closing line of a run that wrote a Playwright report: the command that serves it (file:// does not work). */
export function showReportHint(reportDir: string, cwd = process.cwd()): string | undefined {
  if (!existsSync(join(reportDir, 'html', 'index.html'))) return undefined;
  const dir = resolve(reportDir);
  const flag = dir === resolve(cwd, 'reports') ? '' : ` --report-dir ${/^[\w./@:+-]+$/.test(dir) ? dir : `'${dir}'`}`;
  return `view the HTML report: npx flis show-report${flag}`;
}
