import { describe, expect, it } from 'vitest';
import { hashSecret, verifySecret } from '../../core/passwords';

describe('passwords', () => {
  it('stores scrypt with its parameters, a 16-byte salt and a 64-byte key', async () => {
    const stored = await hashSecret('correct horse battery staple');
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '16384', '8', '1']);
    expect(Buffer.from(salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(hash, 'base64')).toHaveLength(64);
  });

  it('verifies the secret it hashed', async () => {
    const stored = await hashSecret('s3cret-Passw0rd');
    await expect(verifySecret('s3cret-Passw0rd', stored)).resolves.toBe(true);
  });

  it('salts every hash', async () => {
    expect(await hashSecret('same')).not.toBe(await hashSecret('same'));
  });

  it('rejects a wrong secret', async () => {
    const stored = await hashSecret('s3cret-Passw0rd');
    await expect(verifySecret('s3cret-passw0rd', stored)).resolves.toBe(false);
    await expect(verifySecret('', stored)).resolves.toBe(false);
  });

  it('rejects when the stored hash was tampered with', async () => {
    const stored = await hashSecret('s3cret-Passw0rd');
    const parts = stored.split('$');
    const hash = Buffer.from(parts[5], 'base64');
    hash[0] ^= 0x01;
    const tamperedHash = [...parts.slice(0, 5), hash.toString('base64')].join('$');
    const salt = Buffer.from(parts[4], 'base64');
    salt[0] ^= 0x01;
    const tamperedSalt = [...parts.slice(0, 4), salt.toString('base64'), parts[5]].join('$');
    await expect(verifySecret('s3cret-Passw0rd', tamperedHash)).resolves.toBe(false);
    await expect(verifySecret('s3cret-Passw0rd', tamperedSalt)).resolves.toBe(false);
  });

  it.each([
    ['null', null],
    ['empty', ''],
    ['another scheme', 'bcrypt$2b$10$abc'],
    ['too few fields', 'scrypt$16384$8$1$c2FsdA=='],
    ['N not a power of two', 'scrypt$1000$8$1$c2FsdHNhbHRzYWx0c2FsdA==$' + Buffer.alloc(64).toString('base64')],
    ['N beyond the bound', 'scrypt$4194304$8$1$c2FsdHNhbHRzYWx0c2FsdA==$' + Buffer.alloc(64).toString('base64')],
    ['short key', 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA==$AAAA'],
  ])('answers false, without throwing, for a malformed stored value (%s)', async (_name, stored) => {
    await expect(verifySecret('anything', stored)).resolves.toBe(false);
  });
});
