/**
 * Free text for the string fields of spec 2.1 and 2.3: empty, plain ASCII,
 * any printable Unicode grapheme (astral planes, combining marks, RTL scripts,
 * emoji sequences) and long strings (up to twice `maxLength`). Whole graphemes only: a lone surrogate is
 * not text a client sends, and a server may legitimately refuse it.
 */
import fc from 'fast-check';

const tricky = fc.constantFrom(
  '',
  ' ',
  'Zürich',
  'Łódź',
  'São Paulo',
  '東京都',
  'القاهرة',
  'תל אביב',
  '👩‍👩‍👧 🚚',
  'e\u0301',
  'O\'Brien "quoted" \\ back/slash',
  '<tag>&amp;</tag>',
  'line\nbreak\ttab',
);

export function unicodeTextArb(maxLength = 64): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength }) },
    { weight: 1, arbitrary: tricky },
    // Long, but no more than twice the usual: field length limits are not shown (spec 8), and a server may have them.
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: maxLength, maxLength: maxLength * 2 }) },
  );
}
