/**
 * Where observed traffic comes from: the per-worker summaries a run leaves in
 * reports/observations/, and cassettes recorded by `flis record` (a partner's
 * client traffic) or `flis webhooks listen` (webhook deliveries).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { forEachCassetteExchange, jsonValueOf } from './cassettes.ts';
import { emptyObservations, mergeObservations, observe, type Observations } from '../core/observations.ts';

export function readObservationsDir(dir: string): Observations {
  if (!existsSync(dir)) return emptyObservations();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  return mergeObservations(files.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Observations));
}

export function observationsFromCassette(file: string): Observations {
  const obs = emptyObservations();
  obs.sources.push(`cassette ${file}`);
  forEachCassetteExchange(file, (x) => {
    if (!x.operationId || x.failure) return;
    const requestBody = jsonValueOf(x.request.body);
    const responseBody = jsonValueOf(x.response.body);
    observe(obs, {
      operationId: x.operationId,
      status: x.response.status,
      ...(requestBody !== undefined ? { requestBody } : {}),
      ...(responseBody !== undefined ? { responseBody } : {}),
    });
  });
  return obs;
}
