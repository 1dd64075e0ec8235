import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { constants, copyFileSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from './config';

/** Symmetric encryption of secrets at rest (signing keys today, provider credentials later). */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12; // the GCM nonce size that needs no extra hashing
const TAG_BYTES = 16;

/**
 * AES-256-GCM box. The key is ENCRYPTION_KEY (base64, 32 bytes) when set, so several replicas can share it;
 * otherwise a key file in DATA_DIR, made on first use, so a single local instance needs no setup.
 */
export function createSecretBox(config: Config, env: NodeJS.ProcessEnv = process.env): SecretBox {
  let key: Buffer | undefined;
  // Resolved lazily: a process that never touches a secret must not create a key file.
  const getKey = (): Buffer => (key ??= env.ENCRYPTION_KEY ? decodeKey(env.ENCRYPTION_KEY, 'ENCRYPTION_KEY') : keyFromFile(config.dataDir));

  return {
    seal(plain: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', getKey(), iv, { authTagLength: TAG_BYTES });
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
    },
    open(sealed: string): string {
      const parts = sealed.split(':');
      if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('Not a sealed value of a known version');
      const [, ivB64, tagB64, ctB64] = parts;
      const iv = Buffer.from(ivB64, 'base64');
      const tag = Buffer.from(tagB64, 'base64');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('Malformed sealed value');
      const decipher = createDecipheriv('aes-256-gcm', getKey(), iv, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(Buffer.from(ctB64, 'base64')), decipher.final()]).toString('utf8');
      } catch {
        // Node's message ("Unsupported state or unable to authenticate data") says nothing useful to an operator.
        throw new Error('Sealed value could not be opened: wrong key or tampered data');
      }
    },
  };
}

const KEY_FORM = `a base64-encoded key of ${KEY_BYTES} bytes (e.g. \`openssl rand -base64 ${KEY_BYTES}\`)`;

function decodeKey(base64: string, source: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new ConfigError(`${source} is not an encryption key: expected ${KEY_FORM}, it decodes to ${key.length} bytes`);
  return key;
}

const keyFilePath = (dataDir: string) => join(dataDir, 'secret.key');

/** Where the key comes from, as an operator names it. */
export const encryptionKeySource = (config: Config, env: NodeJS.ProcessEnv = process.env): string =>
  (env.ENCRYPTION_KEY ? 'ENCRYPTION_KEY' : `the key file ${keyFilePath(config.dataDir)}`);

/**
 * Refuses a key that can never work, before anything is served: ENCRYPTION_KEY or an existing key file that is not
 * a key, or a key file that cannot be read. Creates nothing: a missing key file is made on first use.
 */
export function checkEncryptionKey(config: Config, env: NodeJS.ProcessEnv = process.env): void {
  if (env.ENCRYPTION_KEY) {
    decodeKey(env.ENCRYPTION_KEY, 'ENCRYPTION_KEY');
    return;
  }
  readKeyFile(keyFilePath(config.dataDir));
}

/** The key file's key, or undefined when there is no file yet. */
function readKeyFile(path: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new ConfigError(`the key file ${path} cannot be read (${code ?? (err as Error).message}): make it readable by this user, or set ENCRYPTION_KEY to ${KEY_FORM}`);
  }
  return decodeKey(text, `the key file ${path}`);
}

function keyFromFile(dataDir: string): Buffer {
  const path = keyFilePath(dataDir);
  const existing = readKeyFile(path);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Written under a private name, then linked into place: link() fails if the file exists, so two processes
  // starting together agree on one key and neither can read a half-written file.
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temp, randomBytes(KEY_BYTES).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  try {
    publishOnce(temp, path);
  } finally {
    unlinkSync(temp);
  }
  return decodeKey(readFileSync(path, 'utf8'), `the key file ${path}`);
}

/** Puts `temp` at `path` unless a key is already there (then the existing key wins). */
function publishOnce(temp: string, path: string): void {
  try {
    linkSync(temp, path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    // Some volumes (FAT, certain container mounts) have no hard links; an exclusive copy is the next best.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
    try {
      copyFileSync(temp, path, constants.COPYFILE_EXCL);
    } catch (copyErr) {
      if ((copyErr as NodeJS.ErrnoException).code !== 'EEXIST') throw copyErr;
    }
  }
}
