/**
 * SCRAM verifiers against the RFC 7677 §3 example exchange (a server holding only our StoredKey and ServerKey must
 * accept the RFC's client proof and produce its server signature), and against the openssl CLI for SHA-512, which
 * has no published vector.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  generatePassword, MAX_ITERATIONS, MIN_ITERATIONS, PASSWORD_LENGTH, scramVerifier, scramVerifierWithSalt, verifyScram,
  type ScramMechanism, type ScramVerifier,
} from '../../auth/scram';

describe('generatePassword', () => {
  it('gives 32 characters of [A-Za-z0-9], different every time', () => {
    const passwords = Array.from({ length: 1000 }, generatePassword);
    for (const p of passwords) expect(p).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(PASSWORD_LENGTH).toBe(32);
    expect(new Set(passwords).size).toBe(passwords.length);
  });

  it('uses all 62 characters about equally often', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) for (const c of generatePassword()) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 64,000 draws: about 1,032 per character with a standard deviation near 32; ±25 % is beyond 8 deviations.
    const expected = (2000 * 32) / 62;
    for (const n of counts.values()) expect(Math.abs(n - expected)).toBeLessThan(expected * 0.25);
  });
});

describe('RFC 7677 §3 example exchange (SCRAM-SHA-256, user "user", password "pencil")', () => {
  const clientFirstBare = 'n=user,r=rOprNGfwEbeRWgbNEkqO';
  const serverFirst = 'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096';
  const clientFinalWithoutProof = 'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0';
  const clientProof = Buffer.from('dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=', 'base64');
  const serverSignature = '6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=';
  const authMessage = `${clientFirstBare},${serverFirst},${clientFinalWithoutProof}`;
  const salt = Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64');

  /** RFC 5802 §3, the server's side: ClientKey = ClientProof XOR HMAC(StoredKey, AuthMessage); accept if H(ClientKey) = StoredKey. */
  function serverAccepts(v: ScramVerifier, proof: Buffer): boolean {
    const clientSignature = createHmac('sha256', Buffer.from(v.storedKey, 'base64')).update(authMessage).digest();
    const clientKey = Buffer.from(proof.map((b, i) => b ^ clientSignature[i]));
    return createHash('sha256').update(clientKey).digest('base64') === v.storedKey;
  }

  it('the verifier accepts the RFC’s client proof and yields its server signature', async () => {
    const v = await scramVerifierWithSalt('pencil', 'SCRAM-SHA-256', 4096, salt);
    expect(v).toMatchObject({ mechanism: 'SCRAM-SHA-256', iterations: 4096, salt: 'W22ZaJ0SNY7soEsUEjb6gQ==' });
    expect(serverAccepts(v, clientProof)).toBe(true);
    expect(createHmac('sha256', Buffer.from(v.serverKey, 'base64')).update(authMessage).digest('base64')).toBe(serverSignature);
  });

  it('a verifier for another password refuses the RFC’s proof', async () => {
    const v = await scramVerifierWithSalt('pencil2', 'SCRAM-SHA-256', 4096, salt);
    expect(serverAccepts(v, clientProof)).toBe(false);
  });

  it('verifyScram accepts "pencil" against the RFC’s salt', async () => {
    const v = await scramVerifierWithSalt('pencil', 'SCRAM-SHA-256', 4096, salt);
    expect(await verifyScram('pencil', v)).toBe(true);
  });
});

describe('the keys, recomputed with the openssl CLI', () => {
  const hex = (s: string) => s.replace(/^.*= ?/s, '').replace(/[:\s]/g, '').toLowerCase();
  const openssl = (args: string[], input?: Buffer | string) => execFileSync('openssl', args, { input, stdio: ['pipe', 'pipe', 'pipe'] }).toString();

  it.each([
    ['SCRAM-SHA-256', 'SHA256', 32],
    ['SCRAM-SHA-512', 'SHA512', 64],
  ] as const)('%s', async (mechanism, digest, bytes) => {
    const salt = randomBytes(16);
    const v = await scramVerifierWithSalt('Tr0ub4dor&3 pässword', mechanism, 4096, salt);
    const salted = hex(openssl(['kdf', '-keylen', String(bytes), '-kdfopt', `digest:${digest}`, '-kdfopt', 'pass:Tr0ub4dor&3 pässword', '-kdfopt', `hexsalt:${salt.toString('hex')}`, '-kdfopt', 'iter:4096', 'PBKDF2']));
    const hmac = (data: string) => hex(openssl(['mac', '-digest', digest, '-macopt', `hexkey:${salted}`, 'HMAC'], data));
    const clientKey = Buffer.from(hmac('Client Key'), 'hex');
    const storedKey = hex(openssl(['dgst', `-${digest.toLowerCase()}`, '-r'], clientKey).split(' ')[0]);
    expect(Buffer.from(v.storedKey, 'base64').toString('hex')).toBe(storedKey);
    expect(Buffer.from(v.serverKey, 'base64').toString('hex')).toBe(hmac('Server Key'));
    expect(Buffer.from(v.storedKey, 'base64')).toHaveLength(bytes);
  });
});

