/** Zip files made byte by byte (PKWARE APPNOTE 4.3), for the checks of a shard's blob report. */
import { crc32, deflateRawSync } from 'node:zlib';

/** One entry as a zip file: stored, or deflated; `crc` lets a test store a wrong CRC-32. */
export function zipOf(name: string, content: Buffer, opts: { deflate?: boolean; crc?: number } = {}): Buffer {
  const n = Buffer.from(name);
  const data = opts.deflate ? deflateRawSync(content) : content;
  const method = opts.deflate ? 8 : 0;
  const crc = opts.crc ?? crc32(content);
  // The fields a local and a central header share, at their offsets in each.
  const common = (b: Buffer, at: number) => {
    b.writeUInt16LE(method, at);
    b.writeUInt32LE(crc, at + 6);
    b.writeUInt32LE(data.length, at + 10);
    b.writeUInt32LE(content.length, at + 14);
    b.writeUInt16LE(n.length, at + 18);
  };
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  common(local, 8);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  common(central, 10);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + n.length, 12);
  end.writeUInt32LE(local.length + n.length + data.length, 16);
  return Buffer.concat([local, n, data, central, n, end]);
}
