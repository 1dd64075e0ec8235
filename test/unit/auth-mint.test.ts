/** Refresh-token lifetime of mintTokens: the refresh grant never extends a login past its first expiry. */
import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import type { KeyStore } from '../../auth/keys';
import { mintTokens, REFRESH_TOKEN_TTL } from '../../auth/tokens';
import type { Row } from '../../models/define';

const privateKeyPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const keys = { activeKey: async () => ({ kid: 'k1', privateKeyPem }) } as unknown as KeyStore;
const user = { uid: 'u'.repeat(32), email: 'a@b.c', firstName: 'A', lastName: 'B', roles: [], serviceAccount: false } as unknown as Row;
const mint = (refreshExpiresAt?: number, withRefreshToken = true) =>
  mintTokens({ keys, authUrl: 'http://x/auth', realm: 'r', user, clientId: 'self-service', withRefreshToken, refreshExpiresAt });
const expOf = (token: string) => (jwt.decode(token) as { exp: number; iat: number });

describe('mintTokens refresh lifetime', () => {
  it('defaults to 1800 s', async () => {
    const res = await mint();
    const { exp, iat } = expOf(res.refresh_token!);
    expect([exp - iat, res.refresh_expires_in]).toEqual([REFRESH_TOKEN_TTL, REFRESH_TOKEN_TTL]);
  });

  it('keeps an earlier expiry and reports the time left', async () => {
    const at = Math.floor(Date.now() / 1000) + 120;
    const res = await mint(at);
    expect(expOf(res.refresh_token!).exp).toBe(at);
    expect(res.refresh_expires_in).toBe(at - expOf(res.refresh_token!).iat);
  });

  it('never goes beyond 1800 s, whatever is asked', async () => {
    const res = await mint(Math.floor(Date.now() / 1000) + 10 * REFRESH_TOKEN_TTL);
    expect(res.refresh_expires_in).toBe(REFRESH_TOKEN_TTL);
  });

  it('issues no refresh token for client_credentials', async () => {
    const res = await mint(undefined, false);
    expect(res).not.toHaveProperty('refresh_token');
    expect(res).not.toHaveProperty('refresh_expires_in');
  });
});
