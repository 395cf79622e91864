/**
 * The cassette emitter writes YAML that the `yaml` package reads back as the
 * very same value, for any JSON value (a property test), and it is readable:
 * plain scalars where safe, literal blocks for multi-line text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parse } from 'yaml';
import type { Exchange, UpstreamFailure } from '../../recorder/cassette-format.ts';
import { documentText, exchangeDocument, exchangeDocumentPieces } from '../../recorder/cassette-yaml.ts';
import { emitYaml, emitYamlPieces, FlowJson } from '../../recorder/yaml-emit.ts';
import { readFastYaml } from '../../recorder/yaml-read-fast.ts';

const tricky = fc.constantFrom(
  '',
  ' ',
  'null',
  'Null',
  '~',
  'true',
  'no',
  'on',
  'y',
  '1',
  '-1',
  '0x1F',
  '1e3',
  '.5',
  '.inf',
  '.NaN',
  '1:20',
  '2024-01-01',
  '2026-11-24T09:28:15.420Z',
  '2026-11-24T09:28:15.420Z ',
  '- a',
  'a: b',
  'a:b',
  'a #b',
  '#x',
  '[a]',
  '{a}',
  '&a',
  '*a',
  '!t',
  '|',
  '>',
  '%x',
  '@x',
  '`x`',
  "'q'",
  '"q"',
  '---',
  '...',
  '\n',
  '\n\n',
  'a\n',
  'a\n\n',
  '\na',
  ' a\nb',
  'a\nb',
  'a \nb ',
  '\ta\n\tb',
  'a\r\nb',
  '\u0085',
  '\ufeff',
  '\u2028x',
  'é\nü',
  'x'.repeat(1200),
  `${'k'.repeat(1100)}`,
  'Bearer [REDACTED]',
  'http://127.0.0.1:1/apis/v0',
  '<<',
);
const str = fc.oneof(fc.string({ unit: 'binary' }), fc.string(), tricky);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    str,
    tie('arr'),
    tie('obj'),
  ),
  arr: fc.array(tie('value'), { maxLength: 4 }),
  obj: fc.dictionary(str, tie('value'), { maxKeys: 4 }),
})).value;

describe('YAML emitter', () => {
  it('round-trips every JSON value through the yaml reader', () => {
    fc.assert(
      fc.property(fc.dictionary(str, json, { maxKeys: 5 }), (value) => {
        const expected = JSON.parse(JSON.stringify(value)) as unknown;
        assert.deepEqual(parse(emitYaml(value), { uniqueKeys: false }), expected);
      }),
      { numRuns: 600 },
    );
  });

  it('a JSON text written as flow (a body) reads back as its value with yaml and with the fast reader', () => {
    let fastReads = 0;
    fc.assert(
      fc.property(
        fc.oneof(fc.array(json, { minLength: 1, maxLength: 4 }), fc.dictionary(str, json, { minKeys: 1, maxKeys: 4 })),
        (value) => {
          const expected = JSON.parse(JSON.stringify(value)) as unknown;
          const text = documentText({ seq: 1, body: new FlowJson(JSON.stringify(value)), bodyEncoding: 'json' });
          assert.equal(text.split('\n').length, 6, 'one line for the body');
          assert.deepEqual(parse(text, { uniqueKeys: false }).body, expected);
          const fast = readFastYaml(text) as { body: unknown } | undefined;
          // A '#' after a space, a tab or a CR sends the whole document to `yaml`; everything else is read fast.
          if (fast === undefined) return;
          fastReads += 1;
          assert.deepEqual(fast.body, expected);
        },
      ),
      { numRuns: 400 },
    );
    assert.ok(fastReads > 200, `the fast reader took only ${fastReads} of 400 flow bodies`);
  });

  it('emits in pieces the same text as whole, with each flow body a piece of its own', () => {
    fc.assert(
      fc.property(fc.dictionary(str, json, { maxKeys: 4 }), fc.array(json, { maxLength: 3 }), (value, bodies) => {
        const flows = bodies.map((b) => new FlowJson(JSON.stringify(b) ?? 'null'));
        const doc = { ...value, request: { body: flows[0] ?? null }, response: { list: flows.slice(1) } };
        const pieces = emitYamlPieces(doc);
        assert.equal(pieces.map((p) => (typeof p === 'string' ? p : p.text)).join(''), emitYaml(doc));
        assert.deepEqual(
          pieces.filter((p) => p instanceof FlowJson),
          flows,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips the tricky strings as keys, values and list items', () => {
    const samples = ['', ' ', 'null', '- a', 'a: b', '\n', 'a\n\n', ' a\nb', '\u0085', 'x'.repeat(1200), '\na', 'é\nü'];
    for (const s of samples) {
      const value = { [s]: s, list: [s, [s], { [s]: [s] }], nested: { deeper: s } };
      assert.deepEqual(parse(emitYaml(value)), value, JSON.stringify(s));
    }
  });

  it('writes plain scalars, block structure and literal blocks a person reads easily', () => {
    const text = emitYaml({
      method: 'GET',
      path: '/offers/o-1',
      query: { start: '2024-01-01T00:00:00Z' },
      count: 3,
      ok: true,
      none: null,
      list: [{ a: 1, b: [] }, 'x'],
      text: 'line 1\nline 2\n',
      auth: 'Bearer [REDACTED]',
      empty: {},
    });
    assert.equal(
      text,
      [
        'method: GET',
        'path: /offers/o-1',
        'query:',
        '  start: "2024-01-01T00:00:00Z"',
        'count: 3',
        'ok: true',
        'none: null',
        'list:',
        '  - a: 1',
        '    b: []',
        '  - x',
        'text: |',
        '  line 1',
        '  line 2',
        'auth: "Bearer [REDACTED]"',
        'empty: {}',
        '',
      ].join('\n'),
    );
  });

  it('the fast reader (recorder/yaml-read-fast.ts) reads what the emitter wrote as yaml does, or declines', () => {
    let declined = 0;
    fc.assert(
      fc.property(fc.dictionary(str, json, { maxKeys: 5 }), (value) => {
        const text = documentText(value);
        const fast = readFastYaml(text);
        if (fast === undefined) declined += 1;
        else assert.deepEqual(fast, parse(text, { uniqueKeys: false }));
      }),
      { numRuns: 600 },
    );
    // It declines only what it cannot be sure of (a '#', a tab, a CR): most documents take the fast path.
    assert.ok(declined < 300, `declined ${declined} of 600`);
  });

  it("the fast reader keeps a key named '__proto__' as data, as yaml does (seed -491703095 found it)", () => {
    const value = JSON.parse('{"__proto__": [], "a": {"__proto__": {"b": 1}}}') as Record<string, unknown>;
    const text = documentText(value);
    const fast = readFastYaml(text) as Record<string, unknown>;
    assert.deepEqual(fast, parse(text, { uniqueKeys: false }));
    assert.equal(Object.getPrototypeOf(fast), Object.prototype);
    assert.ok(Object.hasOwn(fast, '__proto__'));
  });

  it('the fast reader declines what the emitter never writes, leaving it to yaml', () => {
    for (const text of [
      '---\na: {b: 1}\n...\n',
      '---\na: [1, b]\n...\n',
      '---\na: {"b":1,}\n...\n',
      '---\na: 1 # note\n...\n',
      '---\na: &x 1\nb: *x\n...\n',
      "---\na: 'q'\n...\n",
      '---\na: 1\na: 2\n...\n',
      '---\na:\n- 1\n...\n',
      '---\na: yes\n...\n',
      '---\na: .inf\n...\n',
    ])
      assert.equal(readFastYaml(text), undefined, text);
  });
});

describe('exchangeDocumentPieces', () => {
  const text = fc.oneof(str, tricky);
  const strings = fc.dictionary(text, fc.oneof(text, fc.array(text, { maxLength: 2 })), { maxKeys: 3 });
  const storedBody = fc.oneof(
    fc.constant(null),
    fc.record({
      encoding: fc.constant('json' as const),
      value: fc.oneof(fc.array(json, { maxLength: 3 }), fc.dictionary(str, json, { maxKeys: 3 }), json),
      size: fc.nat(),
      truncated: fc.boolean(),
    }),
    fc.record({
      encoding: fc.constantFrom('text' as const, 'base64' as const),
      value: text,
      size: fc.nat(),
      truncated: fc.boolean(),
    }),
  );
  const timing = fc.record({ durationMs: fc.double(), firstByteMs: fc.double() });
  const violation = fc.record(
    {
      check: text,
      clause: text,
      operationId: fc.option(text),
      direction: fc.constantFrom('request' as const, 'response' as const),
      pointer: text,
      message: text,
    },
    { requiredKeys: ['check', 'clause', 'operationId', 'direction', 'message'] },
  );
  const exchange = fc.record({
    seq: fc.nat(),
    startedAt: fc.oneof(text, fc.constant('2026-11-24T07:00:00.000Z')),
    operationId: fc.option(text),
    request: fc.record({ method: text, path: text, query: strings, headers: strings, body: storedBody }),
    response: fc.record({ status: fc.integer(), headers: strings, body: storedBody, timing }),
    violations: fc.array(violation, { maxLength: 2 }),
  });

  it('writes, entry by entry, the text of the whole document', () => {
    fc.assert(
      fc.property(
        exchange,
        fc.option(fc.record({ kind: fc.constantFrom('refused', 'reset'), code: text, message: text })),
        (e, failure) => {
          const full = { ...(e as unknown as Exchange), ...(failure ? { failure: failure as UpstreamFailure } : {}) };
          const pieces = exchangeDocumentPieces(full);
          assert.equal(pieces.map((p) => (typeof p === 'string' ? p : p.text)).join(''), exchangeDocument(full));
        },
      ),
      { numRuns: 400 },
    );
  });
});
