/**
 * A JSON list read item by item from the bytes it is written in, for the lint
 * of a cassette document too large to hold parsed: a 100 MB list of offers is
 * ~250 MB of objects, while one offer at a time is a few kB. The items are
 * parsed by @streamparser/json, which takes the text in pieces and hands back
 * each element of the top-level list as it closes (JSON.parse's values:
 * numbers by Number(), `__proto__` kept as data).
 */
import { JSONParser } from '@streamparser/json';
import { ITEM_STREAM, type ItemStream } from '../schemas/registry.ts';

/** The text is not one JSON list (broken, or more after it): the caller reads the document whole, as before. */
export class NotAStreamableList extends Error {}

/** Bytes handed to the parser at a time: the items it finishes in them are all that is held. */
const PIECE = 64 * 1024;

export class StreamedJsonList implements ItemStream {
  readonly [ITEM_STREAM] = true as const;

  /** `pieces`: the list's JSON text in order, from its `[` to its `]`. */
  constructor(private readonly pieces: readonly Buffer[]) {}

  *items(): Generator<unknown, void, void> {
    const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
    const ready: unknown[] = [];
    parser.onValue = ({ value }) => {
      ready.push(value);
    };
    for (const piece of this.pieces) {
      for (let at = 0; at < piece.length; at += PIECE) {
        try {
          parser.write(piece.subarray(at, at + PIECE));
        } catch (e) {
          throw new NotAStreamableList(`not one JSON list: ${(e as Error).message}`);
        }
        for (const value of ready) yield value;
        ready.length = 0;
      }
    }
    if (!parser.isEnded) throw new NotAStreamableList('not one JSON list: the text ends inside it');
  }

  whole(): unknown {
    try {
      return JSON.parse(Buffer.concat(this.pieces).toString('utf8'));
    } catch (e) {
      throw new NotAStreamableList(`not JSON: ${(e as Error).message}`);
    }
  }
}
