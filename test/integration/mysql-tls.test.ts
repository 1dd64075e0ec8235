/**
 * TLS to the MySQL family as DATABASE_URL asks for it (models/mysql-url), through both drivers, against a MariaDB of
 * the test's own that refuses plain connections (`require_secure_transport=ON`), its certificate issued for
 * `localhost` by a CA the openssl CLI makes now. Runs with `npm run test:mariadb` (and test:galera), where MariaDB is
 * installed; skipped on PostgreSQL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dialectOf, openDatabase } from '../../models/db';
import { certificateKit, type CertificateKit } from '../support/certificates';
import { startMariadb, type MariadbServer } from '../support/mariadb-server';

const mysqlFamily = dialectOf(inject('databaseUrl')) !== 'postgres';

describe.skipIf(!mysqlFamily)('TLS to a MariaDB that requires it', () => {
  let kit: CertificateKit;
  let stranger: CertificateKit;
  let server: MariadbServer;
  let certDir = '';
  /** PEM files: the CA and the server's certificate (for localhost only), another CA, a client certificate. */
  const files = { ca: '', serverCert: '', serverKey: '', wrongCa: '', clientCert: '', clientKey: '' };

  beforeAll(async () => {
    kit = certificateKit();
    stranger = certificateKit();
    const serverLeaf = kit.server('DNS:localhost');
    const client = kit.leaf('/CN=platform');
    const pems = { ca: kit.ca.cert, serverCert: serverLeaf.cert, serverKey: serverLeaf.key, wrongCa: stranger.ca.cert, clientCert: client.cert, clientKey: client.key };
    certDir = mkdtempSync(path.join(tmpdir(), 'mysql-tls-'));
    for (const [name, pem] of Object.entries(pems)) {
      files[name as keyof typeof files] = path.join(certDir, `${name}.pem`);
      writeFileSync(files[name as keyof typeof files], pem);
    }
    server = await startMariadb([`--ssl-cert=${files.serverCert}`, `--ssl-key=${files.serverKey}`, `--ssl-ca=${files.ca}`, '--require-secure-transport=ON']);
    await server.sql("CREATE USER 'cert'@'127.0.0.1' REQUIRE X509; GRANT USAGE ON *.* TO 'cert'@'127.0.0.1';");
  });

  afterAll(async () => {
    await server?.stop();
    kit?.cleanup();
    stranger?.cleanup();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  });

  describe.each(['mariadb', 'mysql'] as const)('through the %s driver', (scheme) => {
    const url = (query: string, o: { user?: string; host?: string } = {}) =>
      `${scheme}://${o.user ?? 'pms:pms'}@${o.host ?? 'localhost'}:${server.port}/${query ? `?${query}` : ''}`;
    const q = encodeURIComponent;

    it('sslmode=verify-full with sslrootcert: connects over TLS, the server\'s name and chain checked', async () => {
      const session = await connect(url(`sslmode=verify-full&sslrootcert=${q(files.ca)}`));
      expect(session.cipher).not.toBe('');
      expect(session.user).toBe('pms@127.0.0.1');
    });

    it('without sslmode: the server refuses the plain connection (MariaDB answers it as a denied sign-in)', async () => {
      await expect(connect(url(''))).rejects.toThrow(/Access denied for user 'pms'/);
      await expect(connect(url('sslmode=disable'))).rejects.toThrow(/Access denied for user 'pms'/);
    });

    it('verify-full against another CA: refused before the password is sent', async () => {
      await expect(connect(url(`sslmode=verify-full&sslrootcert=${q(files.wrongCa)}`))).rejects.toThrow(/certificate/i);
    });

    it('verify-full without sslrootcert: Node\'s CA store does not know the test CA, so refused', async () => {
      await expect(connect(url('sslmode=verify-full'))).rejects.toThrow(/certificate/i);
    });

    it('verify-full to an address the certificate lacks (127.0.0.1): refused; verify-ca checks only the chain and connects', async () => {
      // mariadb checks the address against the certificate; mysql2 would check the name localhost, so it is refused at once.
      const refusal = scheme === 'mariadb' ? /IP: 127\.0\.0\.1 is not in the cert's list/ : /^DATABASE_URL host 127\.0\.0\.1 is an IP address/;
      await expect(connect(url(`sslmode=verify-full&sslrootcert=${q(files.ca)}`, { host: '127.0.0.1' }))).rejects.toThrow(refusal);
      const session = await connect(url(`sslmode=verify-ca&sslrootcert=${q(files.ca)}`, { host: '127.0.0.1' }));
      expect(session.cipher).not.toBe('');
    });

    it('require: TLS without checks; with sslrootcert it checks the chain (libpq\'s rule)', async () => {
      expect((await connect(url('sslmode=require'))).cipher).not.toBe('');
      expect((await connect(url(`sslmode=require&sslrootcert=${q(files.ca)}`, { host: '127.0.0.1' }))).cipher).not.toBe('');
      await expect(connect(url(`sslmode=require&sslrootcert=${q(files.wrongCa)}`))).rejects.toThrow(/certificate/i);
    });

    it('sslcert and sslkey: a user REQUIRE X509 signs in with the client certificate, and not without it', async () => {
      const session = await connect(url(`sslmode=verify-full&sslrootcert=${q(files.ca)}&sslcert=${q(files.clientCert)}&sslkey=${q(files.clientKey)}`, { user: 'cert' }));
      expect(session.user).toBe('cert@127.0.0.1');
      await expect(connect(url(`sslmode=verify-full&sslrootcert=${q(files.ca)}`, { user: 'cert' }))).rejects.toThrow(/Access denied/);
    });
  });
});

/** Opens a pool on `url` the way the service does, reads who and how it is connected, and closes it. */
async function connect(url: string): Promise<{ user: string; cipher: string }> {
  const sequelize = await Promise.resolve().then(() => openDatabase(url, { pool: { max: 1, min: 0, idle: 1_000, acquire: 10_000 } }));
  try {
    const [rows] = await sequelize.query(
      "SELECT CURRENT_USER() AS user, (SELECT VARIABLE_VALUE FROM information_schema.SESSION_STATUS WHERE VARIABLE_NAME = 'SSL_CIPHER') AS cipher",
    );
    const [row] = rows as Array<{ user: string; cipher: string | null }>;
    return { user: row.user, cipher: row.cipher ?? '' };
  } finally {
    await sequelize.close();
  }
}
