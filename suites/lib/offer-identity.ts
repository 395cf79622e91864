/**
 * Which offer a GET /offers/{offerId} answered (spec 4.1: an array of Offer). A server may show its own id format
 * inside the offer, so an element whose id is not the one asked for proves a wrong record only where the server itself
 * lists both ids as offers: then the GET answered another record it holds, record-identity's rule (a GET by id
 * answers the record with that id). The flows ask this before they judge such an answer; record-identity asks it of
 * the offers the list shows.
 */
import { operationById } from '../../specs/contract.ts';
import type { FlisClient } from '../../core/client.ts';
import type { Exchange } from '../../core/exchange.ts';
import { WHOLE_OFFER_WINDOW } from '../../core/whole-list.ts';

type Json = Record<string, unknown>;

function offersIn(body: unknown): Json[] {
  return Array.isArray(body) ? body.filter((o): o is Json => typeof o === 'object' && o !== null) : [];
}

/** The ids a 2xx GET /offers/{id} answered when none of its offers carries `id` (empty: the answer names it, or none). */
export function otherOfferIds(x: Exchange, id: string): string[] {
  if (x.response.status < 200 || x.response.status > 299) return [];
  const offers = offersIn(x.response.body);
  if (offers.some((o) => o.id === id)) return [];
  return offers.map((o) => o.id).filter((v): v is string => typeof v === 'string');
}

/** The ids GET /offers lists over the whole window (the list the contract suite finds offers in too). */
export async function listedOfferIds(api: FlisClient): Promise<{ ids: Set<string>; exchange: Exchange }> {
  const exchange = await api.op(operationById('listOffers'), { query: WHOLE_OFFER_WINDOW });
  const ok = exchange.response.status >= 200 && exchange.response.status <= 299;
  const ids = ok ? offersIn(exchange.response.body).map((o) => o.id) : [];
  return { ids: new Set(ids.filter((v): v is string => typeof v === 'string')), exchange };
}

/**
 * Whether the GET of `id` answered another listed offer: the list shows `id` and the `answered` id both, so the answer
 * is another record of the server, not this one under an id format of its own.
 */
export async function answeredListedOther(api: FlisClient, id: string, answered: string): Promise<boolean> {
  if (answered === id) return false;
  const { ids } = await listedOfferIds(api);
  return ids.has(id) && ids.has(answered);
}
