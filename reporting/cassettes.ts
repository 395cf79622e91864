/**
 * Cassettes as the reports read them: exchanges with their operation (matched
 * again from method and path, so an old cassette is judged by today's
 * contract), and JSON bodies as values. A torn last exchange (a recorder that
 * died mid-write) is dropped, as `flis cassette lint` reports it.
 */
import { jsonValue } from '../recorder/body.ts';
import type { LocatedExchange, StoredBody } from '../recorder/cassette-format.ts';
import { fileParts, parseExchange, walkCassette } from '../recorder/cassette-reader.ts';
import { matchOperation } from '../specs/contract.ts';

export interface ReadCassette {
  file: string;
  exchanges: LocatedExchange[];
}

/**
 * Hands each exchange to `visit` in file order, read document by document and
 * none kept, so a partner's cassette of any size is judged in bounded memory.
 */
export function forEachCassetteExchange(file: string, visit: (x: LocatedExchange) => void): number {
  return walkCassette(file, fileParts(file), { allowTorn: true }, (doc) =>
    visit(withOperation(parseExchange(file, doc))),
  ).exchanges;
}

/** The whole cassette in memory: for small ones (tests, a webhook receiver's). */
export function readCassetteFile(file: string): ReadCassette {
  const exchanges: LocatedExchange[] = [];
  forEachCassetteExchange(file, (x) => exchanges.push(x));
  return { file, exchanges };
}

/** Webhook deliveries carry their webhook's operationId; API exchanges are matched to the contract. */
function withOperation(x: LocatedExchange): LocatedExchange {
  if (x.operationId?.startsWith('webhook')) return x;
  return { ...x, operationId: matchOperation(x.request.method, x.request.path)?.operationId ?? null };
}

export function jsonValueOf(body: StoredBody | null): unknown {
  const v = jsonValue(body);
  return v.ok ? v.value : undefined;
}
