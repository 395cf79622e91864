/**
 * `flis can-i-release NAME --registry URL [--to DEPLOYMENT]`: the release gate. Exit 0 when every active partner's
 * latest cassette (those live on DEPLOYMENT, with --to) was replayed against NAME without breaking; else exit 1, one
 * line per partner that blocks it and why (registry/gate.ts).
 */
import type { GateAnswer } from '../../registry/gate.ts';
import { UsageError } from '../../errors/flis-error.ts';
import { flagOrEnvValue, parseCommandArgs } from '../args.ts';
import { EXIT, type Command, type CommandIo } from '../command.ts';
import { deploymentName, REGISTRY_HELP, registryClient } from '../registry-options.ts';

const help = `Usage: flis can-i-release NAME --registry URL [--to DEPLOYMENT]

May release candidate NAME ship? Yes (exit 0) when every active partner's latest cassette was
replayed against NAME ('flis regress --registry URL --candidate NAME') and none is broken. Otherwise
exit 1, with one line per partner that blocks it and why: broken (with the replay's report), never
replayed against NAME, or a newer cassette published since the last replay. A partner that has
published no cassette has nothing to replay and blocks nothing; it is named.

${REGISTRY_HELP}
  --to DEPLOYMENT          ask only about the partners live on that deployment
                           ('flis registry partner set NAME --deployments …')        [env FLIS_RELEASE_TO]

The token must be the admin's. Exit codes: 0 it may ship, 1 a partner blocks it, 2 usage error.`;

const options = { registry: { type: 'string' }, to: { type: 'string' } } as const;

export function gateLines(a: GateAnswer, registry: string): string[] {
  const out: string[] = [];
  if (a.to)
    out.push(
      `${a.to} runs ${a.runningOn ? `${a.runningOn.release} (recorded ${a.runningOn.recordedAt})` : 'no recorded release'}`,
    );
  for (const p of a.partners)
    out.push(
      `${p.blocks ? 'BLOCKED' : 'ok     '} ${p.partner}: ${p.reason}${p.replay && p.blocks ? `; ${registry}/reports/replays/${p.replay}` : ''}`,
    );
  for (const w of a.waiting) out.push(`waiting ${w}: no cassette published, nothing to replay`);
  const blocking = a.partners.filter((p) => p.blocks).length;
  const scope = `${a.partners.length} partner(s)${a.to ? ` live on ${a.to}` : ''}`;
  out.push(
    a.ok
      ? `flis can-i-release ${a.release}: yes — ${scope} unbroken${a.partners.length ? '' : ` (no active partner${a.to ? ` live on ${a.to}` : ''} has a cassette: nothing can block it)`}; exit 0`
      : `flis can-i-release ${a.release}: no — ${blocking} of ${scope} block it; exit 1`,
  );
  return out;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values: v, positionals } = parseCommandArgs('can-i-release', argv, options, true);
  if (v.help) {
    io.out(help);
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      `the release candidate's name is required: flis can-i-release NAME; got ${positionals.length} argument(s)`,
    );
  const to = flagOrEnvValue('to', v.to, io.env, 'FLIS_RELEASE_TO').raw;
  const client = registryClient(v.registry, io.env, 'can-i-release');
  const release = positionals[0]!;
  const query = to ? `?to=${encodeURIComponent(deploymentName('--to', to))}` : '';
  const answer = (
    await client.call('GET', `/api/releases/${encodeURIComponent(release)}/can-i-release${query}`)
  ).json<GateAnswer>();
  for (const line of gateLines(answer, client.url)) io.out(line);
  return answer.ok ? EXIT.ok : EXIT.checkFailed;
}

export const canIReleaseCommand: Command = {
  name: 'can-i-release',
  help,
  run,
};
