/**
 * `flis can-i-release NAME [--to DEPLOYMENT]`: may this release candidate ship? Every active partner (on that
 * deployment, with --to) that has published a cassette must have its latest cassette replayed against NAME with a
 * verdict other than broken. A partner never replayed against NAME blocks it, and so does one whose latest cassette
 * came after the last replay: the candidate was never tried on the traffic the partner sends now.
 */
import type { Store } from './store.ts';

export interface GateLine {
  partner: string;
  blocks: boolean;
  /** One line: why it blocks, or its verdict. */
  reason: string;
  /** The replay the line is about, for a link to its report. */
  replay?: number | undefined;
}

export interface GateAnswer {
  release: string;
  to?: string | undefined;
  /** What the deployment runs now, by record-release. */
  runningOn?: { release: string; recordedAt: string } | undefined;
  partners: GateLine[];
  /** Active partners with no cassette published: nothing to replay, so nothing of theirs can block. */
  waiting: string[];
  ok: boolean;
}

function day(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

export async function canIRelease(store: Store, release: string, to?: string): Promise<GateAnswer> {
  const partners = (await store.partners()).filter((p) => p.active && (!to || p.deployments.includes(to)));
  const cassettes = new Map((await store.latestCassettes()).map((c) => [c.partner, c]));
  const replays = new Map((await store.latestReplays(release)).map((r) => [r.partner, r]));
  const lines: GateLine[] = [];
  const waiting: string[] = [];
  for (const p of partners) {
    const latest = cassettes.get(p.name);
    if (!latest) {
      waiting.push(p.name);
      continue;
    }
    const r = replays.get(p.name);
    if (!r)
      lines.push({
        partner: p.name,
        blocks: true,
        reason: `never replayed against ${release} (its latest cassette: publication ${latest.id} of ${day(latest.createdAt)})`,
      });
    else if (r.publication < latest.id)
      lines.push({
        partner: p.name,
        blocks: true,
        reason: `its latest cassette (publication ${latest.id} of ${day(latest.createdAt)}) was never replayed against ${release}; the last replay (run ${r.runId}) replayed publication ${r.publication}`,
        replay: r.id,
      });
    else if (r.verdict === 'broken')
      lines.push({ partner: p.name, blocks: true, reason: `broken by ${release}: ${r.summary}`, replay: r.id });
    else
      lines.push({
        partner: p.name,
        blocks: false,
        reason: `${r.verdict === 'changed' ? 'changed within the contract' : 'unchanged'} (run ${r.runId} of ${day(r.createdAt)})`,
        replay: r.id,
      });
  }
  const running = to ? await store.runningOn(to) : undefined;
  return {
    release,
    to,
    runningOn: running ? { release: running.release, recordedAt: day(running.recordedAt) } : undefined,
    partners: lines,
    waiting,
    ok: lines.every((l) => !l.blocks),
  };
}
