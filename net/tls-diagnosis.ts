/**
 * Why an HTTPS server closed the connection without an answer. Under TLS 1.3 a
 * server that refuses the client certificate sends its alert after the
 * handshake, and undici only sees "other side closed"; a bare TLS connection
 * that sends one request reads the alert itself (certificate required,
 * unknown CA...), so the error can name --client-cert.
 */
import { connect } from 'node:tls';
import { tlsOptions } from './dispatcher.ts';
import type { ConnectionSettings } from './types.ts';

/**
 * What one bare request over TLS meets: the TLS error the server's alert raises, a close right after the
 * handshake with no answer (Node's own servers drop an untrusted client certificate so, without an alert),
 * or an answer.
 */
export type TlsOutcome = { error: unknown } | 'closed-after-handshake' | 'answered';

export function tlsOutcomeOfRequest(url: string, settings: ConnectionSettings, timeoutMs: number): Promise<TlsOutcome> {
  const { hostname, port } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  return new Promise((done) => {
    const socket = connect({
      host,
      port: Number(port || 443),
      ...(/^[\d.:]+$/.test(host) ? {} : { servername: host }),
      ...tlsOptions(settings),
      timeout: timeoutMs,
    });
    let secure = false;
    const finish = (result: TlsOutcome) => {
      socket.destroy();
      done(result);
    };
    socket.once('secureConnect', () => {
      secure = true;
      socket.write(`GET / HTTP/1.1\r\nHost: ${new URL(url).host}\r\nConnection: close\r\n\r\n`);
    });
    socket.once('data', () => finish('answered'));
    socket.once('error', (error) => finish({ error }));
    socket.once('timeout', () => finish('answered'));
    socket.once('close', () => finish(secure ? 'closed-after-handshake' : 'answered'));
  });
}
