/**
 * A large cassette document is linted without its response list held parsed: the list's line is cut out of the
 * document where it lies and judged item by item as it is read. The verdict and every message (pointers, "and at
 * least N more") are those of the document read whole; what the stream cannot take is read whole, as before. The
 * splitter keeps a line longer than its chunks in pieces, with the same documents, lines and offsets as one chunk.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { type RawDocument, splitDocuments } from '../../recorder/cassette-documents.ts';
import { fileParts, parseExchange } from '../../recorder/cassette-reader.ts';
import { writeCassette } from '../../recorder/cassette-writer.ts';
import { splitBodies } from '../../recorder/large-document.ts';
import { lintCassette } from '../../recorder/lint.ts';
import { listExchange, tempDir, testCassetteHeader as header } from './helpers.ts';

/** The exchange documents of a cassette (its header left out). */
function exchangeDocuments(file: string): RawDocument[] {
  return [...fileParts(file)].filter((p): p is RawDocument => p.kind === 'document').slice(1);
}

describe('the lint of a large document, its response list read item by item', () => {
  const tmp = tempDir();
  after(() => tmp.cleanup());

  it('gives the verdicts and messages of the document read whole, past the cap and below it', () => {
    const file = tmp.file('lists.yaml');
    const offer = { id: 'o-1', quantity: '3' };
    writeCassette(
      file,
      header,
      [
        // Past the cap: ten listed, the rest counted as "at least N more".
        listExchange(Array.from({ length: 600 }, () => ({}))),
        // Below it, with non-object items, a `__proto__` key kept as data, and text beyond ASCII.
        listExchange([7, 'é😀', null, [1, [2]], JSON.parse('{"__proto__": {"id": 1}}'), offer]),
        listExchange([]),
        // Not a list operation: the stand-in must not change what is judged.
        listExchange([{}], '/not-an-operation'),
      ],
      [],
    );
    const docs = exchangeDocuments(file);
    assert.ok(
      docs.every((d) => splitBodies(d)?.response?.kind === 'list'),
      'every response list is one the stream takes',
    );
    const whole = lintCassette(file, undefined, { streamAbove: Number.POSITIVE_INFINITY });
    const streamed = lintCassette(file, undefined, { streamAbove: 0 });
    assert.ok(
      whole.findings.some((f) => /and at least \d+ more violation/.test(f.violation.message)),
      'the list past the cap is counted',
    );
    assert.ok(
      whole.findings.some((f) => f.seq === 2 && f.violation.pointer === '/1'),
      `a violation is located by its pointer: ${JSON.stringify(whole.findings.map((f) => [f.seq, f.violation.pointer]))}`,
    );
    assert.deepEqual(streamed, whole, 'streamed and whole, the same report');
  });

  it('cuts out only the response list, and keeps every line where it was', () => {
    const file = tmp.file('split.yaml');
    writeCassette(file, header, [listExchange([{ a: 1 }, { b: [2, 3] }])], []);
    const [doc] = exchangeDocuments(file);
    const split = splitBodies(doc!);
    assert.ok(split?.response?.kind === 'list', 'a one-line response list is cut out');
    assert.equal(split.request, undefined, 'a GET has no body to cut');
    assert.equal(split.rest.bytes.toString().split('\n').length, doc!.bytes.toString().split('\n').length);
    assert.match(split.rest.bytes.toString(), /\n {2}body: \[\]\n/);
    assert.deepEqual([...split.response.list.items()], [{ a: 1 }, { b: [2, 3] }]);
    assert.deepEqual(parseExchange(file, split.rest).line, parseExchange(file, doc!).line);
  });

  it('a bulk write: its request list too, with the verdicts of the whole read', () => {
    const file = tmp.file('bulk.yaml');
    const items = [
      ...Array.from({ length: 300 }, (_, i) => ({ id: `o-${i}` })),
      JSON.parse('{"__proto__": {"id": 1}}'),
      'é😀',
    ];
    const text = JSON.stringify(items);
    const bulk = listExchange([{ batchId: 'b-1' }], '/offers/bulk');
    bulk.request = {
      method: 'POST',
      path: '/offers/bulk',
      query: {},
      headers: { authorization: 'Bearer [REDACTED]', 'content-type': 'application/json' },
      body: { encoding: 'json', value: items, size: Buffer.byteLength(text), truncated: false },
    };
    writeCassette(file, header, [bulk], []);
    const [doc] = exchangeDocuments(file);
    const split = splitBodies(doc!);
    assert.equal(split?.request?.kind, 'list', 'the request list is cut out');
    const whole = lintCassette(file, undefined, { streamAbove: Number.POSITIVE_INFINITY });
    assert.ok(
      whole.findings.some((f) => f.violation.direction === 'request'),
      JSON.stringify(whole.findings.map((f) => f.violation.message)),
    );
    assert.deepEqual(lintCassette(file, undefined, { streamAbove: 0 }), whole);
  });

  it('a long text or base64 body is judged by its size, as read whole; a broken escape is left to the whole read', () => {
    const file = tmp.file('scalars.yaml');
    const long = 'x'.repeat(70 * 1024);
    const scalar = (value: string, encoding: 'text' | 'base64', contentType: string) => {
      const e = listExchange([]);
      e.response.headers = { 'content-type': contentType };
      e.response.body = { encoding, value, size: Buffer.byteLength(value), truncated: false };
      return e;
    };
    writeCassette(
      file,
      header,
      [
        scalar(`${long}\u0001"\\é`, 'text', 'text/plain'),
        scalar(Buffer.alloc(60 * 1024, 7).toString('base64'), 'base64', 'application/octet-stream'),
      ],
      [],
    );
    const docs = exchangeDocuments(file);
    assert.deepEqual(
      docs.map((d) => splitBodies(d)?.response?.kind),
      ['scalar', 'scalar'],
    );
    const whole = lintCassette(file, undefined, { streamAbove: Number.POSITIVE_INFINITY });
    assert.ok(whole.findings.length >= 2, 'not JSON, under a content type that is no JSON: judged');
    assert.deepEqual(lintCassette(file, undefined, { streamAbove: 0 }), whole);
    // A quoted body with an escape YAML does not know: cut out, the stand-in would read; whole, it is an error.
    const broken = tmp.file('broken-escape.yaml');
    writeFileSync(broken, readFileSync(file, 'utf8').replace('\\u0001', '\\q0001'));
    assert.equal(splitBodies(exchangeDocuments(broken)[0]!), undefined);
    assert.throws(() => lintCassette(broken, undefined, { streamAbove: 0 }), /expected valid YAML/);
  });

  it('reads whole what the stream cannot take: a YAML list that is no JSON, a text body', () => {
    const file = tmp.file('yaml-list.yaml');
    const exchange = (body: string, encoding: string): string =>
      [
        '---',
        'seq: 1',
        'request:',
        '  method: GET',
        '  path: /offers',
        '  headers:',
        '    authorization: Bearer x',
        'response:',
        '  status: 200',
        '  headers:',
        '    content-type: application/json',
        `  body: ${body}`,
        `  bodyEncoding: ${encoding}`,
        '...',
        '',
      ].join('\n');
    writeFileSync(
      file,
      `---\nformat: 1\nkind: flis-cassette\n...\n${exchange('[a, b]', 'json')}${exchange('"[1]"', 'text')}`,
    );
    const whole = lintCassette(file, undefined, { streamAbove: Number.POSITIVE_INFINITY });
    assert.ok(
      whole.findings.some((f) => f.violation.pointer === '/0'),
      'the YAML list was judged',
    );
    assert.deepEqual(lintCassette(file, undefined, { streamAbove: 0 }), whole);
  });
});

