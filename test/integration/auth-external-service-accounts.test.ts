/**
 * External IdP mode and service accounts: Keycloak's client_credentials tokens (`preferred_username:
 * service-account-{clientId}`, client in `azp`, no email) map to the tenant's service account of that client —
 * linked when a tenant admin registered it, created just in time otherwise. Credentials are Keycloak's: the
 * platform refuses to store passwords or secrets in this mode.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { auditActions } from '../support/audit';
import { call } from '../support/http';
import { startExternalIssuer, type ExternalIssuer } from '../support/external-issuer';

let issuer: ExternalIssuer;
let app: TestApp;
let t: TestTenant;
let adminToken: string;

const now = () => Math.floor(Date.now() / 1000);
const hex = () => randomBytes(3).toString('hex');
const iss = () => `${issuer.url}/realms/${t.shortName}`;

/** A Keycloak service-account access token of client `clientId`. */
const clientToken = (clientId: string, roles: string[] = [], sub = randomUUID()) => issuer.sign({
  iss: iss(), sub, typ: 'Bearer', azp: clientId, exp: now() + 300, preferred_username: `service-account-${clientId}`,
  realm_access: { roles: ['offline_access', ...roles] },
});

beforeAll(async () => {
  issuer = await startExternalIssuer();
  ({ app, t } = await startWithTenant('ext-sa', { externalAuthUrl: issuer.url }));
  adminToken = issuer.sign({
    iss: iss(), sub: randomUUID(), typ: 'Bearer', azp: 'self-service', exp: now() + 300, email: `admin-${hex()}@ext.example`,
    email_verified: true, given_name: 'Tenant', family_name: 'Admin', realm_access: { roles: ['TENANT_ADMIN'] },
  });
  if ((await call(app, 'GET', '/user', { token: adminToken })).status !== 200) throw new Error('setup failed');
});
afterAll(async () => {
  await app?.stop();
  await issuer?.close();
});

describe('Keycloak service accounts in external IdP mode', () => {
  it('an unknown client becomes a service account just in time, without needing an email claim', async () => {
    const clientId = `ci-${hex()}`;
    const token = clientToken(clientId, ['APPLICATION_AUTHOR']);
    const me = await call(app, 'GET', '/user', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      serviceAccount: true, clientId, firstName: clientId, lastName: 'Service Account',
      emailAddress: { email: `service-account-${clientId}@${t.shortName}.local` }, roles: [{ name: 'APPLICATION_AUTHOR' }],
    });
    expect((await call(app, 'GET', '/user', { token: clientToken(clientId) })).body.uid).toBe(me.body.uid);
  });

  it('a service account a tenant admin registered is linked to the client on its first token, keeping its roles', async () => {
    const clientId = `pre-${hex()}`;
    const created = await call(app, 'POST', '/users', { token: adminToken, body: { clientId, roles: [{ name: 'STREAM_AUTHOR' }] } });
    expect(created.status).toBe(201);
    expect(created.body.clientSecret).toBeUndefined();
    const me = await call(app, 'GET', '/user', { token: clientToken(clientId, ['TENANT_ADMIN']) });
    expect(me.status).toBe(200);
    expect(me.body.uid).toBe(created.body.uid);
    expect(me.body.roles).toEqual([{ name: 'STREAM_AUTHOR' }]);
    const actions = await auditActions(app, created.body.uid);
    expect(actions).toEqual(['CREATED', 'UPDATED']);
  });

  it.each([
    ['a password', { firstName: 'P', lastName: 'Q', emailAddress: 'pq@ext.example', password: 'long-enough-1' }, 'password'],
    ['a client secret', { clientId: 'with-secret', clientSecret: 'long-enough-secret' }, 'clientSecret'],
    ['a federated identity', { clientId: 'with-fed', federatedIssuer: 'https://wi.example', federatedSubject: 'x' }, 'federatedIssuer'],
  ])('refuses to store %s (the IdP keeps credentials)', async (_what, body, field) => {
    const res = await call(app, 'POST', '/users', { token: adminToken, body });
    expect(res.status).toBe(400);
    expect(res.body.errors).toContain(`${field}: is kept by the identity provider (AUTH_URL), not here`);
  });
});
