/**
 * Identifier generation. The spec only says identifiers are strings (spec 2),
 * so the id shape is a variant: a client that parses ids would break on one of them.
 */
import { randomUUID } from 'node:crypto';
import type { MockVariant } from './variant.ts';

export interface IdFactory {
  /** A fresh id; `kind` names the resource, used by the prefixed and reserved formats only. */
  next(kind: string): string;
}

export function idFactory(format: MockVariant['idFormat']): IdFactory {
  // One counter across kinds so numeric ids are unique across resources too.
  let seq = 100000;
  const formats: Record<MockVariant['idFormat'], (kind: string) => string> = {
    prefixed: (kind) => `${kind}-${++seq}`,
    numeric: () => String(++seq),
    uuid: () => randomUUID(),
    // Every character a URL path segment or query value must have percent-encoded, a non-ASCII letter among them: a
    // client that puts an id into a URL unencoded, or decodes it twice, sends another id. No `.`: a dot segment
    // would be one only before encoding.
    reserved: (kind) => `${kind} ${++seq}+ä&x=%/#?:`,
  };
  const make = formats[format];
  return { next: (kind) => make(kind) };
}
