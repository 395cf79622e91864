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
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, FlisError } from '../errors/flis-error.ts';
import { checkFolder, claimFile, claimFolder, clearOwned, PathError } from '../errors/owned-paths.ts';

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
  reportName?: string | undefined;
  /** The history file (default: allure-history.jsonl beside the output folder). */
  historyPath?: string | undefined;
  /** The flag that named the output folder, for its errors (default --output). */
  outputFlag?: string;
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

/** What allure's single-file report writes into its output folder: all flis clears there before a new one. */
const ALLURE_OUTPUTS = ['index.html', 'summary.json', 'test-results.json', 'data', 'widgets', 'history', 'export'];

/** An Allure report folder an older flis left (no marker): nothing in it but what allure writes, an index.html among it. */
function provesAllureReport(_dir: string, entries: string[]): boolean {
  return entries.includes('index.html') && entries.every((e) => ALLURE_OUTPUTS.includes(e));
}

/** A results folder given by the user: a folder (a file there is a mistake to name), holding result files. */
function hasResults(dir: string): boolean {
  if (!existsSync(dir)) return false;
  if (!statSync(dir).isDirectory())
    throw new PathError(dir, 'is a file, not a folder of Allure results; give the allure-results folder of a run');
  return readdirSync(dir).some((f) => f.endsWith('-result.json'));
}

/**
 * The history allure reads and appends to: one JSON object per line. A malformed line would stop allure with a
 * stack trace after the report folder was cleared; it is named here first.
 */
export function checkHistoryFile(file: string): void {
  claimFile(file, { flag: '--history', kind: 'an Allure history file', isOurs: () => true });
  if (!existsSync(file)) return;
  const lines = readFileSync(file, 'utf8').split('\n');
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      entry = undefined;
    }
    if (!entry || typeof entry !== 'object' || Array.isArray(entry))
      throw new ConfigError(
        'is not an Allure history line (one JSON object per line); delete the line, or the file to start the trend afresh',
        { file, line: i + 1 },
      );
  }
}

export async function buildAllureHtml(opts: AllureHtmlOptions): Promise<string> {
  const cli = ALLURE_CLI;
  if (!cli || !existsSync(cli))
    throw new FlisError('FLIS_ERR_CONFIG', 'the allure package is not installed (no allure/cli.js); run npm ci');
  const dirs = opts.resultsDirs.filter(hasResults);
  if (dirs.length === 0)
    throw new FlisError(
      'FLIS_ERR_USAGE',
      `no Allure results in ${opts.resultsDirs.join(', ')}; run 'flis run' first (it writes <report-dir>/allure-results)`,
    );
  const output = resolve(opts.outputDir);
  const historyPath = resolve(opts.historyPath ?? defaultHistoryPath(output));
  // Every path is checked before anything is cleared: the output folder must be flis's, the history readable.
  const outputClaim = { flag: opts.outputFlag ?? '--output', provesOurs: provesAllureReport };
  checkFolder(output, outputClaim);
  checkHistoryFile(historyPath);
  claimFolder(output, outputClaim);
  clearOwned(
    output,
    readdirSync(output).filter((e) => ALLURE_OUTPUTS.includes(e)),
  );
  mkdirSync(dirname(historyPath), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'flis-allure-'));
  try {
    const reportName = opts.reportName ?? DEFAULT_REPORT_NAME;
    // The classic plugin titles the page from its own `reportName` option, not from the config's `name`.
    const config = {
      name: reportName,
      output,
      historyPath,
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
