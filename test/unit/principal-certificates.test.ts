/**
 * Principal certificates against docs/contract.md §5.11. Every certificate and key is made by the openssl CLI at test time
 * (none is committed), and expected values come from openssl's own reading of them, not from node:crypto.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customPrincipalProblem, parsePrincipalCertificates, type PrincipalOutcome } from '../../core/rules/principal-certificates';

let dir = '';
const file = (name: string) => path.join(dir, name);
const read = (name: string) => readFileSync(file(name), 'utf8');
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString();

const NOW = new Date();
const ecKey = (name: string) => openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file(name));
const rsaKey = (name: string) => openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', file(name));

/** A certificate for `subject` on `key`, issued by the test CA. */
function issue(name: string, key: string, subject: string, extra: string[] = []) {
  openssl('req', '-new', '-key', file(key), '-subj', subject, '-multivalue-rdn', '-utf8', '-out', file(`${name}.csr`));
  openssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-set_serial', String(Math.floor(Math.random() * 1e9)), '-days', '30', '-out', file(`${name}.pem`), ...extra);
}

/** A certificate with chosen dates: `openssl ca` is the one OpenSSL 3.0 command that takes them. */
function issueDated(name: string, start: string, end: string) {
  writeFileSync(file('ca.cnf'), '[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\ndefault_md = sha256\npolicy = p\nunique_subject = no\n[p]\ncommonName = supplied\n');
  ecKey(`${name}.key`);
  openssl('req', '-new', '-key', file(`${name}.key`), '-subj', `/CN=${name}`, '-out', file(`${name}.csr`));
  openssl('ca', '-config', file('ca.cnf'), '-batch', '-notext', '-cert', file('ca.pem'), '-keyfile', file('ca.key'), '-in', file(`${name}.csr`), '-out', file(`${name}.pem`), '-startdate', start, '-enddate', end);
}

const fingerprintOf = (name: string) => openssl('x509', '-in', file(name), '-noout', '-fingerprint', '-sha256').trim().replace(/^.*=/, '').replace(/:/g, '').toLowerCase();
const notAfterOf = (name: string) => new Date(openssl('x509', '-in', file(name), '-noout', '-enddate').trim().replace(/^notAfter=/, ''));

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'principal-certs-'));
  writeFileSync(file('index.txt'), '');
  writeFileSync(file('serial'), '01\n');
  ecKey('ca.key');
  openssl('req', '-x509', '-key', file('ca.key'), '-subj', '/O=Org/CN=Test CA', '-days', '30', '-out', file('ca.pem'));
  rsaKey('app.key');
  issue('app', 'app.key', '/C=NL/O=Org/OU=Team/CN=app');
  ecKey('special.key');
  issue('special', 'special.key', '/C=NL/O=Org, Inc./OU=Team+UID=42/CN=#app\\+1 "q" <x>;=\\\\ ');
  issue('utf8', 'special.key', '/C=NL/CN=Zoë Ĳssel');
  issue('nameless', 'special.key', '/');
  issueDated('expired', '20200101000000Z', '20200102000000Z');
  issueDated('future', '20990101000000Z', '20991231000000Z');
  ecKey('other-ec.key');
  rsaKey('other-rsa.key');
  openssl('pkey', '-in', file('app.key'), '-traditional', '-out', file('app-pkcs1.key'));
  openssl('pkey', '-in', file('special.key'), '-traditional', '-out', file('special-sec1.key'));
  openssl('pkey', '-in', file('app.key'), '-aes256', '-passout', 'pass:secret', '-out', file('app-encrypted.key'));
  openssl('pkey', '-in', file('app.key'), '-pubout', '-out', file('app-public.pem'));
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const parse = (pem: unknown, key?: unknown, now = NOW) => parsePrincipalCertificates(pem, key, now);
const parsed = (o: PrincipalOutcome) => {
  if (o.kind !== 'parsed') throw new Error(`refused ${o.field}: ${o.message}`);
  return o;
};
const refusal = (o: PrincipalOutcome) => (o.kind === 'refused' ? { field: o.field, message: o.message } : { field: 'none', message: o.principal });

