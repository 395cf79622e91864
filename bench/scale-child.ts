/**
 * One cassette-scale measurement of the recorder benchmark, in a process of its
 * own so its peak memory is its alone: `lint FILE` runs `flis cassette lint`'s
 * reader and contract check over the file and prints one JSON line with the
 * time it took, the exchanges and findings, and the peak RSS.
 */
import { lintCassette } from '../recorder/lint.ts';

const [role, file] = process.argv.slice(2);
if (role !== 'lint' || !file) throw new Error('usage: scale-child.ts lint FILE');
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const report = lintCassette(file);
const cpu = process.cpuUsage(cpu0);
process.stdout.write(
  `${JSON.stringify({
    ms: performance.now() - t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    exchanges: report.exchanges,
    findings: report.findings.length,
    maxRss: process.resourceUsage().maxRSS * 1024,
  })}\n`,
);
