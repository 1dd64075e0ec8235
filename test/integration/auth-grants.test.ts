/**
 * The embedded issuer's client_credentials grant over HTTP against the real app and database (docs/contract.md §1.2):
 * service accounts by client secret (form or Basic) and federated by a trusted issuer's client assertion, every
 * failure's status and OAuth error, tenant separation, and discovery. Refresh tokens and keys: auth-refresh.test.ts.
 */
import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuerOf } from '../../auth/tokens';
import { startExternalIssuer, type ExternalIssuer } from '../support/external-issuer';
import { createTenant, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { call } from '../support/http';
import { basic, claimsOf, createServiceAccount, now, secretForm, tokenRequest, type Rec } from '../support/token-endpoint';

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

let app: TestApp;
let idp: ExternalIssuer; // trusted, no audience
let idpDown: ExternalIssuer; // trusted, for the outage case
let a: TestTenant;
let b: TestTenant;
const AUD_ISSUER = 'https://ci.example/aud'; // trusted with audience "pms", keys at idp's JWKS
const SECRET = 'se:cr+et%/ x'; // characters that Basic must form-encode

beforeAll(async () => {
  [idp, idpDown] = await Promise.all([startExternalIssuer(), startExternalIssuer()]);
  app = await startTestApp({
    trustedIssuers: [
      { issuer: idp.url, jwksUri: idp.jwksUri },
      { issuer: AUD_ISSUER, jwksUri: idp.jwksUri, audience: ['pms'] },
      { issuer: idpDown.url, jwksUri: idpDown.jwksUri },
    ],
  });
  a = await createTenant(app, 'grants-a');
  b = await createTenant(app, 'grants-b');
  await serviceAccount(a, 'ci-bot', { secret: SECRET, roles: ['STREAM_ADMIN'] });
  await serviceAccount(b, 'ci-bot', { secret: 'secret-of-b' });
  await serviceAccount(b, 'b-only', { secret: 'secret-of-b' });
  await serviceAccount(a, 'fed-bot', { federated: [idp.url, 'repo:acme/pipeline'] });
  await serviceAccount(a, 'aud-bot', { federated: [AUD_ISSUER, 'repo:acme/aud'] });
  await serviceAccount(a, 'dual-bot', { secret: 'dual-secret', federated: [idp.url, 'repo:acme/dual'] });
  await serviceAccount(a, 'down-bot', { federated: [idpDown.url, 'repo:acme/down'] });
  await serviceAccount(b, 'b-fed-bot', { federated: [idp.url, 'repo:b/only'] });
});
afterAll(async () => {
  await app?.stop();
  await Promise.all([idp?.close(), idpDown?.close()]);
});

const serviceAccount = (t: TestTenant, clientId: string, o: Parameters<typeof createServiceAccount>[3]) => createServiceAccount(app, t, clientId, o);
const token = (realm: string, form: Record<string, string>, headers: Record<string, string> = {}) => tokenRequest(app.authUrl, realm, form, headers);
const assertionForm = (assertion: string, extra: Record<string, string> = {}) =>
  ({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER, client_assertion: assertion, ...extra });
/** An assertion of `issuer` (default: idp) for `sub`, valid for a minute unless claims say otherwise. */
function assertion(sub: string, claims: Rec = {}, options: jwt.SignOptions = {}, issuer: ExternalIssuer = idp) {
  const payload = Object.fromEntries(Object.entries({ iss: issuer.url, sub, iat: now(), exp: now() + 60, ...claims }).filter(([, v]) => v !== undefined));
  return issuer.sign(payload, options);
}

/** The reply and access token every service-account success must have (docs/contract.md §1.2). */
async function expectServiceAccountToken(res: { status: number; body: Rec }, t: TestTenant, clientId: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
  expect(res.body).toMatchObject({ expires_in: 300, token_type: 'Bearer' });
  const claims = claimsOf(res.body.access_token);
  const user = await app.models.User.findOne({ where: { tenantUid: t.tenant.uid, clientId } });
  expect(claims).toMatchObject({
    iss: issuerOf(app.authUrl, t.shortName), sub: user!.uid, azp: clientId, typ: 'Bearer',
    preferred_username: `service-account-${clientId}`, email: `service-account-${clientId}@${t.shortName}.local`,
    realm_access: { roles: user!.roles },
  });
  expect(claims.exp - claims.iat).toBe(300);
  const tenant = await call(app, 'GET', '/tenant', { token: res.body.access_token, headers: { realm: t.shortName } });
  expect(tenant.status).toBe(200);
  expect(tenant.body.shortName).toBe(t.shortName);
  return claims;
}

describe('discovery', () => {
  it('lists every grant and the private_key_jwt client authentication', async () => {
    const doc = await (await fetch(`${app.authUrl}/realms/${a.shortName}/.well-known/openid-configuration`)).json() as Rec;
    expect([...doc.grant_types_supported].sort()).toEqual(['authorization_code', 'client_credentials', 'password', 'refresh_token']);
    expect(doc.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'private_key_jwt']));
  });
});

