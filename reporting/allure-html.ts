/**
 * `flis report`: the Allure results of a run as one self-contained HTML file,
 * built offline by the `allure` 3 package. Its classic (allure2) plugin is
 * used because it honours ALLURE_NO_ANALYTICS (the newer "awesome" plugin
 * always adds a Google Tag Manager script); single-file mode inlines every
 * script and style. The result is scanned afterwards: a reference to anything
 * outside the file is an error, not a report.
 *
 * Trends: allure 3 keeps one line per generated report in a JSONL history file
 * (`historyPath` in its config) and reads it back on the next generate. The
 * file lives beside the report folder (DIR/allure-history.jsonl), which a run
 * never clears, so the Trend widget fills in from the second report on.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { FlisError } from '../errors/flis-error.ts';

/**
 * The allure command (its package's cli.js), found the way Node finds the package: installed from the package,
 * allure sits in the partner's node_modules, not in ours. Its exports name no cli.js, so go from its main file.
 */
function allureCli(): string | undefined {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('allure')), '..', 'cli.js');
  } catch {
    return undefined;
  }
}
const ALLURE_CLI = allureCli();

export interface AllureHtmlOptions {
  resultsDirs: string[];
  outputDir: string;
  reportName?: string;
  /** The history file (default: allure-history.jsonl beside the output folder). */
  historyPath?: string;
}

export const DEFAULT_REPORT_NAME = 'FLIS conformance';

/** Where the history of the report in `outputDir` is kept unless told otherwise. */
export function defaultHistoryPath(outputDir: string): string {
  return join(dirname(resolve(outputDir)), 'allure-history.jsonl');
}

/** src/href/url() values that would make a browser fetch something outside the file. */
export function externalReferences(html: string): string[] {
  const refs = [
    ...html.matchAll(/(?:src|href)\s*=\s*["']((?:https?:)?\/\/[^"']+)["']|url\(\s*["']?((?:https?:)?\/\/[^"')]+)/gi),
  ].map((m) => m[1] ?? m[2] ?? '');
  // SVG namespace URIs are identifiers, never fetched.
  return [...new Set(refs.filter((r) => r && !/^https?:\/\/www\.w3\.org\//.test(r)))];
}

function runAllure(cli: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd,
      env: { ...process.env, ALLURE_NO_ANALYTICS: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (output += b.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? 1, output }));
  });
}

export async function buildAllureHtml(opts: AllureHtmlOptions): Promise<string> {
  const cli = ALLURE_CLI;
  if (!cli || !existsSync(cli))
    throw new FlisError('FLIS_ERR_CONFIG', 'the allure package is not installed (no allure/cli.js); run npm ci');
  const dirs = opts.resultsDirs.filter((d) => existsSync(d) && readdirSync(d).some((f) => f.endsWith('-result.json')));
  if (dirs.length === 0)
    throw new FlisError(
      'FLIS_ERR_USAGE',
      `no Allure results in ${opts.resultsDirs.join(', ')}; run 'flis run' first (it writes <report-dir>/allure-results)`,
    );
  const output = resolve(opts.outputDir);
  rmSync(output, { recursive: true, force: true });
  mkdirSync(dirname(output), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'flis-allure-'));
  try {
    const reportName = opts.reportName ?? DEFAULT_REPORT_NAME;
    // The classic plugin titles the page from its own `reportName` option, not from the config's `name`.
    const config = {
      name: reportName,
      output,
      historyPath: resolve(opts.historyPath ?? defaultHistoryPath(output)),
      plugins: { allure2: { options: { singleFile: true, reportLanguage: 'en', reportName } } },
    };
    const configFile = join(work, 'allurerc.mjs');
    writeFileSync(configFile, `export default ${JSON.stringify(config)};\n`);
    const r = await runAllure(cli, ['generate', '--config', configFile, ...dirs.map((d) => resolve(d))], work);
    const index = join(output, 'index.html');
    if (r.code !== 0 || !existsSync(index))
      throw new FlisError(
        'FLIS_ERR_INTERNAL',
        `allure generate exited ${r.code} without ${index}:\n${r.output.slice(-2000)}`,
      );
    const external = externalReferences(readFileSync(index, 'utf8'));
    if (external.length)
      throw new FlisError(
        'FLIS_ERR_INTERNAL',
        `the Allure report references ${external.length} resource(s) outside the file (${external.slice(0, 3).join(', ')}); refusing to call it self-contained`,
      );
    return index;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
