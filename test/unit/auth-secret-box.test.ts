import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/config';
import { checkEncryptionKey, createSecretBox } from '../../core/secret-box';

const dirs: string[] = [];
function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'secret-box-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const envKey = () => ({ ENCRYPTION_KEY: randomBytes(32).toString('base64') });
const boxWith = (env: NodeJS.ProcessEnv, dataDir = tempDataDir()) => createSecretBox({ ...loadConfig({}), dataDir }, env);

describe('secret box', () => {
  it('opens what it sealed', () => {
    const box = boxWith(envKey());
    const plain = '-----BEGIN PRIVATE KEY-----\nünïcödé ✓\n';
    const sealed = box.seal(plain);
    expect(sealed).toMatch(/^v1:[^:]+:[^:]+:[^:]+$/);
    expect(sealed).not.toContain('PRIVATE KEY');
    expect(box.open(sealed)).toBe(plain);
  });

  it('uses a fresh IV per seal', () => {
    const box = boxWith(envKey());
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses tampered ciphertext, tag or IV', () => {
    const box = boxWith(envKey());
    const [v, iv, tag, ct] = box.seal('top secret value').split(':');
    const flip = (b64: string) => {
      const bytes = Buffer.from(b64, 'base64');
      bytes[0] ^= 0x01;
      return bytes.toString('base64');
    };
    expect(() => box.open([v, iv, tag, flip(ct)].join(':'))).toThrow();
    expect(() => box.open([v, iv, flip(tag), ct].join(':'))).toThrow();
    expect(() => box.open([v, flip(iv), tag, ct].join(':'))).toThrow();
    expect(() => box.open(['v2', iv, tag, ct].join(':'))).toThrow();
    expect(() => box.open('not sealed')).toThrow();
  });

  it('cannot open with a different key', () => {
    const sealed = boxWith(envKey()).seal('top secret value');
    expect(() => boxWith(envKey()).open(sealed)).toThrow(/wrong key or tampered/);
  });

  it('rejects an ENCRYPTION_KEY that is not 32 bytes', () => {
    const box = boxWith({ ENCRYPTION_KEY: randomBytes(16).toString('base64') });
    expect(() => box.seal('x')).toThrow(/32 bytes/);
  });

  it('without ENCRYPTION_KEY, creates a private key file on first use and reuses it', () => {
    const dataDir = join(tempDataDir(), 'nested');
    const sealed = boxWith({}, dataDir).seal('kept across restarts');
    const keyFile = join(dataDir, 'secret.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(boxWith({}, dataDir).open(sealed)).toBe('kept across restarts');
  });

  it('does not create a key file until a secret is sealed or opened', () => {
    const dataDir = tempDataDir();
    boxWith({}, dataDir);
    expect(() => statSync(join(dataDir, 'secret.key'))).toThrow();
  });
});

describe('the start-up check of the encryption key', () => {
  const check = (env: NodeJS.ProcessEnv, dataDir = tempDataDir()) => () => checkEncryptionKey({ ...loadConfig({}), dataDir }, env);

  it('accepts a 32-byte ENCRYPTION_KEY, an existing key file, or no key file yet (and creates none)', () => {
    expect(check(envKey())).not.toThrow();
    const dataDir = tempDataDir();
    writeFileSync(join(dataDir, 'secret.key'), `${randomBytes(32).toString('base64')}\n`);
    expect(check({}, dataDir)).not.toThrow();
    const empty = tempDataDir();
    expect(check({}, empty)).not.toThrow();
    expect(() => statSync(join(empty, 'secret.key'))).toThrow();
  });

  it('names ENCRYPTION_KEY and the form it must have, never its value', () => {
    expect(check({ ENCRYPTION_KEY: 'hunter2' })).toThrow(ConfigError);
    expect(check({ ENCRYPTION_KEY: 'hunter2' })).toThrow(/^ENCRYPTION_KEY is not an encryption key: expected a base64-encoded key of 32 bytes \(e\.g\. `openssl rand -base64 32`\), it decodes to \d+ bytes$/);
  });

  it('names a key file that is not a key, or that cannot be read', () => {
    const dataDir = tempDataDir();
    const file = join(dataDir, 'secret.key');
    writeFileSync(file, 'short\n');
    expect(check({}, dataDir)).toThrow(`the key file ${file} is not an encryption key`);
    rmSync(file);
    mkdirSync(file);
    expect(check({}, dataDir)).toThrow(`the key file ${file} cannot be read (EISDIR): make it readable by this user, or set ENCRYPTION_KEY to a base64-encoded key of 32 bytes`);
  });
});
