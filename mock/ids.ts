/**
 * Identifier generation. The spec only says identifiers are strings (spec 2),
 * so the id shape is a variant: a client that parses ids would break on one of them.
 */
import { randomUUID } from 'node:crypto';
import type { MockVariant } from './variant.ts';

export interface IdFactory {
  /** A fresh id; `kind` names the resource, used by the prefixed format only. */
  next(kind: string): string;
}

export function idFactory(format: MockVariant['idFormat']): IdFactory {
  // One counter across kinds so numeric ids are unique across resources too.
  let seq = 100000;
  const formats: Record<MockVariant['idFormat'], (kind: string) => string> = {
    prefixed: (kind) => `${kind}-${++seq}`,
    numeric: () => String(++seq),
    uuid: () => randomUUID(),
  };
  const make = formats[format];
  return { next: (kind) => make(kind) };
}
