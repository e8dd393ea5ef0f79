// A self-signed certificate for 127.0.0.1 and localhost, for the local Web Push peer (node has no
// certificate generator; openssl does). Plain JavaScript so scripts/e2e-server.mjs can make the
// end-to-end peer's certificate before the server starts and trusts it (NODE_EXTRA_CA_CERTS).
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

const filesIn = (dir) => ({ certFile: path.join(dir, 'cert.pem'), keyFile: path.join(dir, 'key.pem') });

/** Where an end-to-end run's push peer keeps its certificate and key: one folder per server port, so concurrent runs never share one. */
const e2eDir = (port) => path.resolve(import.meta.dirname, `../../../.tmp/e2e-push-peer-${port}`);
export const e2ePushPeerFiles = (port) => filesIn(e2eDir(port));

export function writeSelfSignedCert(dir) {
  mkdirSync(dir, { recursive: true });
  const { certFile, keyFile } = filesIn(dir);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}

/** A new certificate for the push peer of the end-to-end run on this port; the server must be started trusting it. */
export const writeE2ePushPeerCert = (port) => writeSelfSignedCert(e2eDir(port));
