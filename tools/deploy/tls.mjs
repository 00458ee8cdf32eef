// A throwaway TLS certificate for the deploy tests: HAProxy's `crt` takes the chain and the key in
// one PEM file (the `tls_pem` secret of docker-compose.yml); a client trusts the certificate alone.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Makes a self-signed certificate for `host` (valid one day) in `dir`.
 * @returns `{ pem }` certificate + key in one file (HAProxy), `{ cert }` the certificate (clients)
 */
export function selfSignedCertificate(dir, host = 'localhost') {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const pem = path.join(dir, 'tls.pem');
  const subject = ['-subj', `/CN=${host}`, '-addext', `subjectAltName=DNS:${host}`];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      ...subject,
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  fs.writeFileSync(pem, fs.readFileSync(cert, 'utf8') + fs.readFileSync(key, 'utf8'));
  return { pem, cert };
}
