/**
 * The same verdict on a busy machine (principle 7): beside a CPU load that keeps every core busy
 * (tests/load-harness.ts: two busy-loop processes per core), the clean mock and every conformant variant of
 * mock/variant.ts get the verdict they get at idle (tests/suites/conformant-seeds.test.ts and
 * tests/runner/throttled-run.test.ts prove those): nothing failed on a contract rule, nothing blocked or
 * inconclusive, only the advisories the variant draws at idle, exit 0. With FLIS_TEST_UNDER_LOAD=all each variant
 * runs on three seeds, each seed with a third of the suites, so that every suite meets every variant once under load
 * at the cost of about six whole runs. npm test runs each variant once, with one suite, and each suite meets one
 * variant: about one whole run under load, which keeps CI's time bounded. The whole run through a proxy, a private
 * CA, a client certificate and 5 s tokens is tests/net/full-run.test.ts, which runs under the same load with
 * FLIS_TEST_UNDER_LOAD=all.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { variantPresets } from '../../mock/variant.ts';
import { type CpuLoad, loadPerCore, startCpuLoad } from '../load-harness.ts';
import { startFlis } from '../runner/helpers.ts';

/**
 * FLIS_TEST_UNDER_LOAD=all runs every variant on all three seeds (about six whole runs, half an hour on a loaded 2-core
 * machine); `npm test` one seed, one suite each.
 */
const ALL = process.env.FLIS_TEST_UNDER_LOAD === 'all';
const SEEDS = ALL ? [11, 22, 33] : [11];
/**
 * Every suite but webhooks (as conformant-seeds): in three groups of about the same cost for FLIS_TEST_UNDER_LOAD=all,
 * one at a time for npm test (six suites, six variants).
 */
const GROUPS = ALL
  ? [
      ['offers', 'bad-input'],
      ['contract', 'lifecycle'],
      ['billing', 'invoices'],
    ]
  : [['offers'], ['contract'], ['billing'], ['bad-input'], ['lifecycle'], ['invoices']];
/** The advisories a conformant variant draws at idle, by the suite that draws them (conformant-seeds.test.ts). */
const ADVISORY: Record<string, Record<string, string[]>> = { different: { 'bad-input': ['bad-input-rejected'] } };

const dir = mkdtempSync(join(tmpdir(), 'flis-under-load-'));
let load: CpuLoad | undefined;
before(() => {
  load = startCpuLoad();
});
after(async () => {
  await load?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Verdict {
  code: number | null;
  line: string;
  failed: string[];
  blocked: string[];
  inconclusive: string[];
}

interface RunSummary {
  failures: { check?: string; title: string }[];
  blockedTests: { title: string; reason: string }[];
  inconclusiveTests: { title: string; reason: string }[];
}

async function verdictOf(variant: string, seed: number, suites: string[]): Promise<Verdict> {
  const reportDir = join(dir, `${variant}-${seed}`);
  const args = ['run', '--mock-variant', variant, '--seed', String(seed), '--suite', suites.join(',')];
  const run = startFlis([...args, '--progress', 'none', '--report-dir', reportDir], {});
  const code = await run.exited;
  const summary = JSON.parse(readFileSync(join(reportDir, 'run.json'), 'utf8')) as RunSummary;
  return {
    code,
    line: run.out().trim().split('\n').at(-1) ?? '',
    failed: [...new Set(summary.failures.map((f) => f.check ?? f.title))].sort(),
    blocked: summary.blockedTests.map((t) => `${t.title}: ${t.reason}`),
    inconclusive: summary.inconclusiveTests.map((t) => `${t.title}: ${t.reason}`),
  };
}

describe('conformant variants under CPU load, on three seeds', { concurrency: 1 }, () => {
  const variants = Object.keys(variantPresets);
  variants.forEach((variant, v) => {
    SEEDS.forEach((seed, s) => {
      const suites = GROUPS[(v + s) % GROUPS.length]!;
      test(`${variant}, seed ${seed}, ${suites.join(' and ')}: the verdict at idle`, { timeout: 900_000 }, async () => {
        const started = performance.now();
        const got = await verdictOf(variant, seed, suites);
        const took = `${Math.round((performance.now() - started) / 1000)} s, load ${loadPerCore()} a core`;
        const advisories = suites.flatMap((suite) => ADVISORY[variant]?.[suite] ?? []).sort();
        const what = `flis run --mock-variant ${variant} --seed ${seed} --suite ${suites.join(',')} (${took})`;
        assert.deepEqual(
          { code: got.code, failed: got.failed, blocked: got.blocked, inconclusive: got.inconclusive },
          { code: 0, failed: advisories, blocked: [], inconclusive: [] },
          `${what}\n${got.line}`,
        );
        assert.match(got.line, /^flis run: PARTIAL .*; exit 0$/, what);
      });
    });
  });
});