describe('client_credentials with a client secret', () => {
  it.each([
    ['form', secretForm('ci-bot', SECRET), {}],
    ['HTTP Basic', { grant_type: 'client_credentials' }, basic('ci-bot', SECRET)],
    ['HTTP Basic with the client_id repeated in the form', { grant_type: 'client_credentials', client_id: 'ci-bot' }, basic('ci-bot', SECRET)],
  ])('by %s → an access token only, of the service account, that opens the API', async (_how, form, headers) => {
    await expectServiceAccountToken(await token(a.shortName, form, headers), a, 'ci-bot');
  });

  it.each<[string, Record<string, string>, Record<string, string>, number, string]>([
    ['wrong secret', secretForm('ci-bot', 'nope'), {}, 401, 'invalid_client'],
    ['unknown client', secretForm('ghost', SECRET), {}, 401, 'invalid_client'],
    ['no secret', { grant_type: 'client_credentials', client_id: 'ci-bot' }, {}, 401, 'invalid_client'],
    ['the secret of the same client id in tenant B', secretForm('ci-bot', 'secret-of-b'), {}, 401, 'invalid_client'],
    ['a client of tenant B only', secretForm('b-only', 'secret-of-b'), {}, 401, 'invalid_client'],
    ['a federated-only service account with a secret', secretForm('fed-bot', 'anything'), {}, 401, 'invalid_client'],
    ['wrong secret by Basic', { grant_type: 'client_credentials' }, basic('ci-bot', 'nope'), 401, 'invalid_client'],
    ['the public client self-service', { grant_type: 'client_credentials', client_id: 'self-service' }, {}, 401, 'unauthorized_client'],
    ['self-service by Basic', { grant_type: 'client_credentials' }, basic('self-service', ''), 401, 'unauthorized_client'],
    ['no client at all', { grant_type: 'client_credentials' }, {}, 400, 'invalid_request'],
    ['a secret in the form and Basic', secretForm('ci-bot', SECRET), basic('ci-bot', SECRET), 400, 'invalid_request'],
    ['Basic and form naming different clients', { grant_type: 'client_credentials', client_id: 'dual-bot' }, basic('ci-bot', SECRET), 401, 'invalid_client'],
  ])('%s → %i %s', async (_case, form, headers, status, error) => {
    const res = await token(a.shortName, form, headers);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(error);
    expect(res.body.access_token).toBeUndefined();
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('a service account cannot use the password grant, neither as user nor as client', async () => {
    const asUser = await token(a.shortName, { grant_type: 'password', client_id: 'self-service', username: `service-account-ci-bot@${a.shortName}.local`, password: SECRET });
    expect(asUser).toMatchObject({ status: 401, body: { error: 'invalid_grant', error_description: 'Invalid user credentials' } });
    const asClient = await token(a.shortName, { ...secretForm('ci-bot', SECRET), grant_type: 'password', username: a.admin.email, password: a.admin.password });
    expect(asClient).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });
});

describe('client_credentials with a federated client assertion', () => {
  it('yields the same kind of token as a secret, for the account bound to (iss, sub) in this realm', async () => {
    const federated = await expectServiceAccountToken(await token(a.shortName, assertionForm(assertion('repo:acme/dual'))), a, 'dual-bot');
    const bySecret = await expectServiceAccountToken(await token(a.shortName, secretForm('dual-bot', 'dual-secret')), a, 'dual-bot');
    expect(Object.keys(federated).sort()).toEqual(Object.keys(bySecret).sort());
    await expectServiceAccountToken(await token(a.shortName, assertionForm(assertion('repo:acme/pipeline'), { client_id: 'fed-bot' })), a, 'fed-bot');
    await expectServiceAccountToken(await token(a.shortName, assertionForm(assertion('repo:acme/aud', { iss: AUD_ISSUER, aud: 'pms' }))), a, 'aud-bot');
  });

  it('caches the issuer keys and re-fetches them once for a new kid (issuer key rotation)', async () => {
    await token(a.shortName, assertionForm(assertion('repo:acme/pipeline'))); // key cached from here on
    const before = idp.jwksRequests();
    expect((await token(a.shortName, assertionForm(assertion('repo:acme/pipeline')))).status).toBe(200);
    expect(idp.jwksRequests()).toBe(before);
    idp.rotate();
    expect((await token(a.shortName, assertionForm(assertion('repo:acme/pipeline')))).status).toBe(200);
    expect((await token(a.shortName, assertionForm(assertion('repo:acme/pipeline')))).status).toBe(200);
    expect(idp.jwksRequests()).toBe(before + 1);
  });

  const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  it.each<[string, string, () => string]>([
    ['garbage', 'Malformed client assertion', () => 'not-a-jwt'],
    ['an untrusted issuer', 'issuer is not trusted', () => assertion('repo:acme/pipeline', { iss: 'https://untrusted.example' })],
    ['a foreign key under the issuer\'s kid', 'signature is invalid', () => jwt.sign({ iss: idp.url, sub: 'repo:acme/pipeline', exp: now() + 60 }, foreignKey,
      { algorithm: 'RS256', keyid: (jwt.decode(assertion('x'), { complete: true }) as jwt.Jwt).header.kid })],
    ['a kid the issuer does not publish', 'a key its issuer does not publish', () => assertion('repo:acme/pipeline', {}, { keyid: 'no-such-kid' })],
    ['HS256', 'must be signed with RS256', () => jwt.sign({ iss: idp.url, sub: 'repo:acme/pipeline', exp: now() + 60 }, 'shared', { algorithm: 'HS256' })],
    ['expired beyond the leeway', 'assertion expired', () => assertion('repo:acme/pipeline', { iat: now() - 600, exp: now() - 31 })],
    ['no exp', 'no expiry', () => assertion('repo:acme/pipeline', { exp: undefined })],
    ['not yet valid', 'not yet valid', () => assertion('repo:acme/pipeline', { nbf: now() + 600 })],
    ['no sub', 'no subject', () => assertion('', { sub: undefined })],
    ['a subject bound to no account', 'No service account of this realm', () => assertion('repo:acme/unknown')],
    ['a subject bound to an account of tenant B only', 'No service account of this realm', () => assertion('repo:b/only')],
    ['a bound subject from another trusted issuer', 'No service account of this realm', () => assertion('repo:acme/pipeline', { iss: AUD_ISSUER, aud: 'pms' })],
    ['the wrong audience', 'audience is not accepted', () => assertion('repo:acme/aud', { iss: AUD_ISSUER, aud: 'someone-else' })],
    ['no audience where one is configured', 'audience is not accepted', () => assertion('repo:acme/aud', { iss: AUD_ISSUER })],
  ])('%s → 400 invalid_grant (%s)', async (_case, description, make) => {
    const res = await token(a.shortName, assertionForm(make()));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    expect(res.body.error_description).toContain(description);
    expect(res.body.error_description).not.toContain(b.shortName);
    expect(res.body.error_description).not.toContain('b-fed-bot');
  });

  it('a client_id naming another account than the assertion\'s → 400 invalid_grant', async () => {
    const res = await token(a.shortName, assertionForm(assertion('repo:acme/pipeline'), { client_id: 'dual-bot' }));
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('tenant B\'s federated account gets a token in realm B but not in realm A', async () => {
    await expectServiceAccountToken(await token(b.shortName, assertionForm(assertion('repo:b/only'))), b, 'b-fed-bot');
    expect((await token(a.shortName, assertionForm(assertion('repo:b/only')))).status).toBe(400);
  });

  it.each<[string, Record<string, string>, Record<string, string>]>([
    ['another assertion type', { client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer' }, {}],
    ['an assertion without its type', { client_assertion_type: '' }, {}],
    ['a type without an assertion', { client_assertion: '' }, {}],
    ['an assertion and a client secret', { client_id: 'fed-bot', client_secret: 'x' }, {}],
    ['an assertion and Basic', {}, basic('fed-bot', 'x')],
  ])('%s → 400 invalid_request', async (_case, change, headers) => {
    const res = await token(a.shortName, { ...assertionForm(assertion('repo:acme/pipeline')), ...change }, headers);
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('an unreachable issuer key set → 502 temporarily_unavailable for a new kid; cached keys keep working', async () => {
    const down = (options: jwt.SignOptions = {}) => token(a.shortName, assertionForm(assertion('repo:acme/down', {}, options, idpDown)));
    expect((await down()).status).toBe(200); // its key is cached from here on
    idpDown.setDown(true);
    try {
      expect(await down({ keyid: 'kid-after-rotation' })).toMatchObject({ status: 502, body: { error: 'temporarily_unavailable' } });
      expect((await down()).status).toBe(200);
    } finally {
      idpDown.setDown(false);
    }
  });
});
