/**
 * The regress bench, not a timed test: 100 partner cassettes of 1,000 exchanges each (the three partner clients of
 * bench/partner-clients.ts, recorded once through the recorder in front of the embedded mock, then repeated), replayed
 * against a fresh embedded mock twice side by side: sending the same requests with the same id chaining and no
 * judging, then `flis regress`'s full run (judged). The ratio is held to 1.5×. The heap after a full GC is sampled as
 * the partners go by (flat: cassettes are streamed); the mock runs in a process of its own, so its stored records are
 * not counted. Then `flis contract diff` of the bundled document against a copy
 * with one breaking change, with the 100 cassettes (held to 10 s).
 *
 *   node --import tsx bench/regress.bench.ts [--partners 100] [--exchanges 1000] [--contract-diff-only]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parse, stringify } from 'yaml';
import { closeConnection, openConnection } from '../net/connection.ts';
import { diffContracts } from '../regress/contract-diff.ts';
import { contractDiffReport, writeContractDiff } from '../regress/contract-report.ts';
import { OperationMatcher, partnerUsage } from '../regress/contract-usage.ts';
import { loadOpenApi } from '../regress/openapi-document.ts';
import { findPartners } from '../regress/partners.ts';
import { type PartnerCassette, PartnerReplay } from '../regress/replay-partner.ts';
import { PARTNER_TOKEN, partnerClients, recordPartners } from './partner-clients.ts';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const RATIO_TARGET = 1.5;
const CONTRACT_DIFF_TARGET_S = 10;

const { values } = parseArgs({
  options: { partners: { type: 'string' }, exchanges: { type: 'string' }, 'contract-diff-only': { type: 'boolean' } },
  strict: false,
  allowPositionals: true,
});
const PARTNERS = Number(values.partners ?? 100);
const EXCHANGES = Number(values.exchanges ?? 1000);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapMb(): number {
  gc();
  return process.memoryUsage().heapUsed / 1e6;
}

/** A cassette of `n` exchanges: the recorded ones repeated in order (no two neighbours equal), renumbered. */
function repeated(base: string, partner: string, n: number): string {
  const docs = base.split(/^(?=---$)/m);
  const header = docs[0]!.replace(/^ {2}partner: .*$/m, `  partner: ${partner}`);
  const exchanges = docs.slice(1);
  const out: string[] = [header];
  for (let i = 0; i < n; i++) out.push(exchanges[i % exchanges.length]!.replace(/^seq: \d+$/m, `seq: ${i + 1}`));
  return out.join('');
}

async function makeCassettes(dir: string): Promise<PartnerCassette[]> {
  const base = await recordPartners(join(dir, 'base'), 1);
  const kinds = Object.keys(partnerClients);
  const out = join(dir, 'partners');
  mkdirSync(out);
  for (let i = 0; i < PARTNERS; i++) {
    const kind = kinds[i % kinds.length]!;
    const name = `${kind}-${String(i).padStart(3, '0')}`;
    writeFileSync(
      join(out, `${name}.yaml`),
      repeated(readFileSync(join(base, `${kind}.yaml`), 'utf8'), name, EXCHANGES),
    );
  }
  return findPartners(out);
}

interface Pass {
  seconds: number;
  exchanges: number;
  heap: number[];
  verdicts: Record<string, number>;
}

const CHILD = fileURLToPath(new URL('./bench-child.ts', import.meta.url));

/** The embedded mock in a process of its own (bench-child.ts), so the heap sampled here is the replay's alone. */
async function mockChild(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, 'mock'], {
    env: { ...process.env, FLIS_TOKEN: PARTNER_TOKEN },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let out = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (c: Buffer) => {
      out += String(c);
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl).trim());
    });
    proc.once('exit', (code) => reject(new Error(`the mock exited with ${code} before starting`)));
  });
  proc.stdout!.resume();
  return {
    baseUrl,
    close: () =>
      new Promise<void>((r) => {
        proc.once('exit', () => r());
        proc.kill('SIGTERM');
      }),
  };
}

