/**
 * Malformed cassettes give an error that names the file and the line, and
 * says what was expected there.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { readCassette } from '../../recorder/cassette-reader.ts';
import type { CassetteParseError } from '../../recorder/errors.ts';
import { tempDir } from './helpers.ts';

const HEADER = ['---', 'format: 1', 'kind: flis-cassette', '...'];
const GOOD = ['---', 'seq: 1', 'request:', '  method: GET', '  path: /offers', 'response:', '  status: 200', '...'];

function expectParseError(lines: string[], line: number, expected: RegExp): void {
  const tmp = tempDir();
  try {
    const file = tmp.file('bad.yaml');
    writeFileSync(file, `${lines.join('\n')}\n`);
    assert.throws(
      () => readCassette(file),
      (e: CassetteParseError) => {
        assert.equal(e.code, 'FLIS_ERR_CASSETTE_PARSE');
        assert.equal(e.file, file);
        assert.equal(e.line, line, e.message);
        assert.ok(e.message.startsWith(`${file}:${line}: expected `), e.message);
        assert.match(e.message, expected);
        return true;
      },
    );
  } finally {
    tmp.cleanup();
  }
}

describe('malformed cassettes', () => {
  it('reads a good one', () => {
    const tmp = tempDir();
    const file = tmp.file('good.yaml');
    writeFileSync(file, `${[...HEADER, ...GOOD].join('\n')}\n`);
    const c = readCassette(file);
    assert.equal(c.exchanges.length, 1);
    assert.equal(c.exchanges[0]!.line, 6, 'the line of the first key, `seq: 1`');
    tmp.cleanup();
  });

  it('YAML syntax error: the line of the error', () => {
    expectParseError(
      [...HEADER, ...GOOD, '---', 'seq: 2', 'request: method: GET', 'response: {status: 200}', '...'],
      15,
      /valid YAML/,
    );
  });

  it('wrong format version: the line of `format`', () => {
    expectParseError(['---', 'kind: flis-cassette', 'format: 2', '...'], 3, /format: 1/);
  });

  it('missing method: the first line of the request mapping', () => {
    expectParseError(
      [...HEADER, '---', 'seq: 1', 'request:', '  path: /offers', 'response:', '  status: 200', '...'],
      8,
      /request\.method: an HTTP method/,
    );
  });

  it('bad status: the line of the status', () => {
    expectParseError(
      [...HEADER, ...GOOD.slice(0, 6), '  status: ok', '...'],
      11,
      /response\.status: an HTTP status code/,
    );
  });

  it('body without a known encoding: the line of bodyEncoding', () => {
    expectParseError(
      [...HEADER, ...GOOD.slice(0, 7), '  body: hello', '  bodyEncoding: gzip', '...'],
      13,
      /bodyEncoding: 'json', 'text' or 'base64'/,
    );
  });

  it('a torn last exchange: the line where it starts', () => {
    expectParseError([...HEADER, ...GOOD, '---', 'seq: 2', 'request:'], 13, /torn/);
  });

  it('an empty or missing file', () => {
    expectParseError([''], 1, /header document/);
    assert.throws(
      () => readCassette('/nonexistent/dir/c.yaml'),
      (e: NodeJS.ErrnoException & { line?: number }) =>
        e.code === 'FLIS_ERR_CASSETTE_PARSE' && e.line === 1 && /ENOENT/.test(e.message),
    );
  });
});
