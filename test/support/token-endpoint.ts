/** Helpers for tests of the embedded issuer's token endpoint (docs/contract.md §1.2). */
import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { hashSecret } from '../../core/passwords';
import type { TestApp, TestTenant, TestUser } from './app';

export type Rec = Record<string, any>;
export interface TokenReply { status: number; headers: Headers; body: Rec }

export const now = () => Math.floor(Date.now() / 1000);

/** POST `{authUrl}/realms/{realm}/protocol/openid-connect/token`, form-encoded. */
export async function tokenRequest(authUrl: string, realm: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<TokenReply> {
  const res = await fetch(`${authUrl}/realms/${realm}/protocol/openid-connect/token`, { method: 'POST', body: new URLSearchParams(form), headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Rec };
}

/** `Authorization: Basic` with both parts form-encoded first, as RFC 6749 §2.3.1 asks. */
export const basic = (id: string, secret: string) =>
  ({ Authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}` });

export const passwordForm = (user: TestUser) =>
  ({ grant_type: 'password', client_id: 'self-service', username: user.email, password: user.password });
export const secretForm = (clientId: string, secret: string) =>
  ({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });

export const claimsOf = (token: string) => jwt.decode(token) as Rec;
export const kidOf = (token: string) => (jwt.decode(token, { complete: true }) as jwt.Jwt).header.kid;
export const foreignPem = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

/** A service account stored as the users resource stores one (docs/contract.md §1.2): secret and/or federated binding. */
export async function createServiceAccount(
  app: TestApp, t: TestTenant, clientId: string, o: { secret?: string; federated?: [issuer: string, subject: string]; roles?: string[] },
) {
  return app.models.User.create({
    tenantUid: t.tenant.uid, firstName: 'Service', lastName: clientId, email: `service-account-${clientId}@${t.shortName}.local`,
    serviceAccount: true, clientId, clientSecretHash: o.secret ? await hashSecret(o.secret) : null,
    federatedIssuer: o.federated?.[0] ?? null, federatedSubject: o.federated?.[1] ?? null, roles: o.roles ?? ['APPLICATION_AUTHOR'],
  });
}
