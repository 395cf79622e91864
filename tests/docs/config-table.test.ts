/**
 * docs/configuration.md's flag table and the commands shown in README.md and docs/ stay in step with each command's
 * `--help`: a flag added to a command's help without its row fails here, naming the row to add; a row whose flag is
 * gone fails naming the row to remove; a documented command line using a flag its command lacks fails too.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../runner/helpers.ts';
import { commandNames, envVarsOf, flagsOf, flagUsage, helpOf } from './help-text.ts';

const CONFIG = 'docs/configuration.md';

interface Row {
  command: string;
  flag: string | undefined;
  env: string[];
  line: number;
}

/** The rows of the table headed `| command | flag | environment variable | what it does |`. */
function flagTable(): Row[] {
  const lines = readFileSync(join(ROOT, CONFIG), 'utf8').split('\n');
  const start = lines.findIndex((l) => /^\|\s*command\s*\|\s*flag\s*\|/.test(l));
  assert.ok(start >= 0, `${CONFIG} has a table headed | command | flag | environment variable | what it does |`);
  const rows: Row[] = [];
  for (let i = start + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    const cells = lines[i]!.split(/(?<!\\)\|/).slice(1, -1);
    const [command = '', flag = '', env = ''] = cells.map((c) => c.trim());
    rows.push({
      command: command.replaceAll('`', ''),
      flag: /--[a-z][a-z0-9-]*/.exec(flag)?.[0],
      env: env.match(/\bFLIS_[A-Z0-9_]*[A-Z0-9]\b/g) ?? [],
      line: i + 1,
    });
  }
  return rows;
}

const rows = flagTable();

test(`${CONFIG}: every row names a command of flis`, () => {
  const unknown = rows.filter((r) => r.command !== '(tests)' && !commandNames.includes(r.command));
  assert.deepEqual(
    unknown.map((r) => `${CONFIG}:${r.line}: '${r.command}' is no flis command (${commandNames.join(', ')})`),
    [],
  );
});

for (const name of commandNames) {
  test(`${CONFIG} lists exactly the flags of 'flis ${name} --help', and its environment variables`, async () => {
    const help = await helpOf(name);
    const inHelp = flagsOf(help);
    const mine = rows.filter((r) => r.command === name);
    const inTable = new Set(mine.flatMap((r) => (r.flag ? [r.flag] : [])));
    const problems: string[] = [];
    for (const flag of inHelp) {
      if (inTable.has(flag)) continue;
      const { usage, what } = flagUsage(help, flag);
      problems.push(
        `'flis ${name} --help' lists ${flag}, which ${CONFIG} lacks: add the row\n` +
          `| \`${name}\` | \`${usage.replaceAll('|', '\\|')}\` |  | ${what || '…'} |`,
      );
    }
    for (const r of mine) {
      if (r.flag && !inHelp.has(r.flag))
        problems.push(`${CONFIG}:${r.line}: remove the row of ${r.flag}: 'flis ${name} --help' does not list it`);
    }
    const envInTable = new Set(mine.flatMap((r) => r.env));
    for (const v of envVarsOf(help)) {
      if (!envInTable.has(v))
        problems.push(
          `'flis ${name} --help' names ${v}, which no row of '${name}' in ${CONFIG} does: add it to its flag's row, or the row\n` +
            `| \`${name}\` | — | \`${v}\` | … |`,
        );
    }
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });
}

/** The shell lines of the ```sh blocks of a Markdown file. */
function shellLines(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n').filter((l) => l.trim()));
}

const documents = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

test('every flis command line shown in README.md and docs/ uses a command and flags its --help lists', async () => {
  const problems: string[] = [];
  let seen = 0;
  for (const file of documents) {
    for (const line of shellLines(file)) {
      const code = line.replace(/\s#.*$/, '');
      for (const m of code.matchAll(/\bflis ([a-z][a-z-]*)([^&|;]*)/g)) {
        seen++;
        const [, name, rest] = m;
        if (!commandNames.includes(name!)) {
          problems.push(`${file}: '${line.trim()}': no command '${name}'`);
          continue;
        }
        const known = flagsOf(await helpOf(name!));
        for (const flag of rest!.match(/(?<![\w-])--[a-z][a-z0-9-]*/g) ?? [])
          if (flag !== '--help' && !known.has(flag))
            problems.push(`${file}: '${line.trim()}': 'flis ${name} --help' lists no ${flag}`);
      }
    }
  }
  assert.ok(seen >= 5, `found ${seen} flis command lines in the docs`);
  assert.deepEqual(problems, []);
});

test("README.md's two commands come first, and .ci/run runs exactly the README's test command", () => {
  const [install, tests] = shellLines('README.md').map((l) => l.replace(/\s+#.*$/, '').trim());
  assert.equal(install, 'npm ci && npx flis run');
  assert.equal(tests, 'npm test');
  const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('#'));
  assert.equal(ci.at(-1)?.trim(), tests, ".ci/run ends by running the README's test command");
});

test('README.md stays a guide: under about 200 lines', () => {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
  assert.ok(lines <= 220, `README.md has ${lines} lines: move reference material into docs/`);
});
