/**
 * Replay's store: the index holds where each exchange is, an exchange is read
 * from the file when it is asked for, and an answer identical to one already
 * parsed is served from that parse under its own seq.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { defaultMatchOptions } from '../../recorder/match.ts';
import { openReplayIndex } from '../../recorder/replay-store.ts';
import { tempDir } from './helpers.ts';

function exchange(seq: number, answer: string): string[] {
  return [
    '---',
    `seq: ${seq}`,
    'request:',
    '  method: GET',
    '  path: /batches/b-1',
    'response:',
    '  status: 200',
    '  body:',
    `    state: ${answer}`,
    '  bodyEncoding: json',
    '  timing:',
    `    durationMs: ${seq * 1.5}`,
    `    firstByteMs: ${seq}`,
    '...',
  ];
}

describe('replay store', () => {
  it('reads exchanges by offset in recorded order, sharing the parse of identical answers', () => {
    const tmp = tempDir();
    try {
      const file = tmp.file('poll.yaml');
      const lines = [
        '---',
        'format: 1',
        '...',
        ...exchange(1, 'PENDING'),
        ...exchange(2, 'PENDING'),
        ...exchange(3, 'DONE'),
      ];
      writeFileSync(file, `${lines.join('\n')}\n`);
      const { matcher, store, lastSeq } = openReplayIndex(file, defaultMatchOptions);
      assert.equal(lastSeq, 3);
      const req = { method: 'GET', path: '/batches/b-1', query: {}, headers: {}, body: null };
      const served = [1, 2, 3, 4].map(() => store.read(matcher.take(req)!));
      store.close();
      assert.deepEqual(
        served.map((e) => [e.seq, (e.response.body?.value as { state?: string } | undefined)?.state]),
        [
          [1, 'PENDING'],
          [2, 'PENDING'],
          [3, 'DONE'],
          [3, 'DONE'],
        ],
      );
      assert.equal(served[1]!.line, 19, 'its own line: the one after its ---');
      assert.equal(
        served[1]!.response,
        served[0]!.response,
        'the identical answer (timing apart) was not parsed again',
      );
    } finally {
      tmp.cleanup();
    }
  });
});