describe('a single certificate', () => {
  it('yields the leaf DN most specific first, the trimmed PEM, notAfter and the SHA-256 of the DER', () => {
    const o = parsed(parse(`\n\n${read('app.pem')}\n\n`));
    expect(o.principal).toBe('CN=app,OU=Team,O=Org,C=NL');
    expect(o.applicationPem).toBe(read('app.pem').trim());
    expect(o.expiresOn).toEqual(notAfterOf('app.pem'));
    expect(o.fingerprint).toBe(fingerprintOf('app.pem'));
    expect(o.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('escapes DN values as RFC 4514 does and joins a multi-valued RDN with +', () => {
    expect(parsed(parse(read('special.pem'))).principal).toBe('CN=\\#app\\+1 \\"q\\" \\<x\\>\\;=\\\\\\ ,OU=Team+UID=42,O=Org\\, Inc.,C=NL');
  });

  it('keeps non-ASCII characters as they are', () => {
    expect(parsed(parse(read('utf8.pem'))).principal).toBe('CN=Zoë Ĳssel,C=NL');
  });

  it('refuses a leaf without a subject', () => {
    expect(refusal(parse(read('nameless.pem')))).toEqual({ field: 'principal', message: expect.stringMatching(/empty subject/) });
  });
});

describe('a chain', () => {
  it('takes the leaf first and drops what openssl writes between the blocks', () => {
    const pem = `Bag Attributes\n    friendlyName: app\nsubject=CN = app\r\n${read('app.pem')}\r\n\r\nissuer=CN = Test CA\n${read('ca.pem')}`;
    const o = parsed(parse(pem));
    expect(o.principal).toBe('CN=app,OU=Team,O=Org,C=NL');
    expect(o.applicationPem).toBe(`${read('app.pem').trim()}\n${read('ca.pem').trim()}`);
    expect(o.fingerprint).toBe(fingerprintOf('app.pem'));
  });

  it('refuses a chain that starts with the issuer', () => {
    expect(refusal(parse(read('ca.pem') + read('app.pem')))).toEqual({ field: 'principal', message: expect.stringMatching(/reverse order/) });
  });

  it('accepts a chain whose certificates are unrelated (only a reversed one is refused)', () => {
    expect(parsed(parse(read('app.pem') + read('expired.pem'))).principal).toBe('CN=app,OU=Team,O=Org,C=NL');
  });
});

describe('dates', () => {
  it('refuses an expired leaf, naming when it expired', () => {
    expect(refusal(parse(read('expired.pem')))).toEqual({ field: 'principal', message: 'the leaf certificate expired on 2020-01-02T00:00:00.000Z' });
  });

  it('refuses a leaf that expires before `now`, and accepts it up to its notAfter', () => {
    const notAfter = notAfterOf('app.pem');
    expect(parse(read('app.pem'), undefined, notAfter).kind).toBe('parsed');
    expect(refusal(parse(read('app.pem'), undefined, new Date(notAfter.getTime() + 1000))).field).toBe('principal');
  });

  it('accepts a leaf that is not valid yet', () => {
    const o = parsed(parse(read('future.pem')));
    expect(o.expiresOn.toISOString()).toBe('2099-12-31T00:00:00.000Z');
  });

  it('judges only the leaf: an expired issuer further down is not refused', () => {
    expect(parse(read('app.pem') + read('expired.pem')).kind).toBe('parsed');
  });
});

describe('what is not a certificate chain', () => {
  it.each([
    ['an empty string', ''],
    ['blank text', ' \n\t '],
    ['null', null],
    ['a number', 42],
    ['an array', ['-----BEGIN CERTIFICATE-----']],
  ])('refuses %s as empty', (_label, value) => {
    expect(refusal(parse(value))).toEqual({ field: 'principal', message: expect.stringMatching(/empty/) });
  });

  it.each([
    ['plain text', 'hello'],
    ['a BEGIN without END', '-----BEGIN CERTIFICATE-----\nMIIB\n'],
    ['bare base64', 'MIIBszCCAVmgAwIBAgIUY'],
  ])('refuses %s as not PEM', (_label, value) => {
    expect(refusal(parse(value))).toEqual({ field: 'principal', message: expect.stringMatching(/^is not PEM/) });
  });

  it('refuses a block that does not parse, counting from the leaf', () => {
    const broken = read('ca.pem').replace(/\n[A-Za-z0-9+/]{20}/, '\nAAAAAAAAAAAAAAAAAAAA');
    expect(refusal(parse(read('app.pem') + broken))).toEqual({ field: 'principal', message: 'certificate 2 of the chain cannot be parsed' });
    expect(refusal(parse('-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----'))).toEqual({ field: 'principal', message: 'certificate 1 of the chain cannot be parsed' });
  });

  it('refuses a private key in the chain and says where it belongs', () => {
    expect(refusal(parse(read('app.pem') + read('app.key')))).toEqual({ field: 'principal', message: 'may hold only CERTIFICATE blocks, found PRIVATE KEY; send the private key as privateKey' });
    expect(refusal(parse(read('app-public.pem')))).toEqual({ field: 'principal', message: 'may hold only CERTIFICATE blocks, found PUBLIC KEY' });
  });
});

describe('the private key', () => {
  it.each([
    ['PKCS#8 RSA', 'app.pem', 'app.key'],
    ['PKCS#1 RSA', 'app.pem', 'app-pkcs1.key'],
    ['PKCS#8 EC', 'special.pem', 'special.key'],
    ['SEC1 EC', 'special.pem', 'special-sec1.key'],
  ])('accepts the leaf’s own key (%s)', (_label, cert, key) => {
    expect(parse(read(cert), read(key)).kind).toBe('parsed');
  });

  it('accepts the leaf’s key with the whole chain', () => {
    expect(parse(read('app.pem') + read('ca.pem'), read('app.key')).kind).toBe('parsed');
  });

  it.each([['undefined', undefined], ['null', null], ['an empty string', ''], ['blank text', '  \n']])('treats %s as no key', (_label, key) => {
    expect(parse(read('app.pem'), key).kind).toBe('parsed');
  });

  it.each([
    ['another RSA key', 'app.pem', 'other-rsa.key'],
    ['an EC key for an RSA leaf', 'app.pem', 'other-ec.key'],
    ['another EC key', 'special.pem', 'other-ec.key'],
    ['the issuer’s key', 'app.pem', 'ca.key'],
  ])('refuses %s as not matching', (_label, cert, key) => {
    expect(refusal(parse(read(cert), read(key)))).toEqual({ field: 'privateKey', message: 'does not match the public key of the leaf certificate' });
  });

  it.each([
    ['text', () => 'not a key'],
    ['an encrypted key', () => read('app-encrypted.key')],
    ['a public key', () => read('app-public.pem')],
    ['a certificate', () => read('app.pem')],
  ])('refuses %s as unparsable', (_label, key) => {
    expect(refusal(parse(read('app.pem'), key()))).toEqual({ field: 'privateKey', message: expect.stringMatching(/^cannot be parsed/) });
  });

  it('refuses a key that is not a string', () => {
    expect(refusal(parse(read('app.pem'), 42))).toEqual({ field: 'privateKey', message: 'must be a PEM private key' });
  });

  it('judges the certificate before the key', () => {
    expect(refusal(parse(read('expired.pem'), 'not a key')).field).toBe('principal');
  });
});

describe('customPrincipalProblem', () => {
  it.each([
    ['a', null], ['client-id_1.two@realm', null], ['with inner spaces', null], ['Zoë 🚀', null],
    ['x'.repeat(255), null], ['🚀'.repeat(255), null],
  ])('accepts %j', (value, expected) => expect(customPrincipalProblem(value)).toBe(expected));

  it.each([
    ['', /1 to 255/], [null, /1 to 255/], [undefined, /1 to 255/], [7, /1 to 255/],
    ['x'.repeat(256), /at most 255 characters long; it is 256/], ['   ', /blank/],
    ['tab\there', /printable/], ['line\nbreak', /printable/], ['nul\u0000', /printable/], ['bidi\u202e', /printable/], ['del\u007f', /printable/],
  ])('refuses %j', (value, expected) => expect(customPrincipalProblem(value)).toMatch(expected));
});
