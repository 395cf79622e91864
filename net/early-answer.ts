/**
 * Sockets to the upstream that still hear its answer after it stopped reading the request body. A server may answer
 * before the body is all there (413 for a body over its limit, 401 before reading an upload) and close: the next
 * write then fails with EPIPE or ECONNRESET, and Node destroys the socket at once, dropping the answer that is
 * already waiting to be read. undici would then report the write's error, and the client would get a 502 instead of
 * the upstream's own answer. These sockets stop writing at the first such failure and keep reading: undici parses the
 * answer (it completes a response that ends before its request), or fails when the upstream's end or reset arrives
 * with no answer, as before.
 */
import type { Socket } from 'node:net';
import { buildConnector, Client, type Dispatcher, Pool } from 'undici';

/** Write errors that mean "the peer stopped reading", after which what it sent may still be read. */
const PEER_STOPPED_READING = new Set(['EPIPE', 'ECONNRESET']);

type WriteCallback = (error?: Error | null) => void;

/** The connector of undici's Pool, with every socket it makes kept reading after a failed write. */
export function earlyAnswerConnector(options: buildConnector.BuildOptions): buildConnector.connector {
  return keepReading(buildConnector(options));
}

/**
 * undici's factory of the pools an Agent or ProxyAgent makes per origin (or per proxy), with the same sockets: the
 * connect it is handed (TLS options, or a ProxyAgent's tunnel through the proxy) is wrapped, so a deployment reached
 * through a proxy or with a client certificate is heard like one reached directly.
 */
export function earlyAnswerFactory(origin: string | URL, opts: Pool.Options): Dispatcher {
  const given = opts.connect;
  const connect: buildConnector.connector =
    typeof given === 'function' ? keepReading(given) : earlyAnswerConnector({ ...given });
  // As undici's own default factories: one connection asked for is a Client, else a Pool.
  return opts.connections === 1 ? new Client(origin, { ...opts, connect }) : new Pool(origin, { ...opts, connect });
}

function keepReading(connect: buildConnector.connector): buildConnector.connector {
  return (opts, callback) =>
    connect(opts, (...args) => {
      if (args[1]) keepReadingAfterFailedWrite(args[1]);
      callback(...args);
    });
}

export function keepReadingAfterFailedWrite(socket: Socket): void {
  let stopped = false;
  const settle =
    (cb: WriteCallback): WriteCallback =>
    (error) => {
      const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
      if (error && code !== undefined && PEER_STOPPED_READING.has(code)) {
        // The bytes are discarded as the peer would have; reading goes on until its answer, end or reset.
        stopped = true;
        cb();
        return;
      }
      cb(error);
    };
  const write = socket._write;
  const writev = socket._writev;
  socket._write = function (this: Socket, chunk: unknown, encoding: BufferEncoding, cb: WriteCallback): void {
    if (stopped) {
      cb();
      return;
    }
    write.call(this, chunk, encoding, settle(cb));
  };
  if (writev)
    socket._writev = function (this: Socket, chunks, cb: WriteCallback): void {
      if (stopped) {
        cb();
        return;
      }
      writev.call(this, chunks, settle(cb));
    };
}
