/**
 * A private PKI made in the test with the openssl CLI: a CA, a server
 * certificate for 127.0.0.1/localhost, a client certificate it issued, a
 * client certificate from another CA (the deployment must refuse it), and an
 * encrypted copy of the client key. Made once per test process under /tmp.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Pki {
  dir: string;
  /** File paths (flags take files); `pem()` reads one. */
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** The client key encrypted with `passphrase`. */
  clientKeyEncrypted: string;
  passphrase: string;
  /** A certificate and key from a CA the server does not trust. */
  strangerCert: string;
  strangerKey: string;
  pem(file: string): string;
  cleanup(): void;
}

/** `args` is split on spaces; `subject` (which holds spaces) goes last, after -subj. */
function openssl(dir: string, args: string, subject?: string): void {
  const argv = [...args.split(' '), ...(subject ? ['-subj', subject] : [])];
  execFileSync('/usr/bin/openssl', argv, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function issue(dir: string, name: string, subject: string, ca: string, ext: string): void {
  openssl(dir, `req -new -newkey rsa:2048 -nodes -keyout ${name}.key -out ${name}.csr`, subject);
  writeFileSync(join(dir, `${name}.ext`), ext);
  openssl(
    dir,
    `x509 -req -in ${name}.csr -CA ${ca}.crt -CAkey ${ca}.key -CAcreateserial -out ${name}.crt -days 2 -sha256 -extfile ${name}.ext`,
  );
}

function selfSignedCa(dir: string, name: string, subject: string): void {
  const ext = '-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign';
  openssl(dir, `req -x509 -newkey rsa:2048 -nodes -keyout ${name}.key -out ${name}.crt -days 2 ${ext}`, subject);
}

let made: Pki | undefined;

export function makePki(): Pki {
  if (made) return made;
  const dir = mkdtempSync(join(tmpdir(), 'net-pki-'));
  selfSignedCa(dir, 'ca', '/CN=flis test CA');
  selfSignedCa(dir, 'stranger-ca', '/CN=someone else CA');
  issue(
    dir,
    'server',
    '/CN=localhost',
    'ca',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  issue(dir, 'client', '/CN=flis partner', 'ca', 'extendedKeyUsage=clientAuth\n');
  issue(dir, 'stranger', '/CN=stranger', 'stranger-ca', 'extendedKeyUsage=clientAuth\n');
  const passphrase = 'pass-Zt7wQ2xK9mR4';
  openssl(dir, `pkey -in client.key -aes256 -passout pass:${passphrase} -out client-encrypted.key`);
  const f = (name: string) => join(dir, name);
  made = {
    dir,
    caCert: f('ca.crt'),
    serverCert: f('server.crt'),
    serverKey: f('server.key'),
    clientCert: f('client.crt'),
    clientKey: f('client.key'),
    clientKeyEncrypted: f('client-encrypted.key'),
    passphrase,
    strangerCert: f('stranger.crt'),
    strangerKey: f('stranger.key'),
    pem: (file) => readFileSync(file, 'utf8'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
  return made;
}