describe('scramVerifier', () => {
  it.each(['SCRAM-SHA-256', 'SCRAM-SHA-512'] as const)('%s: 16 fresh random salt bytes, 4096 iterations by default', async (mechanism) => {
    const a = await scramVerifier('secret', mechanism);
    const b = await scramVerifier('secret', mechanism);
    expect(a.mechanism).toBe(mechanism);
    expect(a.iterations).toBe(4096);
    expect(Buffer.from(a.salt, 'base64')).toHaveLength(16);
    expect(a.salt).not.toBe(b.salt);
    expect(a.storedKey).not.toBe(b.storedKey);
    expect(Object.keys(a).sort()).toEqual(['iterations', 'mechanism', 'salt', 'serverKey', 'storedKey']);
  });

  it('records other iteration counts within Kafka’s bounds', async () => {
    expect((await scramVerifier('secret', 'SCRAM-SHA-512', MAX_ITERATIONS)).iterations).toBe(16384);
    expect(MIN_ITERATIONS).toBe(4096);
  });

  it.each([0, 4095, 16385, 4096.5, Number.NaN])('refuses %d iterations', async (i) => {
    await expect(scramVerifier('secret', 'SCRAM-SHA-256', i)).rejects.toThrow(RangeError);
  });

  it('refuses an unknown mechanism', async () => {
    await expect(scramVerifier('secret', 'SCRAM-SHA-1' as ScramMechanism)).rejects.toThrow(/Unknown SCRAM mechanism SCRAM-SHA-1/);
  });
});

describe('verifyScram', () => {
  const password = generatePassword();
  const verifiers = Promise.all([scramVerifier(password, 'SCRAM-SHA-256'), scramVerifier(password, 'SCRAM-SHA-512')]);

  it('accepts the password for both mechanisms', async () => {
    for (const v of await verifiers) expect(await verifyScram(password, v)).toBe(true);
  });

  it.each([
    ['another password', 'x'.repeat(32)],
    ['one character more', `${password}x`],
    ['one character less', password.slice(1)],
    ['other case', password.toLowerCase() === password ? password.toUpperCase() : password.toLowerCase()],
    ['empty', ''],
  ])('refuses %s', async (_label, attempt) => {
    for (const v of await verifiers) expect(await verifyScram(attempt, v)).toBe(false);
  });

  it('takes the password as its UTF-8 bytes, without Unicode normalisation (as Kafka does)', async () => {
    const v = await scramVerifier('p\u00e4ss', 'SCRAM-SHA-256');
    expect(await verifyScram('p\u00e4ss', v)).toBe(true);
    expect(await verifyScram('pa\u0308ss', v)).toBe(false);
  });

  it('refuses a tampered or malformed verifier without throwing', async () => {
    const [v256, v512] = await verifiers;
    const flip = (b64: string) => { const b = Buffer.from(b64, 'base64'); b[0] ^= 1; return b.toString('base64'); };
    const bad: unknown[] = [
      null, undefined, 'scram', 42, {}, [],
      { ...v256, storedKey: flip(v256.storedKey) },
      { ...v256, serverKey: flip(v256.serverKey) },
      { ...v256, salt: flip(v256.salt) },
      { ...v256, iterations: 4097 },
      { ...v256, mechanism: 'SCRAM-SHA-512' },
      { ...v512, mechanism: 'SCRAM-SHA-256' },
      { ...v256, mechanism: 'SCRAM-SHA-1' },
      { ...v256, mechanism: 'constructor' },
      { ...v256, iterations: 1_000_000_000 },
      { ...v256, iterations: '4096' },
      { ...v256, salt: '' },
      { ...v256, salt: 'not base64!' },
      { ...v256, storedKey: v256.storedKey.slice(0, 8) },
      { ...v256, serverKey: undefined },
    ];
    for (const v of bad) expect(await verifyScram(password, v)).toBe(false);
    expect(await verifyScram(undefined as unknown as string, v256)).toBe(false);
  });
});
