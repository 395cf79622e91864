/**
 * One cassette-scale measurement of the recorder benchmark, in a process of its
 * own so its peak memory is its alone: `lint FILE` runs `flis cassette lint`'s
 * reader and contract check, `scan FILE` the secret scan, `traffic FILE` certify's
 * judgement of a partner's cassette, `export-har FILE`
 * the HAR export (to FILE.har, deleted after). Prints one JSON line with the
 * time it took, the exchanges and findings, and the peak RSS.
 */
import { rmSync } from 'node:fs';
import { exportHarFile } from '../recorder/har-file.ts';
import { lintCassette } from '../recorder/lint.ts';
import { scanCassette } from '../recorder/scan.ts';
import { trafficOutcomes } from '../reporting/traffic-outcomes.ts';

const [role, file] = process.argv.slice(2);
const roles: Record<string, (f: string) => { exchanges: number; findings: number }> = {
  lint: (f) => {
    const report = lintCassette(f);
    return { exchanges: report.exchanges, findings: report.findings.length };
  },
  scan: (f) => ({ exchanges: 0, findings: scanCassette(f, { FLIS_TOKEN: process.env.FLIS_TOKEN ?? '' }).length }),
  // `flis certify --cassette`: the partner's traffic judged exchange by exchange.
  traffic: (f) => {
    const r = trafficOutcomes(f);
    return { exchanges: r.exchanges, findings: r.outcomes.filter((o) => o.status === 'failed').length };
  },
  'export-har': (f) => {
    const exchanges = exportHarFile(f, `${f}.har`);
    rmSync(`${f}.har`, { force: true });
    return { exchanges, findings: 0 };
  },
};
const work = role ? roles[role] : undefined;
if (!work || !file) throw new Error(`usage: scale-child.ts ${Object.keys(roles).join('|')} FILE`);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const result = work(file);
const cpu = process.cpuUsage(cpu0);
process.stdout.write(
  `${JSON.stringify({
    ms: performance.now() - t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    ...result,
    maxRss: process.resourceUsage().maxRSS * 1024,
  })}\n`,
);
