/**
 * What `npm start` tells its operator once it serves: on the first start the admin's password and a ready curl
 * line; on a later start that the admin exists and how to reset its password; and the token issuer clients must
 * use (the embedded issuer names itself the same whatever Host a client calls, docs/operations.md).
 */
import path from 'node:path';
import { DEFAULT_DATA_DIR, type Config } from '../core/config';
import { flushLog, logger } from '../core/logger';
import { bootstrap, findBootstrapAdmin, type Bootstrapped } from '../models/bootstrap';
import type { Models } from '../models';

export interface FirstStart {
  /** Made by this start (an empty database). */
  created: Bootstrapped | null;
  /** Otherwise the configured first-start admin, when that tenant and user still exist. */
  existing: { tenant: string; email: string } | null;
}

/** The first-start bootstrap, and on a later start the admin it made, for the banner. */
export async function firstStart(models: Models, config: Config): Promise<FirstStart> {
  const opts = { tenant: config.bootstrapTenant, email: config.bootstrapAdminEmail, password: config.bootstrapAdminPassword };
  const created = await bootstrap(models, opts);
  return { created, existing: created ? null : await findBootstrapAdmin(models, opts) };
}

export function announce(config: Config, url: string, authUrl: string, first: FirstStart, workers: number): void {
  logger.info({ url: `${url}${config.basePath}/`, authUrl, workers }, 'platform management service listening');
  const lines = config.externalAuthUrl ? externalIdp(config, first) : [...admin(config, url, authUrl, first), ...issuer(config, authUrl, first)];
  const tenant = first.created?.tenant ?? first.existing?.tenant;
  if (tenant) lines.unshift(`Portal: ${url}/?tenant=${encodeURIComponent(tenant)}  (sign in there with the admin's e-mail address and password)`);
  // The log lines leave at the end of the event loop's turn: the banner comes after them.
  flushLog();
  if (lines.length > 0) process.stdout.write(['', ...lines, ''].join('\n'));
}

function externalIdp(config: Config, { created }: FirstStart): string[] {
  if (!created) return [];
  // The identity provider owns passwords in this mode: the admin is linked on its first sign-in by verified email.
  return [
    `Created tenant '${created.tenant}' with admin ${created.email}. Tokens come from ${config.externalAuthUrl}/realms/${created.tenant};`,
    `sign in there as ${created.email} (a verified e-mail address) and that account becomes this admin.`,
  ];
}

function admin(config: Config, url: string, authUrl: string, { created, existing }: FirstStart): string[] {
  if (existing) return [`Admin ${existing.email} of tenant '${existing.tenant}' already exists; lost its password? ${resetPassword(config, shellWord(existing.email))}`];
  if (!created) return [`Lost an admin's password? ${resetPassword(config, '<email> [--tenant <shortName>]')}`];
  const tokenUrl = `${authUrl}/realms/${created.tenant}/protocol/openid-connect/token`;
  return [
    `Created tenant '${created.tenant}' with admin ${created.email} / ${created.password}  (shown only this once)`,
    'Get a token and call the API:',
    `  TOKEN=$(curl -s -d client_id=self-service -d grant_type=password -d username=${created.email} -d 'password=${created.password}' ${tokenUrl} | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
    `  curl -H "Authorization: Bearer $TOKEN" ${url}${config.basePath}/`,
  ];
}

/**
 * The reset-password command that reaches this service's database: `npm run admin` finds the embedded one in
 * DATA_DIR, so a DATA_DIR other than the default is part of the command; DATABASE_URL is not printed (it may hold
 * a password), only named.
 */
function resetPassword(config: Config, args: string): string {
  const command = `npm run admin -- reset-password ${args}`;
  if (config.databaseUrl) return `${command}  (with this service's DATABASE_URL)`;
  const dataDir = path.resolve(config.dataDir);
  return dataDir === path.resolve(DEFAULT_DATA_DIR) ? command : `DATA_DIR=${shellWord(dataDir)} ${command}`;
}

/** `word` as one shell word: single-quoted unless every character is safe bare. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

function issuer(config: Config, authUrl: string, { created, existing }: FirstStart): string[] {
  const tenant = created?.tenant ?? existing?.tenant;
  const line = tenant
    ? `Token issuer of tenant '${tenant}' (clients must use exactly this URL): ${authUrl}/realms/${tenant}`
    : `Token issuers (clients must use exactly these URLs): ${authUrl}/realms/<tenant shortName>`;
  if (config.publicUrl) return [line];
  return [line, 'PUBLIC_URL is not set, so the issuer is localhost whatever host clients call: in production set PUBLIC_URL to the URL clients reach this service at.'];
}
