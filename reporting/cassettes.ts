/**
 * Cassettes as the reports read them: exchanges with their operation (matched
 * again from method and path, so an old cassette is judged by today's
 * contract), and JSON bodies as values. A torn last exchange (a recorder that
 * died mid-write) is dropped, as `flis cassette lint` reports it.
 */
import { jsonValue } from '../recorder/body.ts';
import type { LocatedExchange, StoredBody } from '../recorder/cassette-format.ts';
import { readCassette } from '../recorder/cassette-reader.ts';
import { matchOperation } from '../specs/contract.ts';

export interface ReadCassette {
  file: string;
  exchanges: LocatedExchange[];
}

export function readCassetteFile(file: string): ReadCassette {
  const c = readCassette(file, { allowTorn: true });
  // Webhook deliveries carry their webhook's operationId; API exchanges are matched to the contract.
  const exchanges = c.exchanges.map((x) =>
    x.operationId?.startsWith('webhook')
      ? x
      : { ...x, operationId: matchOperation(x.request.method, x.request.path)?.operationId ?? null },
  );
  return { file, exchanges };
}

export function jsonValueOf(body: StoredBody | null): unknown {
  const v = jsonValue(body);
  return v.ok ? v.value : undefined;
}
