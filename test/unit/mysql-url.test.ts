/**
 * A mysql:// or mariadb:// DATABASE_URL's parameters (models/mysql-url): libpq's TLS names turned into each driver's
 * `ssl` option, every mode; anything else, a malformed value or a file that cannot be read refused in one line naming
 * it, never with the password or a key. Certificates are made by the openssl CLI at test time.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/config';
import { driverSsl, parseMysqlUrl, SSL_MODES, type MysqlTls } from '../../models/mysql-url';
import { certificateKit } from '../support/certificates';

const kit = certificateKit();
const other = certificateKit();
const dir = mkdtempSync(path.join(tmpdir(), 'mysql-url-'));
const file = (name: string, text: string) => {
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
};
const client = kit.leaf('/CN=platform');
const encryptedKey = path.join(dir, 'encrypted.key');
execFileSync('openssl', ['pkey', '-in', file('plain.key', client.key), '-aes256', '-passout', 'pass:secret', '-out', encryptedKey]);

/** The message `attempt` throws (it must throw a ConfigError). */
function refusal(attempt: () => unknown): string {
  try {
    attempt();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('not refused');
}
const files = {
  ca: file('ca.pem', kit.ca.cert),
  bundle: file('bundle.pem', kit.ca.cert + other.ca.cert),
  cert: file('client.pem', client.cert),
  key: file('client.key', client.key),
  otherKey: file('other.key', kit.newKey()),
  garbage: file('garbage.pem', 'not a certificate\n'),
};
afterAll(() => {
  kit.cleanup();
  other.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const BASE = 'mariadb://platform:s3cret@db.example.com:3306/platform';
const withParams = (query: string) => `${BASE}?${query}`;
const q = encodeURIComponent;

describe('parseMysqlUrl: what reaches Sequelize and the TLS asked for', () => {
  it('a URL without parameters is unchanged and without TLS', () => {
    expect(parseMysqlUrl(BASE)).toEqual({ url: BASE, host: 'db.example.com', tls: { mode: 'disable' } });
    expect(parseMysqlUrl(`${BASE}?`)).toEqual({ url: BASE, host: 'db.example.com', tls: { mode: 'disable' } });
  });

  it.each(SSL_MODES)('sslmode=%s is read, and the URL Sequelize gets has no parameters left', (mode) => {
    expect(parseMysqlUrl(withParams(`sslmode=${mode}`))).toEqual({ url: BASE, host: 'db.example.com', tls: { mode } });
  });

  it('sslrootcert, sslcert and sslkey are read from their files (percent-encoded paths too)', () => {
    const spaced = file('a ca.pem', kit.ca.cert);
    const { url, tls } = parseMysqlUrl(withParams(`sslmode=verify-full&sslrootcert=${q(spaced)}&sslcert=${q(files.cert)}&sslkey=${q(files.key)}`));
    expect(url).toBe(BASE);
    expect(tls).toEqual({ mode: 'verify-full', ca: kit.ca.cert, cert: client.cert, key: client.key });
  });

  it('a CA bundle of several certificates is taken whole', () => {
    expect(parseMysqlUrl(withParams(`sslmode=verify-ca&sslrootcert=${q(files.bundle)}`)).tls.ca).toBe(kit.ca.cert + other.ca.cert);
  });
});

describe('driverSsl: one setting, each driver\'s option', () => {
  const tls = (mode: MysqlTls['mode'], more: Partial<MysqlTls> = {}): MysqlTls => ({ mode, ...more });
  const HOST = 'db.example.com';

  it('disable: no ssl option at all, for either driver', () => {
    expect(driverSsl('mysql', tls('disable'), HOST)).toBeUndefined();
    expect(driverSsl('mariadb', tls('disable'), HOST)).toBeUndefined();
  });

  it.each([
    // mode, with a root certificate, mysql2's option, the mariadb driver's option (checkServerIdentity: a no-op)
    ['require', false, { rejectUnauthorized: false, verifyIdentity: false }, { rejectUnauthorized: false, noHostCheck: true }],
    ['require', true, { rejectUnauthorized: true, verifyIdentity: false }, { rejectUnauthorized: true, noHostCheck: true }],
    ['verify-ca', false, { rejectUnauthorized: true, verifyIdentity: false }, { rejectUnauthorized: true, noHostCheck: true }],
    ['verify-ca', true, { rejectUnauthorized: true, verifyIdentity: false }, { rejectUnauthorized: true, noHostCheck: true }],
    ['verify-full', false, { rejectUnauthorized: true, verifyIdentity: true }, { rejectUnauthorized: true, noHostCheck: false }],
    ['verify-full', true, { rejectUnauthorized: true, verifyIdentity: true }, { rejectUnauthorized: true, noHostCheck: false }],
  ] as const)('%s (root certificate given: %s)', (mode, withCa, mysql2, mariadb) => {
    const asked = tls(mode, withCa ? { ca: kit.ca.cert } : {});
    const ca = withCa ? { ca: kit.ca.cert } : {};
    expect(driverSsl('mysql', asked, HOST)).toEqual({ ...ca, ...mysql2 });
    const forMariadb = driverSsl('mariadb', asked, HOST)!;
    expect(forMariadb.rejectUnauthorized).toBe(mariadb.rejectUnauthorized);
    expect(forMariadb.ca).toBe(withCa ? kit.ca.cert : undefined);
    expect(forMariadb.verifyIdentity).toBeUndefined();
    if (mariadb.noHostCheck) expect(forMariadb.checkServerIdentity?.()).toBeUndefined();
    else expect(forMariadb).not.toHaveProperty('checkServerIdentity');
  });

  it('a client certificate reaches both drivers as cert and key', () => {
    const asked = tls('verify-full', { ca: kit.ca.cert, cert: client.cert, key: client.key });
    for (const dialect of ['mysql', 'mariadb'] as const) {
      expect(driverSsl(dialect, asked, HOST)).toMatchObject({ ca: kit.ca.cert, cert: client.cert, key: client.key, rejectUnauthorized: true });
    }
  });

  it.each(['10.0.0.5', '[fd00::5]'])('mysql:// verify-full to the IP address %s is refused: mysql2 would check it against the name localhost', (host) => {
    expect(() => driverSsl('mysql', tls('verify-full'), host)).toThrow(new ConfigError(
      `DATABASE_URL host ${host} is an IP address: with sslmode=verify-full, mysql:// needs the name in the server's certificate (mysql2 checks an address against the name localhost), or use mariadb://`,
    ));
    expect(parseMysqlUrl(`mysql://u:p@${host}:3306/db?sslmode=verify-full`).host).toBe(host);
  });

  it('an IP address is fine for mysql:// below verify-full, and for mariadb:// (it checks the address itself)', () => {
    expect(driverSsl('mysql', tls('verify-ca'), '10.0.0.5')).toMatchObject({ rejectUnauthorized: true, verifyIdentity: false });
    expect(driverSsl('mysql', tls('require'), '10.0.0.5')).toMatchObject({ rejectUnauthorized: false });
    expect(driverSsl('mariadb', tls('verify-full'), '10.0.0.5')).toEqual({ rejectUnauthorized: true });
  });
});

describe('refused in one line naming the parameter', () => {
  it.each([
    ['ssl=true', /^DATABASE_URL parameter "ssl" is not one the service reads: mysql:\/\/ and mariadb:\/\/ URLs take sslmode, sslrootcert, sslcert, sslkey$/],
    ['socketPath=/run/mysqld/mysqld.sock', /^DATABASE_URL parameter "socketPath" is not one/],
    ['password=other', /^DATABASE_URL parameter "password" is not one/],
    ['SSLMODE=require', /^DATABASE_URL parameter "SSLMODE" is not one/],
    ['sslmode=require&sslmode=disable', /^DATABASE_URL parameter sslmode is given twice$/],
    ['sslmode=prefer', /^DATABASE_URL parameter sslmode must be disable, require, verify-ca or verify-full, got "prefer"$/],
    ['sslmode=allow', /^DATABASE_URL parameter sslmode must be .*, got "allow"$/],
    ['sslmode=no-verify', /^DATABASE_URL parameter sslmode must be .*, got "no-verify"$/],
    ['sslmode=VERIFY-FULL', /^DATABASE_URL parameter sslmode must be .*, got "VERIFY-FULL"$/],
    ['sslmode=true', /^DATABASE_URL parameter sslmode must be .*, got "true"$/],
    ['sslmode=', /^DATABASE_URL parameter sslmode must be .*, got ""$/],
    ['sslmode=verify-full&sslrootcert=', /^DATABASE_URL parameter sslrootcert must name a file$/],
    [`sslrootcert=${q(files.ca)}`, /^DATABASE_URL parameter sslrootcert needs sslmode=require, verify-ca or verify-full$/],
    [`sslmode=disable&sslrootcert=${q(files.ca)}`, /^DATABASE_URL parameter sslrootcert needs sslmode=/],
    [`sslmode=disable&sslcert=${q(files.cert)}&sslkey=${q(files.key)}`, /^DATABASE_URL parameter sslcert needs sslmode=/],
    [`sslmode=require&sslcert=${q(files.cert)}`, /^DATABASE_URL parameters sslcert and sslkey go together: sslkey is missing$/],
    [`sslmode=require&sslkey=${q(files.key)}`, /^DATABASE_URL parameters sslcert and sslkey go together: sslcert is missing$/],
  ])('?%s', (query, message) => {
    expect(() => parseMysqlUrl(withParams(query))).toThrow(ConfigError);
    expect(() => parseMysqlUrl(withParams(query))).toThrow(message);
  });

  it('a URL that does not parse is refused without repeating it (its password)', () => {
    const bad = 'mysql://platform:pa#ss@db.example.com:3306/platform';
    expect(() => parseMysqlUrl(bad)).toThrow(/^DATABASE_URL is not a valid URL: percent-encode @ : \/ \? # and % in the user name and password$/);
  });

  it('no message repeats the password or another parameter\'s value', () => {
    for (const query of ['ssl=s3cret', 'password=s3cret', 'sslmode=require&sslmode=s3cret']) {
      expect(refusal(() => parseMysqlUrl(withParams(query)))).not.toContain('s3cret');
    }
  });
});

describe('files that cannot be used: one line naming the parameter and the path', () => {
  const missing = path.join(dir, 'missing.pem');
  it.each([
    ['sslrootcert', `sslmode=verify-full&sslrootcert=${q(missing)}`, `DATABASE_URL parameter sslrootcert: cannot read ${missing} (ENOENT: no such file or directory)`],
    ['sslrootcert', `sslmode=verify-full&sslrootcert=${q(dir)}`, `DATABASE_URL parameter sslrootcert: cannot read ${dir} (EISDIR: illegal operation on a directory)`],
    ['sslcert', `sslmode=require&sslcert=${q(missing)}&sslkey=${q(files.key)}`, `DATABASE_URL parameter sslcert: cannot read ${missing} (ENOENT: no such file or directory)`],
    ['sslkey', `sslmode=require&sslcert=${q(files.cert)}&sslkey=${q(missing)}`, `DATABASE_URL parameter sslkey: cannot read ${missing} (ENOENT: no such file or directory)`],
  ])('%s unreadable', (_name, query, message) => {
    expect(() => parseMysqlUrl(withParams(query))).toThrow(new ConfigError(message));
  });

  it.each([
    ['no certificate in it', files.garbage],
    ['a private key instead', files.key],
  ])('sslrootcert with %s', (_what, ca) => {
    expect(() => parseMysqlUrl(withParams(`sslmode=verify-ca&sslrootcert=${q(ca)}`)))
      .toThrow(new ConfigError(`DATABASE_URL parameter sslrootcert: ${ca} holds no PEM certificate Node can read`));
  });

  it('a truncated certificate in the CA file', () => {
    const truncated = file('truncated.pem', kit.ca.cert.replace(/\n[A-Za-z0-9+/=]+\n-----END/, '\n-----END'));
    expect(() => parseMysqlUrl(withParams(`sslmode=verify-ca&sslrootcert=${q(truncated)}`))).toThrow(/^DATABASE_URL parameter sslrootcert: .* holds no PEM certificate/);
  });

  it.each([
    ['a key of another certificate', files.cert, files.otherKey, 'key values mismatch'],
    ['an encrypted key', files.cert, encryptedKey, 'bad decrypt'],
    ['the certificate as the key', files.cert, files.cert, 'unsupported'],
    ['no certificate', files.garbage, files.key, 'no start line'],
  ])('sslcert and sslkey: %s', (_what, cert, key, reason) => {
    const attempt = () => parseMysqlUrl(withParams(`sslmode=require&sslcert=${q(cert)}&sslkey=${q(key)}`));
    expect(attempt).toThrow(new ConfigError(
      `DATABASE_URL parameters sslcert and sslkey: ${cert} and ${key} are not a PEM certificate and its unencrypted private key (${reason})`,
    ));
  });

  it('no message carries a key', () => {
    for (const key of [files.otherKey, encryptedKey, files.cert]) {
      const message = refusal(() => parseMysqlUrl(withParams(`sslmode=require&sslcert=${q(files.cert)}&sslkey=${q(key)}`)));
      expect(message).not.toMatch(/PRIVATE KEY|CERTIFICATE-----|\n/);
    }
  });
});