describe('the cassette splitter, a line longer than its chunks', () => {
  const text = [
    '---',
    'format: 1',
    '...',
    '---',
    `  body: [${'1,'.repeat(200)}1]`,
    `  long: ${'x'.repeat(150)}`,
    '...',
    '# a comment',
    '--- ',
    `  ${'y'.repeat(90)}`,
    '...',
    `stray ${'z'.repeat(70)}`,
    '---',
    'torn',
  ].join('\n');
  const bytes = Buffer.from(text);
  const parts = (chunks: Buffer[]) =>
    [...splitDocuments(chunks)].map((p) =>
      p.kind === 'document'
        ? {
            kind: p.kind,
            line: p.line,
            offset: p.offset,
            length: p.length,
            complete: p.complete,
            text: p.bytes.toString(),
          }
        : // A long stray line is held in pieces and decoded when read: compared by what it says.
          { kind: p.kind, line: p.line, offset: p.offset, text: p.text },
    );
  const oneChunk = parts([bytes]);

  it('finds the same documents, lines, offsets and bytes in any chunking', () => {
    assert.equal(oneChunk.filter((p) => p.kind === 'document').length, 4);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 30 }), (cuts) => {
        const at = [0, ...cuts.sort((a, b) => a - b), bytes.length];
        const chunks = at.slice(1).map((end, i) => bytes.subarray(at[i], end));
        assert.deepEqual(parts(chunks), oneChunk, `cut at ${cuts.join(', ')}`);
      }),
    );
  });

  it('finds them in chunks of a few bytes each, a marker split across several', () => {
    for (const size of [1, 2, 3, 4, 5, 7]) {
      const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
        bytes.subarray(i * size, i * size + size),
      );
      assert.deepEqual(parts(chunks), oneChunk, `chunks of ${size} bytes`);
    }
  });

  it('keeps a long line in the pieces it was read in until its bytes are asked for', () => {
    const chunks = Array.from({ length: Math.ceil(bytes.length / 16) }, (_, i) => bytes.subarray(i * 16, i * 16 + 16));
    const doc = [...splitDocuments(chunks)].filter((p): p is RawDocument => p.kind === 'document')[1]!;
    assert.ok((doc.chunks?.length ?? 0) > 10, `the long body line is held in pieces (${doc.chunks?.length})`);
    assert.equal(Buffer.concat(doc.chunks!).toString(), doc.bytes.toString());
    assert.equal(doc.chunks!.length, 1, 'once joined, the pieces are let go');
  });

  it('keeps a long stray line in its pieces: its head at once, its text only when read', () => {
    const line = `not a cassette ${'z'.repeat(100)}`;
    const chunks = Array.from({ length: Math.ceil(line.length / 8) }, (_, i) =>
      Buffer.from(line.slice(i * 8, i * 8 + 8)),
    );
    const [stray] = [...splitDocuments(chunks)];
    assert.ok(stray?.kind === 'stray' && stray.head !== undefined, 'held in pieces, with a head');
    assert.equal(stray.head, line);
    assert.equal(stray.text, line);
  });
});
