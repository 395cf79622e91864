/**
 * recorder/body.ts storedBody: a body whose exact bytes came twice a moment
 * ago is the same StoredBody (so its verdict and written bytes are reused),
 * and otherwise exactly what encodeBody makes, however many bodies of one
 * length come and go.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeBody, storedBody } from '../../recorder/body.ts';

describe('storedBody', () => {
  it('hands out the same StoredBody for the same bytes once they came twice, and a fresh one for other bytes', () => {
    const first = storedBody(Buffer.from('{"a":[1,2,3]}'), 'application/json');
    // Seen once, only the bytes are remembered: the second time they are stored afresh, and kept.
    const a = storedBody(Buffer.from('{"a":[1,2,3]}'), 'application/json');
    assert.deepEqual(a, first);
    const again = storedBody(Buffer.from('{"a":[1,2,3]}'), 'application/json');
    const other = storedBody(Buffer.from('{"a":[1,2,4]}'), 'application/json');
    assert.equal(again, a);
    assert.notEqual(other, a);
    assert.deepEqual(other, encodeBody(Buffer.from('{"a":[1,2,4]}'), 'application/json'));
    // The content type takes part: the same bytes as text are not the JSON body.
    assert.equal(storedBody(Buffer.from('{"a":[1,2,3]}'), 'text/plain')?.encoding, 'text');
  });

  it('stores many bodies of one length each as encodeBody does', () => {
    for (let i = 0; i < 2000; i += 1) {
      const bytes = Buffer.from(JSON.stringify({ n: String(i % 700).padStart(4, '0'), pad: 'x'.repeat(5000) }));
      assert.deepEqual(storedBody(bytes, 'application/json'), encodeBody(bytes, 'application/json'));
    }
  });

  it('does not keep a cut body (only part of it was kept)', () => {
    const bytes = Buffer.from('{"a":1}');
    assert.notEqual(storedBody(bytes, 'application/json', 100, true), storedBody(bytes, 'application/json', 100, true));
  });
});
