/**
 * `flis merge` checks each shard's blob report is a whole zip before anything is written: its end record, its
 * central directory and every entry's CRC-32, as unzipping would. Real blobs pass (tests/reporting/shards.test.ts).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { checkBlobZip } from '../../reporting/merge-shards.ts';
import { makeSandbox } from '../cli/bad-input-harness.ts';
import { zipOf } from './zip-fixtures.ts';

const DATA = Buffer.from('{"method":"onBlobReportMetadata"}\n'.repeat(20));

it('a whole zip passes; truncated, emptied, garbage or a wrong CRC-32 is named, file first', () => {
  const sb = makeSandbox();
  try {
    const whole = zipOf('report.jsonl', DATA);
    checkBlobZip(sb.write('whole.zip', whole));
    const broken: Record<string, Buffer> = {
      truncated: whole.subarray(0, whole.length - 10),
      'cut in the middle': Buffer.concat([whole.subarray(0, 20), whole.subarray(40)]),
      empty: Buffer.alloc(0),
      garbage: Buffer.from('PK\u0003\u0004 not really a zip'),
      'wrong crc': zipOf('report.jsonl', DATA, { crc: 42 }),
      'a deflated entry with a flipped byte': Buffer.from(
        zipOf('report.jsonl', DATA, { deflate: true }).map((b, i) => (i === 45 ? b ^ 0x55 : b)),
      ),
      'a flipped data byte': Buffer.from(whole.map((b, i) => (i === 50 ? b ^ 0xff : b))),
    };
    for (const [what, bytes] of Object.entries(broken)) {
      const file = sb.write(`${what.replaceAll(' ', '-')}.zip`, bytes);
      assert.throws(
        () => checkBlobZip(file),
        (e) => (e as { code?: string }).code === 'FLIS_ERR_CONFIG' && String(e).includes(`${file}: is not a whole zip`),
        `${what}: not refused`,
      );
    }
  } finally {
    sb.remove();
  }
});

it('a deflated entry is inflated and checked', () => {
  const sb = makeSandbox();
  try {
    checkBlobZip(sb.write('deflated.zip', zipOf('report.jsonl', DATA, { deflate: true })));
  } finally {
    sb.remove();
  }
});