async function pass(partners: PartnerCassette[], judge: boolean, runId: string): Promise<Pass> {
  const mock = await mockChild();
  const connection = await openConnection({}, { kind: 'static', token: PARTNER_TOKEN }, {});
  const heap: number[] = [];
  const verdicts: Record<string, number> = {};
  let exchanges = 0;
  let busy = 0;
  try {
    for (const [i, p] of partners.entries()) {
      const t0 = performance.now();
      const r = await new PartnerReplay(p, {
        baseUrl: mock.baseUrl,
        publicBaseUrl: mock.baseUrl,
        connection,
        runId,
        writes: true,
        writesSkippedReason: '',
        visibilityTimeoutMs: 10_000,
        stopped: () => false,
        judge,
      }).run();
      busy += performance.now() - t0;
      exchanges += r.exchanges;
      verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + 1;
      if ([0, Math.floor(partners.length / 2), partners.length - 1].includes(i)) heap.push(heapMb());
    }
  } finally {
    await closeConnection(connection);
    await mock.close();
  }
  return { seconds: busy / 1000, exchanges, heap, verdicts };
}

async function contractDiffSeconds(dir: string): Promise<{ seconds: number; touched: number; breaking: number }> {
  const bundled = join(ROOT, 'specs/openapi.bundled.yaml');
  // biome-ignore lint/suspicious/noExplicitAny: the bench edits a parsed OpenAPI document in place.
  const doc = parse(readFileSync(bundled, 'utf8')) as any;
  delete doc.components.schemas.Invoice.properties.invoicedBy;
  const changed = join(dir, 'changed.yaml');
  writeFileSync(changed, stringify(doc));
  const t0 = performance.now();
  const partners = findPartners(join(dir, 'partners'), false);
  const [a, b] = [await loadOpenApi(bundled), await loadOpenApi(changed)];
  const matcher = new OperationMatcher(a.operations);
  const changes = diffContracts(a, b);
  const breaking = new Set(changes.filter((c) => c.class === 'breaking').map((c) => c.operationId));
  const usage = { dir: join(dir, 'partners'), partners: partners.map((p) => partnerUsage(p, matcher, breaking)) };
  const report = contractDiffReport(
    { file: bundled, version: a.version },
    { file: changed, version: b.version },
    changes,
    usage,
  );
  writeContractDiff(join(dir, 'report'), report);
  return {
    seconds: (performance.now() - t0) / 1000,
    touched: report.totals.partnersTouched,
    breaking: report.totals.breaking,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'flis-regress-bench-'));
try {
  console.log(`regress bench: ${PARTNERS} partner cassettes of ${EXCHANGES} exchanges (${dir})`);
  const partners = await makeCassettes(dir);
  if (values['contract-diff-only']) {
    const cd = await contractDiffSeconds(dir);
    console.log(
      `contract diff, ${PARTNERS} cassettes: ${cd.seconds.toFixed(1)} s (${cd.breaking} breaking, ${cd.touched} partners touched)`,
    );
    rmSync(dir, { recursive: true, force: true });
    process.exit(cd.seconds < CONTRACT_DIFF_TARGET_S ? 0 : 1);
  }
  const plain = await pass(partners, false, 'flis-bench-plain');
  const judged = await pass(partners, true, 'flis-bench-judged');
  const ratio = judged.seconds / plain.seconds;
  const cd = await contractDiffSeconds(dir);
  const rows: [string, string, string][] = [
    [
      `replay, no judging: ${plain.exchanges} exchanges`,
      `${plain.seconds.toFixed(1)} s (${Math.round(plain.exchanges / plain.seconds)} exchanges/s)`,
      '',
    ],
    [
      `flis regress (judged): ${judged.exchanges} exchanges`,
      `${judged.seconds.toFixed(1)} s; **${ratio.toFixed(2)}×** the replay`,
      `≤ ${RATIO_TARGET}×`,
    ],
    ['verdicts (same mock)', JSON.stringify(judged.verdicts), 'all unchanged'],
    ['heap after GC: first / middle / last partner', judged.heap.map((h) => `${h.toFixed(1)} MB`).join(' / '), 'flat'],
    [
      `contract diff, ${PARTNERS} cassettes`,
      `**${cd.seconds.toFixed(1)} s** (${cd.breaking} breaking, ${cd.touched} partners touched)`,
      `< ${CONTRACT_DIFF_TARGET_S} s`,
    ],
  ];
  console.log('| measure | result | target |\n| --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  const ok = ratio <= RATIO_TARGET && cd.seconds < CONTRACT_DIFF_TARGET_S && judged.verdicts.unchanged === PARTNERS;
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
