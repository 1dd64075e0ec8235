/** What `npm start` checks before it serves, so that a start that cannot work stops with its cause. */
import net from 'node:net';
import { checkSigningKeysOpen } from '../auth/keys';
import type { Config } from '../core/config';
import { checkEncryptionKey, createSecretBox, encryptionKeySource } from '../core/secret-box';
import type { Models } from '../models';
import { recordFact } from '../models/service-fact';
import { authBase } from '../core/public-url';
import { logger } from '../core/logger';
import { assertDataDirFree } from './postgres-lock';

/**
 * Before the database: that no other service runs the embedded PostgreSQL of DATA_DIR, the encryption key, and the
 * port — a first start that made its admin and then could not open the port would never show that admin's password.
 */
export async function preflight(config: Config): Promise<void> {
  if (!config.databaseUrl) assertDataDirFree(config.dataDir);
  checkEncryptionKey(config);
  if (config.port !== 0) await checkPortFree(config.port);
}

/** Opens and closes the port as the server will (all interfaces); EADDRINUSE or EACCES is thrown as listen throws it. */
function checkPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(port, '0.0.0.0', () => probe.close(() => resolve()));
  });
}

/** After the migrations: the stored signing keys open with this process's encryption key. */
export const checkStoredKeys = (models: Models, config: Config): Promise<void> =>
  checkSigningKeysOpen(models, createSecretBox(config), encryptionKeySource(config));

/**
 * After the migrations: this host's issuer URL against the one the hosts before it recorded. Hosts that disagree
 * each refuse the others' tokens (`iss`), so a difference is said at start; it is a warning, since a single host may
 * move. Without PUBLIC_URL or AUTH_URL a host on port 0 has no URL before it listens, and records nothing.
 */
export async function checkIssuerUrl(models: Models, config: Config): Promise<void> {
  if (config.port === 0 && !config.publicUrl && !config.externalAuthUrl) return;
  const issuerBase = authBase(config, config.port);
  const before = await recordFact(models.ServiceFact, 'issuerUrl', issuerBase);
  if (before !== null) {
    logger.warn({ issuerUrl: issuerBase, recorded: before }, `issuer URL ${issuerBase} differs from ${before}, which the hosts before this one used: hosts of one service need the same PUBLIC_URL (and AUTH_URL), or each refuses the tokens the others issue`);
  }
}
