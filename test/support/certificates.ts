/**
 * Test certificates and keys, made by the openssl CLI in a temporary directory at test time and returned as PEM
 * strings: nothing here is ever committed. One kit = one CA; leaves are issued by it with a chosen subject on an
 * RSA or EC key, or with chosen dates (`openssl ca -startdate/-enddate`, the OpenSSL 3.0 command that takes them).
 * Expected values (fingerprint, notAfter) come from openssl's own reading of a certificate, not from node:crypto.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type KeyType = 'rsa' | 'ec';

export interface TestLeaf {
  /** The leaf certificate alone (PEM, as openssl writes it: trailing newline). */
  cert: string;
  /** Its private key (PKCS#8 PEM). */
  key: string;
  /** Leaf followed by the issuing CA. */
  chain: string;
  /** The `-subj` it was issued with. */
  subject: string;
}

export interface CertificateKit {
  /** The CA certificate and key. */
  ca: { cert: string; key: string };
  /** A leaf for `subject` (openssl `-subj` form, e.g. `/C=NL/O=Org/CN=app`) on a new key, or on `key` if given. */
  leaf(subject: string, o?: { keyType?: KeyType; key?: string; days?: number }): TestLeaf;
  /** A TLS server's leaf on a new EC key, for the names in `subjectAltName` (openssl's form: `DNS:db.test, IP:127.0.0.1`). */
  server(subjectAltName: string): TestLeaf;
  /** A leaf with chosen validity (openssl `YYYYMMDDHHMMSSZ` dates), e.g. an expired one. */
  dated(subject: string, start: string, end: string): TestLeaf;
  /** An expired leaf (valid 2020-01-01 to 2020-01-02). */
  expired(subject?: string): TestLeaf;
  /** A new private key that belongs to no certificate. */
  newKey(keyType?: KeyType): string;
  /** `openssl x509 -fingerprint -sha256` of the first certificate of `pem`: lowercase hex without colons. */
  fingerprintOf(pem: string): string;
  /** `openssl x509 -enddate` of the first certificate of `pem`. */
  notAfterOf(pem: string): Date;
  /** Removes the temporary directory. */
  cleanup(): void;
}

export function certificateKit(): CertificateKit {
  const dir = mkdtempSync(path.join(tmpdir(), 'test-certs-'));
  let n = 0;
  const file = (name: string) => path.join(dir, name);
  const read = (name: string) => readFileSync(file(name), 'utf8');
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  const fresh = (prefix: string) => `${prefix}-${++n}`;

  function makeKey(name: string, keyType: KeyType): string {
    if (keyType === 'rsa') openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', file(name));
    else openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file(name));
    return read(name);
  }

  writeFileSync(file('index.txt'), '');
  writeFileSync(file('serial'), '01\n');
  writeFileSync(file('ca.cnf'), '[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\ndefault_md = sha256\npolicy = p\nunique_subject = no\n[p]\ncommonName = supplied\n');
  makeKey('ca.key', 'ec');
  openssl('req', '-x509', '-key', file('ca.key'), '-subj', '/O=Test Org/CN=Test CA', '-days', '30', '-out', file('ca.pem'));
  const ca = { cert: read('ca.pem'), key: read('ca.key') };

  /** A key file for the leaf: the given PEM, or a new key. */
  function keyFile(name: string, o: { keyType?: KeyType; key?: string }): string {
    if (o.key) writeFileSync(file(`${name}.key`), o.key);
    else makeKey(`${name}.key`, o.keyType ?? 'ec');
    return read(`${name}.key`);
  }

  const kit: CertificateKit = {
    ca,
    leaf(subject, o = {}) {
      const name = fresh('leaf');
      const key = keyFile(name, o);
      openssl('req', '-new', '-key', file(`${name}.key`), '-subj', subject, '-multivalue-rdn', '-utf8', '-out', file(`${name}.csr`));
      openssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file('ca.pem'), '-CAkey', file('ca.key'),
        '-set_serial', String(1000 + n * 7919 + Math.floor(Math.random() * 1e6)), '-days', String(o.days ?? 30), '-out', file(`${name}.pem`));
      const cert = read(`${name}.pem`);
      return { cert, key, chain: cert + ca.cert, subject };
    },
    server(subjectAltName) {
      const name = fresh('server');
      const key = keyFile(name, {});
      const subject = '/CN=test server';
      writeFileSync(file(`${name}.cnf`), `subjectAltName = ${subjectAltName}\nextendedKeyUsage = serverAuth\n`);
      openssl('req', '-new', '-key', file(`${name}.key`), '-subj', subject, '-out', file(`${name}.csr`));
      openssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file('ca.pem'), '-CAkey', file('ca.key'),
        '-set_serial', String(1000 + n * 7919 + Math.floor(Math.random() * 1e6)), '-days', '30', '-extfile', file(`${name}.cnf`), '-out', file(`${name}.pem`));
      const cert = read(`${name}.pem`);
      return { cert, key, chain: cert + ca.cert, subject };
    },
    dated(subject, start, end) {
      const name = fresh('dated');
      const key = keyFile(name, {});
      openssl('req', '-new', '-key', file(`${name}.key`), '-subj', subject, '-out', file(`${name}.csr`));
      openssl('ca', '-config', file('ca.cnf'), '-batch', '-notext', '-cert', file('ca.pem'), '-keyfile', file('ca.key'),
        '-in', file(`${name}.csr`), '-out', file(`${name}.pem`), '-startdate', start, '-enddate', end);
      const cert = read(`${name}.pem`);
      return { cert, key, chain: cert + ca.cert, subject };
    },
    expired(subject = '/CN=expired') {
      return kit.dated(subject, '20200101000000Z', '20200102000000Z');
    },
    newKey(keyType = 'ec') {
      return makeKey(`${fresh('key')}.key`, keyType);
    },
    fingerprintOf(pem) {
      const name = `${fresh('probe')}.pem`;
      writeFileSync(file(name), pem);
      return openssl('x509', '-in', file(name), '-noout', '-fingerprint', '-sha256').trim().replace(/^.*=/, '').replace(/:/g, '').toLowerCase();
    },
    notAfterOf(pem) {
      const name = `${fresh('probe')}.pem`;
      writeFileSync(file(name), pem);
      return new Date(openssl('x509', '-in', file(name), '-noout', '-enddate').trim().replace(/^notAfter=/, ''));
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return kit;
}
