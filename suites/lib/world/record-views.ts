/**
 * The views of one section 4.3 record, read as the model compares them: its GET by id and the list of its
 * collection. Bodies are not shown (spec 4.3), so a view says only whether it shows the record, the record's text
 * (to find markers in), and whether it says the record was deleted. A list is whole (it must show every record of its
 * parent) only when nothing says it was cut (docs/verdicts.md, "Lists that are whole").
 */
import { type Exchange, is2xx } from '../exchange.ts';
import { recordsOf } from '../listed-records.ts';
import { goneBy } from './gone.ts';
import type { RecordBook, ViewKind } from './record-book.ts';

type Json = Record<string, unknown>;

export interface ViewReading {
  view: ViewKind;
  /** How a message names it, e.g. `GET /orders/x`. */
  name: string;
  x: Exchange;
  /** The view shows the record: a 2xx by id; an element of the list that names it. */
  shown: boolean;
  /** For a list: it holds every record of its parent (nothing says it was cut). A GET by id is always judged. */
  whole: boolean;
  /** The record as the view shows it, as JSON text ('' when not shown). */
  text: string;
  /** The fields by which it says it was deleted or cancelled (suites/lib/world/gone.ts). */
  goneBy: string[];
}

/**
 * Fewer elements than this, with no sign of paging, is taken as a whole list: spec 8 leaves the page size open, and no
 * page size a server would choose is below it.
 */
export const WHOLE_LIST_BELOW = 10;

/** Keys of a list's wrapper that say there may be more than it shows. */
const PAGING_KEY =
  /^(next|nextPage|nextPageToken|nextCursor|cursor|page|pageNumber|pageSize|offset|total|totalCount|totalElements|totalPages|hasMore|hasNext|more|limit|links|_links)$/i;

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * What a record says of its deletion, at its top level or in an object it wraps (`{"data": {...}}`, beside fields a
 * server adds): a wrapper is the server's choice (spec 4.3 shows no bodies). Arrays are left out: they hold other
 * records (a booking's events), whose cancellation is theirs.
 */
function goneSigns(record: unknown): string[] {
  if (!isRecord(record)) return [];
  const inner = Object.values(record).filter(isRecord);
  return [...new Set([...goneBy(record), ...inner.flatMap((o) => goneBy(o))])];
}

export function pagingSign(x: Exchange): string | undefined {
  const link = x.response.headers.link;
  if (link && /rel="?next"?/i.test(link)) return 'a Link header with rel=next';
  const body = x.response.body;
  if (!isRecord(body)) return undefined;
  const key = Object.keys(body).find((k) => PAGING_KEY.test(k));
  return key ? `the wrapper's "${key}"` : undefined;
}

export function readingById(x: Exchange, name: string): ViewReading {
  const shown = is2xx(x);
  return {
    view: 'by id',
    name,
    x,
    shown,
    whole: true,
    text: shown ? x.response.text : '',
    goneBy: shown ? goneSigns(x.response.body) : [],
  };
}

/** The element of a list that is the record: one that carries its id as a value, or one of its markers. */
export function elementFor(elements: readonly Json[], id: string, markers: readonly string[]): Json | undefined {
  const mine = elements.filter((e) => {
    if (Object.values(e).some((v) => v === id)) return true;
    const text = JSON.stringify(e);
    return markers.some((m) => text.includes(m));
  });
  const latest = markers.at(-1);
  return mine.find((e) => latest !== undefined && JSON.stringify(e).includes(latest)) ?? mine[0];
}

export function readingInList(
  x: Exchange,
  name: string,
  book: RecordBook,
  listPath: string,
  id: string,
  markers: readonly string[],
): ViewReading {
  if (!is2xx(x)) return { view: 'collection', name, x, shown: false, whole: false, text: '', goneBy: [] };
  const elements = recordsOf(x.response.body);
  const longest = book.noteLength(listPath, elements.length);
  const whole = pagingSign(x) === undefined && (elements.length < WHOLE_LIST_BELOW || elements.length < longest);
  const element = elementFor(elements, id, markers);
  return {
    view: 'collection',
    name,
    x,
    shown: element !== undefined,
    whole,
    text: element ? JSON.stringify(element) : '',
    goneBy: goneSigns(element),
  };
}
