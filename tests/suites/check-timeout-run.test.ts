/**
 * The check timeout counts time without an answer, end to end: Playwright runs three checks (check-timeout/
 * progress.spec.ts) with a 4 s check timeout against a loopback server that answers each request after 250 ms.
 * A check whose 32 answers take 8 s in all passes (a check timeout counting time in total stopped it); a check whose
 * server goes quiet is stopped 4 s after its last answer; a check that is answered forever is stopped at the 40 s cap
 * (10 × DUR). Both stopped checks are inconclusive, never failed, and their reasons name the limit. The pauses are the
 * server's, not the machine's load, and each is a sixteenth of the timeout, so a busy machine's own delays between
 * answers stay far under it and the verdicts hold.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readRunOutcomes } from '../../reporting/outcomes.ts';

const CHECK_TIMEOUT_MS = 4000;
const PAUSE_MS = 250;
/**
 * Long past the check timeout, so even a timer a busy machine fires late stops the check before this answer comes;
 * short enough that the worker's connection pool, which waits for it, closes before the cap test ends.
 */
const SILENT_MS = 5 * CHECK_TIMEOUT_MS;
const PLAYWRIGHT_CLI = createRequire(import.meta.url).resolve('@playwright/test/cli');
const ROOT = join(import.meta.dirname, '..', '..');

/** How long Playwright says the test titled `title` ran, from its JSON report. */
function durationOf(resultsFile: string, title: string): number | undefined {
  type Spec = { title: string; tests: { results: { duration: number }[] }[] };
  type Suite = { specs?: Spec[]; suites?: Suite[] };
  const specs = (s: Suite): Spec[] => [...(s.specs ?? []), ...(s.suites ?? []).flatMap(specs)];
  const report = JSON.parse(readFileSync(resultsFile, 'utf8')) as Suite;
  return specs(report)
    .find((s) => s.title.includes(title))
    ?.tests[0]?.results.at(-1)?.duration;
}

const dir = mkdtempSync(join(tmpdir(), 'flis-check-timeout-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('answers restart the check timeout; silence and the cap stop a check, inconclusive, saying which', {
  timeout: 180_000,
}, async () => {
  let answeredForever = 0;
  const server = createServer((req, res) => {
    const wait = req.url?.endsWith('/silent') ? SILENT_MS : PAUSE_MS;
    setTimeout(() => {
      if (req.url?.endsWith('/forever')) answeredForever++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    }, wait);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  try {
    const child = spawn(
      process.execPath,
      [PLAYWRIGHT_CLI, 'test', '--config', join(ROOT, 'tests/suites/check-timeout/playwright.config.ts')],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          FLIS_GATEWAY_URL: `http://127.0.0.1:${port}/apis/v0`,
          FLIS_TOKEN: 'check-timeout-token',
          FLIS_CHECK_TIMEOUT_MS: String(CHECK_TIMEOUT_MS),
          FLIS_REPORT_DIR: dir,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (out += b.toString('utf8')));
    await once(child, 'close');
    const { outcomes } = readRunOutcomes(join(dir, 'results.json'));
    const byTitle = (title: string) => {
      const found = outcomes.find((o) => o.title.includes(title));
      assert.ok(found, `no outcome for "${title}": ${out}`);
      return found;
    };

    const slow = byTitle('answered slowly');
    assert.equal(
      slow.status,
      'passed',
      `32 answers ${PAUSE_MS} ms apart, 8 s in all: ${slow.skipReason ?? slow.error}`,
    );
    const took = durationOf(join(dir, 'results.json'), 'answered slowly') ?? 0;
    assert.ok(took > CHECK_TIMEOUT_MS, `it ran past DUR in all (${took} ms), which a timeout counting in total stops`);

    const quiet = byTitle('went quiet');
    assert.equal(quiet.status, 'skipped', `a check without an answer for DUR is stopped: ${quiet.error}`);
    assert.equal(quiet.skipKind, 'inconclusive');
    assert.equal(quiet.skipReason, 'inconclusive: the check got no answer for 4s (--check-timeout)');

    const forever = byTitle('answered forever');
    assert.equal(forever.status, 'skipped', `a check answered forever still ends: ${forever.error}`);
    assert.equal(forever.skipKind, 'inconclusive');
    assert.equal(
      forever.skipReason,
      'inconclusive: the check ran for the 40s cap (10 × --check-timeout) while still getting answers',
    );
    // No answer came DUR after the last one (the reason says so), so reaching 10 × DUR took at least 10 answers.
    assert.ok(answeredForever >= 10, `the check kept getting answers until the cap (${answeredForever} answers)`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
