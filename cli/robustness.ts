/**
 * `flis certify --client-command CMD`: the partner's own client command, run
 * once against each conformant variant of the embedded mock (mock/variant.ts,
 * as `flis mock --help` lists them), the plain one first, each run through the
 * recorder into DIR/robustness/<variant>.yaml with FLIS_BASE_URL and
 * FLIS_TOKEN in its environment. reporting/robustness.ts reads the cassettes.
 * The mock and the recorder live on loopback in this process; the command's
 * output goes to DIR/robustness/<variant>.log.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startMock } from '../mock/server.ts';
import { type MockVariant, variantPresetNames, variantPresets } from '../mock/variant.ts';
import { startRecorder } from '../recorder/proxy.ts';
import {
  gaveUpLines,
  type RobustnessRow,
  robustnessRow,
  type TrafficFacts,
  trafficFacts,
} from '../reporting/robustness.ts';
import { mintToken } from '../runner/start-target.ts';

export const ROBUSTNESS_DIR = 'robustness';
/** The longest one run of the command may take; past it the command is stopped and the variant fails. */
export const CLIENT_COMMAND_TIMEOUT_MS = 120_000;

export interface RobustnessOptions {
  command: string;
  reportDir: string;
  env: NodeJS.ProcessEnv;
  /** Said as each variant starts and ends. */
  progress?: (line: string) => void;
  timeoutMs?: number;
  /** Settings laid over a preset (default ROBUSTNESS_OVERRIDES). */
  variantOverrides?: Partial<Record<string, Partial<MockVariant>>>;
}

/**
 * The throttled variant's quota is 20 requests here, not the preset's 100: a client's burst of more than 20 meets 429s
 * however slowly a loaded machine sends it (the quota comes back whole a second after it is spent, never trickling
 * back: mock/throttle.ts), so whether a client copes with throttling never depends on the machine's speed. A client
 * that sends too little to be throttled is told so in its row.
 */
export const ROBUSTNESS_OVERRIDES: Partial<Record<string, Partial<MockVariant>>> = {
  throttled: { throttle: { perSecond: 20, burst: 20 } },
};

async function runCommand(
  command: string,
  env: NodeJS.ProcessEnv,
  log: string,
  timeoutMs: number,
): Promise<number | null> {
  const out = createWriteStream(log);
  const child = spawn(command, { shell: true, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    // The whole process group: a shell's children too.
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  }, timeoutMs);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  out.end();
  await once(out, 'close');
  return timedOut ? null : code;
}

async function oneVariant(
  variant: string,
  o: RobustnessOptions,
  dir: string,
): Promise<{ exitCode: number | null; facts: TrafficFacts; output: string; token: string }> {
  const token = mintToken();
  const mock = await startMock({
    token,
    port: 0,
    variant: {
      ...variantPresets[variant as keyof typeof variantPresets],
      ...(o.variantOverrides ?? ROBUSTNESS_OVERRIDES)[variant],
    },
  });
  const cassette = join(dir, `${variant}.yaml`);
  rmSync(cassette, { force: true });
  const recorder = await startRecorder({
    mode: 'record',
    cassette,
    upstream: { baseUrl: mock.baseUrl, deployment: `embedded (${variant})` },
    secrets: [{ label: 'the embedded mock token', value: token }],
    env: {},
    labels: { variant },
  });
  let closed = false;
  try {
    const env = { ...o.env, FLIS_BASE_URL: recorder.baseUrl, FLIS_TOKEN: token };
    const exitCode = await runCommand(
      o.command,
      env,
      join(dir, `${variant}.log`),
      o.timeoutMs ?? CLIENT_COMMAND_TIMEOUT_MS,
    );
    // Closing writes what is still queued: the cassette is whole before it is read.
    await recorder.close();
    closed = true;
    return {
      exitCode,
      facts: trafficFacts(cassette),
      output: readFileSync(join(dir, `${variant}.log`), 'utf8'),
      token,
    };
  } finally {
    if (!closed) await recorder.close();
    await mock.close();
  }
}

/** One row per variant, the plain mock first: the others are compared with it. */
export async function runRobustness(o: RobustnessOptions): Promise<RobustnessRow[]> {
  const dir = join(o.reportDir, ROBUSTNESS_DIR);
  mkdirSync(dir, { recursive: true });
  const names = ['default', ...variantPresetNames.filter((n) => n !== 'default')];
  const rows: RobustnessRow[] = [];
  let plain: TrafficFacts | undefined;
  for (const variant of names) {
    o.progress?.(`robustness: running the client command against the '${variant}' mock`);
    const { exitCode, facts, output, token } = await oneVariant(variant, o, dir);
    if (variant === 'default') plain = facts;
    const row = robustnessRow(variant, exitCode, facts, variant === 'default' ? undefined : plain, {
      output,
      secrets: [token],
    });
    o.progress?.(`robustness: ${variant}: ${row.verdict}`);
    for (const line of row.gaveUp ? gaveUpLines(row.gaveUp) : []) o.progress?.(`  ${line}`);
    rows.push(row);
  }
  return rows;
}
