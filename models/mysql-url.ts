/**
 * The parameters a `mysql://` or `mariadb://` DATABASE_URL may carry: TLS in the names libpq and node-postgres read
 * (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`), turned into the driver's `ssl` option with the files read once.
 * Any other parameter, a malformed value or a file that cannot be read stops the start with a ConfigError naming it,
 * so nothing in the URL reaches a driver unchecked. No message carries the password or a key.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { createSecureContext } from 'node:tls';
import { ConfigError } from '../core/config';

/** libpq's modes without `allow` and `prefer`: the drivers cannot fall back to plain text when TLS fails. */
export const SSL_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

const PARAMETERS = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey'] as const;
type Parameter = (typeof PARAMETERS)[number];

/** What the URL asks of TLS, its files read (PEM). */
export interface MysqlTls {
  mode: SslMode;
  /** `sslrootcert`: the CAs the server's certificate must chain to, instead of Node's store. */
  ca?: string;
  /** `sslcert` and `sslkey`: the client certificate presented to the server. */
  cert?: string;
  key?: string;
}

/** The `ssl` option both drivers take (mysql2 names the host check `verifyIdentity`; mariadb passes its object to tls.connect). */
export interface DriverSsl {
  ca?: string;
  cert?: string;
  key?: string;
  rejectUnauthorized: boolean;
  verifyIdentity?: boolean;
  checkServerIdentity?: () => undefined;
}

/** The URL without its parameters (what Sequelize is given), its host, and the TLS its parameters ask for. */
export function parseMysqlUrl(url: string): { url: string; host: string; tls: MysqlTls } {
  const { host, params } = urlParts(url);
  const cut = url.search(/[?#]/);
  return { url: cut === -1 ? url : url.slice(0, cut), host, tls: mysqlTls(params) };
}

/** The driver's `ssl` option for `tls` to `host`, or undefined for a connection without TLS. */
export function driverSsl(dialect: 'mysql' | 'mariadb', tls: MysqlTls, host: string): DriverSsl | undefined {
  if (tls.mode === 'disable') return undefined;
  if (dialect === 'mysql' && tls.mode === 'verify-full' && isIP(host.replace(/^\[(.*)\]$/, '$1')) !== 0) {
    // mysql2 gives TLS no server name for an IP address, so Node checks the certificate for the name `localhost`.
    throw new ConfigError(`DATABASE_URL host ${host} is an IP address: with sslmode=verify-full, mysql:// needs the name in the server's certificate (mysql2 checks an address against the name localhost), or use mariadb://`);
  }
  const files = { ...(tls.ca && { ca: tls.ca }), ...(tls.cert && { cert: tls.cert, key: tls.key }) };
  // libpq's `require` checks the chain when it is given a root certificate, and nothing otherwise.
  const checkChain = tls.mode !== 'require' || tls.ca !== undefined;
  const checkHost = tls.mode === 'verify-full';
  if (dialect === 'mysql') return { ...files, rejectUnauthorized: checkChain, verifyIdentity: checkHost };
  return { ...files, rejectUnauthorized: checkChain, ...(!checkHost && { checkServerIdentity: () => undefined }) };
}

function urlParts(url: string): { host: string; params: Map<Parameter, string> } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('DATABASE_URL is not a valid URL: percent-encode @ : / ? # and % in the user name and password');
  }
  const found = new Map<Parameter, string>();
  for (const [name, value] of parsed.searchParams) {
    if (!(PARAMETERS as readonly string[]).includes(name)) {
      throw new ConfigError(`DATABASE_URL parameter "${name}" is not one the service reads: mysql:// and mariadb:// URLs take ${PARAMETERS.join(', ')}`);
    }
    if (found.has(name as Parameter)) throw new ConfigError(`DATABASE_URL parameter ${name} is given twice`);
    found.set(name as Parameter, value);
  }
  return { host: parsed.hostname, params: found };
}

function mysqlTls(params: Map<Parameter, string>): MysqlTls {
  const mode = sslMode(params.get('sslmode'));
  const files = (['sslrootcert', 'sslcert', 'sslkey'] as const).filter((name) => params.has(name));
  for (const name of files) {
    if (params.get(name)!.trim() === '') throw new ConfigError(`DATABASE_URL parameter ${name} must name a file`);
    if (mode === 'disable') throw new ConfigError(`DATABASE_URL parameter ${name} needs sslmode=require, verify-ca or verify-full`);
  }
  if (params.has('sslcert') !== params.has('sslkey')) {
    throw new ConfigError(`DATABASE_URL parameters sslcert and sslkey go together: ${params.has('sslcert') ? 'sslkey' : 'sslcert'} is missing`);
  }
  const tls: MysqlTls = { mode };
  const rootcert = params.get('sslrootcert');
  if (rootcert !== undefined) tls.ca = rootCertificates(rootcert);
  const certFile = params.get('sslcert');
  const keyFile = params.get('sslkey');
  if (certFile !== undefined && keyFile !== undefined) Object.assign(tls, clientCertificate(certFile, keyFile));
  return tls;
}

function sslMode(raw: string | undefined): SslMode {
  if (raw === undefined) return 'disable';
  if ((SSL_MODES as readonly string[]).includes(raw)) return raw as SslMode;
  throw new ConfigError(`DATABASE_URL parameter sslmode must be ${SSL_MODES.slice(0, -1).join(', ')} or ${SSL_MODES.at(-1)}, got "${raw}"`);
}

function readParameterFile(name: Parameter, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    // Node's message ends in the system call and the path (", open '<path>'"): the path is said once, before it.
    const reason = (err as Error).message.replace(/, \w+( '.*')?$/, '');
    throw new ConfigError(`DATABASE_URL parameter ${name}: cannot read ${file} (${reason})`);
  }
}

/** The CA file, each of its certificates parsed: a file without one would leave the chain unchecked against nothing. */
function rootCertificates(file: string): string {
  const pem = readParameterFile('sslrootcert', file);
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  try {
    if (blocks.length === 0) throw new Error('none found');
    for (const block of blocks) new X509Certificate(block);
  } catch {
    throw new ConfigError(`DATABASE_URL parameter sslrootcert: ${file} holds no PEM certificate Node can read`);
  }
  return pem;
}

/** The client certificate and its key, checked to belong together (OpenSSL's reason, never the key, in the message). */
function clientCertificate(certFile: string, keyFile: string): { cert: string; key: string } {
  const cert = readParameterFile('sslcert', certFile);
  const key = readParameterFile('sslkey', keyFile);
  try {
    createSecureContext({ cert, key });
  } catch (err) {
    const reason = (err as Error).message.replace(/^error:[0-9A-F]+:[^:]*::/, '');
    throw new ConfigError(`DATABASE_URL parameters sslcert and sslkey: ${certFile} and ${keyFile} are not a PEM certificate and its unencrypted private key (${reason})`);
  }
  return { cert, key };
}
