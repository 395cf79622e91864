/**
 * One Playwright worker's view of the traffic it sent: each test's exchanges
 * are summarised (observations.ts) and, when the worker ends, written as one
 * JSON file to FLIS_OBSERVATIONS_DIR, where the drift report reads them. The
 * summary holds shapes, counts and clipped scalar examples; examples pass
 * through redaction like everything else the suites write.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { matchOperation } from '../specs/contract.ts';
import type { Exchange } from './exchange.ts';
import { emptyObservations, observe, type Observations } from './observations.ts';
import { redactText, secretsWithDerived } from './redact.ts';
import type { Target } from './target.ts';

/** The operationId of an exchange: set by FlisClient.op, else matched from the path under the base URL. */
export function operationIdOf(x: Exchange, baseUrl: string): string | undefined {
  if (x.operationId) return x.operationId;
  const base = new URL(baseUrl).pathname.replace(/\/$/, '');
  const path = new URL(x.request.url).pathname;
  return path.startsWith(base) ? matchOperation(x.request.method, path.slice(base.length))?.operationId : undefined;
}

function parsed(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export class Observer {
  private readonly obs: Observations = emptyObservations();

  constructor(private readonly target: Target) {
    this.obs.sources.push(`run ${target.runId}`);
  }

  /** Exchanges whose path is no operation of the contract (probes of unknown routes) are left out. */
  add(exchanges: readonly Exchange[]): void {
    for (const x of exchanges) {
      const operationId = operationIdOf(x, this.target.baseUrl);
      if (!operationId) continue;
      const responseBody = typeof x.response.body === 'string' ? undefined : x.response.body;
      observe(this.obs, {
        operationId,
        status: x.response.status,
        requestBody: parsed(x.request.body),
        ...(responseBody !== undefined ? { responseBody } : {}),
      });
    }
  }

  /** Writes the summary if the runner asked for one; never throws (a report must not fail a test). */
  flush(dir: string | undefined): void {
    if (!dir || Object.keys(this.obs.operations).length === 0) return;
    try {
      mkdirSync(dir, { recursive: true });
      const text = redactText(JSON.stringify(this.obs), secretsWithDerived([this.target.token]));
      writeFileSync(join(dir, `worker-${process.pid}-${randomBytes(4).toString('hex')}.json`), text);
    } catch (error) {
      console.warn(
        `flis: could not write traffic observations to ${dir}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
