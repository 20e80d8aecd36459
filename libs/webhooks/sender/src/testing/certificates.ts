import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const OPENSSL = '/usr/bin/openssl';

export interface TestCertificates {
  dir: string;
  /** The throwaway CA, as a file for NODE_EXTRA_CA_CERTS and as PEM text for an agent's `ca`. */
  caPath: string;
  ca: string;
  /** The receiver's certificate (localhost, 127.0.0.1, ::1 and any extra names) and key. */
  cert: string;
  key: string;
  remove(): void;
}

/**
 * A CA made for one test run and a server certificate it signs, with the `openssl` CLI into a
 * fresh temporary directory. Nothing is trusted until a test says so, which is the point: the
 * trust tests show a handshake failing without NODE_EXTRA_CA_CERTS and passing with it.
 */
export function createTestCertificates(extraNames: readonly string[] = []): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'xaalis-webhook-tls-'));
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync(OPENSSL, args, { cwd: dir, stdio: 'pipe' });
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

  openssl(
    'req',
    '-x509',
    ...ecKey,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Xaalis throwaway test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl('req', ...ecKey, '-keyout', 'key.pem', '-out', 'server.csr', '-subj', '/CN=localhost');
  const names = [
    'DNS:localhost',
    'IP:127.0.0.1',
    'IP:::1',
    ...extraNames.map((name) => `DNS:${name}`),
  ];
  writeFileSync(
    path('server.ext'),
    [
      `subjectAltName=${names.join(',')}`,
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=serverAuth',
    ].join('\n'),
  );
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-sha256',
    '-extfile',
    'server.ext',
    '-out',
    'cert.pem',
  );

  return {
    dir,
    caPath: path('ca.pem'),
    ca: readFileSync(path('ca.pem'), 'utf8'),
    cert: readFileSync(path('cert.pem'), 'utf8'),
    key: readFileSync(path('key.pem'), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
