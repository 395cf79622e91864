/**
 * recorder/canonical-json.ts: the cheap proof that a JSON text is what
 * JSON.stringify makes of its value is never wrong (a text it proves is the
 * serialisation, byte for byte), and it does prove the common case, so the
 * fallback (serialising) is the exception.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isCanonicalJson, provenCanonical } from '../../recorder/canonical-json.ts';

/** Texts that parse to the same kind of values as a serialisation but are spelt otherwise. */
const variants = (text: string): string[] => [
  text,
  text.replace(/,/g, ', '),
  text.replace(/:/g, ' :'),
  text.replace(/\//g, '\\/'),
  text.replace(/(\d)(?=[,\]}])/g, '$1.0'),
  text.replace(/(\d)(?=[,\]}])/g, '$1e0'),
  text.replace(/(\.\d*[1-9])(?=[,\]}])/g, '$10'),
  text.replace(/\[0/g, '[-0'),
  text.replace(/"a"/g, '"\\u0061"'),
  text.replace(/\{"/, '{"k":1,"'),
  text.replace(/\{"(\w+)":/, '{"$1":0,"$1":'),
  text.replace(/\{"/, '{"7":1,"'),
  `\n${text}`,
];

const parsed = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
};

describe('provenCanonical', () => {
  it('proves a text only when it is the serialisation of its value', () => {
    const value = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(value, (v) => {
        for (const text of variants(JSON.stringify(v))) {
          const p = parsed(text);
          if (!p.ok) continue;
          const bytes = Buffer.from(text, 'utf8');
          const ascii = bytes.length === text.length ? bytes : undefined;
          for (const b of [undefined, ascii]) {
            if (provenCanonical(text, p.value, b)) assert.equal(JSON.stringify(p.value), text);
            assert.equal(isCanonicalJson(text, p.value, b), JSON.stringify(p.value) === text);
          }
        }
      }),
      { numRuns: 400, seed: 15 },
    );
  });

  it('refuses the spellings JSON.stringify does not write', () => {
    for (const text of [
      '{"a": 1}',
      '{"a":1.0}',
      '{"a":1e3}',
      '{"a":-0}',
      '{"a":0.10}',
      '{"a":1234567890123456}',
      '{"a":0.0000001}',
      '{"a":"\\/"}',
      '{"a":"\\u0041"}',
      '{"a":"\\u001F"}',
      '{"a":1,"a":2}',
      '{"b":1,"1":2}',
      '{"a":[1,2] ,"b":{}}',
      '[{},[],{"a":"b"}]\n',
      '{"a":{"b":1,"b":1},"c":"d:e"}',
      '{"a":"x","b":01}'.replace('01', '1.50'),
    ]) {
      const v = JSON.parse(text) as unknown;
      assert.equal(provenCanonical(text, v), false, text);
      assert.equal(isCanonicalJson(text, v), JSON.stringify(v) === text, text);
      // The same through the ASCII bytes (the simpler pattern when the text holds no backslash).
      assert.equal(provenCanonical(text, v, Buffer.from(text)), false, text);
    }
  });

  it('proves the usual shapes of an answer', () => {
    for (const v of [
      [{ id: 'offer-1', n: 12, price: 41.6, lat: -2.3177, tiny: 0.000001, ok: true, none: null, list: [] }],
      // (A quote inside a string is left to the fallback: it makes a key's end ambiguous.)
      { text: 'line\nbreak\ttab \\ back \u0001 é ✓ 😀 a:b', nested: { deep: [1, [2, [3]]] } },
      { empty: {}, list: [[], {}, [{}]], time: '10:00:00', del: '\u007f', last: [] },
    ]) {
      const text = JSON.stringify(v);
      assert.equal(provenCanonical(text, v), true, text);
      const bytes = Buffer.from(text);
      if (bytes.length === text.length) assert.equal(provenCanonical(text, v, bytes), true, text);
    }
  });
});
