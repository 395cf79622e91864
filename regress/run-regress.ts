/** A regress run: each partner's cassette replayed in turn against one target, and the run's report. */
import { oneLine } from '../reporting/one-line.ts';
import { type PartnerCassette, PartnerReplay, type ReplayTarget } from './replay-partner.ts';
import { totalsOf } from './report.ts';
import type { PartnerReport, RegressReport } from './types.ts';

export interface RegressRunOptions {
  deployment: string;
  shard?: string | undefined;
  /** Told when a partner starts and ends (progress on long runs). */
  progress?: (line: string) => void;
  interruptedBy?: () => string | undefined;
}

export async function runRegress(
  partners: PartnerCassette[],
  target: ReplayTarget,
  o: RegressRunOptions,
): Promise<RegressReport> {
  const startedAt = new Date();
  const t0 = performance.now();
  const done: PartnerReport[] = [];
  for (const [i, p] of partners.entries()) {
    if (target.stopped()) break;
    // A partner's name and file are the partner's to choose: each shown on its one line.
    o.progress?.(`[${i + 1}/${partners.length}] ${oneLine(p.partner)} (${oneLine(p.file)})`);
    const r = await new PartnerReplay(p, target).run();
    o.progress?.(
      `[${i + 1}/${partners.length}] ${oneLine(p.partner)}: ${r.verdict} (${r.exchanges} exchange(s), ${r.replayed} replayed, ${r.blocked} blocked, ${r.notReplayed.count} not replayed)`,
    );
    done.push(r);
  }
  const interrupted = o.interruptedBy?.();
  return {
    tool: 'flis regress',
    runId: target.runId,
    target: {
      deployment: o.deployment,
      baseUrl: target.publicBaseUrl,
      writes: target.writes,
      writesSkippedReason: target.writes ? undefined : target.writesSkippedReason,
    },
    shard: o.shard || undefined,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - t0),
    partners: done,
    totals: totalsOf(done),
    interrupted: interrupted || undefined,
  };
}
