/**
 * The embedded issuer and the authenticator end to end, over in-memory stand-ins for the four models auth/ uses
 * (no database): token endpoint, JWKS, key rotation and the token attacks of docs/contract.md §1.3.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import jwt from 'jsonwebtoken';
import { ConnectionError } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../auth/authenticate';
import { issuerRouter } from '../../auth/issuer';
import { createKeyStore, type KeyStore } from '../../auth/keys';
import { hashSecret } from '../../core/passwords';
import type { Deps } from '../../core/context';
import { HttpError } from '../../core/errors';
import type { Models } from '../../models';
import { loadConfig } from '../../core/config';
import { createSecretBox } from '../../core/secret-box';

type Rec = Record<string, any>;
const byFields = (rows: Rec[]) => ({
  async findOne({ where }: { where: Rec }) { return rows.find((r) => Object.entries(where).every(([k, v]) => r[k] === v)) ?? null; },
});
/** The SigningKey calls auth/keys makes; the where clause is always "not retired". */
function signingKeyTable() {
  const rows: Rec[] = [];
  return {
    rows,
    sequelize: { transaction: async (fn: (t: unknown) => Promise<unknown>) => fn({}) },
    async findAll() { return rows.filter((r) => r.retiredAt === null || r.retiredAt.getTime() > Date.now()); },
    async update(values: Rec) { for (const r of rows) if (r.retiredAt === null) Object.assign(r, values); },
    async create(values: Rec) { rows.push({ ...values }); },
  };
}

/** The `login_failures` calls of models/login-failure, its one raw UPDATE included (it only counts here). */
function loginFailureTable() {
  const rows = new Map<string, Rec>();
  return {
    sequelize: {
      async query(_sql: string, { replacements }: { replacements: Rec }) {
        const row = rows.get(replacements.userUid);
        if (!row) return [undefined, 0];
        Object.assign(row, { failures: row.failures + 1, lastFailureAt: replacements.now });
        return [undefined, 1];
      },
    },
    async findByPk(uid: string) { return rows.get(uid) ?? null; },
    async create(values: Rec) { rows.set(values.userUid, { ...values }); return values; },
    async update() { return [0]; },
    async destroy({ where }: { where: Rec }) { return rows.delete(where.userUid) ? 1 : 0; },
  };
}

const config = loadConfig({});
const box = createSecretBox(config, { ENCRYPTION_KEY: randomBytes(32).toString('base64') });
const acme = { uid: 'a'.repeat(32), shortName: 'acme' };
const other = { uid: 'b'.repeat(32), shortName: 'other' };
const ada = {
  uid: '1'.repeat(32), tenantUid: acme.uid, firstName: 'Ada', middleName: null, lastName: 'Lovelace', email: 'Ada@Example.com',
  emailKey: 'ada@example.com', roles: ['TENANT_ADMIN'], passwordHash: '', serviceAccount: false, clientId: null,
};
const users: Rec[] = [ada];
const tenants: Rec[] = [acme, other];
const signingKeys = signingKeyTable();
const models = { Tenant: byFields(tenants), User: byFields(users), SigningKey: signingKeys, LoginFailure: loginFailureTable() } as unknown as Models;

let authUrl = '';
let server: Server;
const deps: Deps = { models, config, authUrl: () => authUrl, publicRoot: () => 'http://localhost', secrets: box, health: { stopping: () => false, newestMigration: '' } };
const keys: KeyStore = createKeyStore(models, box);
/** models/caller's one query, over the same rows. */
const callerOf = (tenantRows: Rec[], userRows: Rec[]) => async (realm: string, sub: string) => {
  const tenant = tenantRows.find((t) => t.shortName === realm);
  return tenant ? { tenant, user: userRows.find((u) => u.uid === sub && u.tenantUid === tenant.uid) ?? null } as any : null;
};
const findCaller = callerOf(tenants, users);
const authenticate = createAuthenticator({ ...deps, keys, findCaller });

beforeAll(async () => {
  ada.passwordHash = await hashSecret('pa55word!');
  const app = express().use('/auth', issuerRouter({ ...deps, keys }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  authUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const tokenUrl = (realm = 'acme') => `${authUrl}/realms/${realm}/protocol/openid-connect/token`;
async function postToken(form: Record<string, string>, headers: Record<string, string> = {}, realm = 'acme') {
  const res = await fetch(tokenUrl(realm), { method: 'POST', body: new URLSearchParams(form), headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Rec };
}
const login = (password = 'pa55word!', username = 'ADA@example.com') =>
  postToken({ grant_type: 'password', client_id: 'self-service', username, password });
const bearer = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
/** A token signed with the issuer's real key, with chosen claims: for the attacks a valid signature does not excuse. */
async function forge(claims: Rec, options: jwt.SignOptions = {}) {
  const { kid, privateKeyPem } = await keys.activeKey();
  const now = Math.floor(Date.now() / 1000);
  const payload = { iss: `${authUrl}/realms/acme`, sub: ada.uid, typ: 'Bearer', iat: now, exp: now + 300, ...claims };
  const defined = Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== undefined));
  return jwt.sign(defined, privateKeyPem, { algorithm: 'RS256', keyid: kid, ...options });
}
async function rejection(headers: Record<string, string>) {
  const err = await authenticate(headers).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(HttpError);
  expect((err as HttpError).status).toBe(401);
  return { challenge: (err as HttpError).headers['WWW-Authenticate'], reason: (err as HttpError).errors[0] };
}

describe('embedded issuer', () => {
  it('publishes discovery and JWKS per realm, and 404s an unknown realm', async () => {
    const discovery = await (await fetch(`${authUrl}/realms/acme/.well-known/openid-configuration`)).json() as Rec;
    expect(discovery).toMatchObject({ issuer: `${authUrl}/realms/acme`, token_endpoint: tokenUrl(), id_token_signing_alg_values_supported: ['RS256'] });
    const jwks = await (await fetch(discovery.jwks_uri)).json() as Rec;
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256' });
    expect(Object.keys(jwks.keys[0]).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    const missing = await fetch(`${authUrl}/realms/nope/protocol/openid-connect/certs`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'Realm does not exist' });
    expect(signingKeys.rows[0].privateKey).toMatch(/^v1:/);
  });

  it('issues tokens for the password grant, client by form or by Basic', async () => {
    const res = await login();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ expires_in: 300, token_type: 'Bearer', scope: 'openid profile email', refresh_expires_in: 1800 });
    const { header, payload } = jwt.decode(res.body.access_token, { complete: true }) as jwt.Jwt & { payload: Rec };
    expect(header).toMatchObject({ alg: 'RS256', kid: (await keys.jwks()).keys[0].kid });
    expect(payload).toMatchObject({
      iss: `${authUrl}/realms/acme`, sub: ada.uid, azp: 'self-service', typ: 'Bearer', preferred_username: ada.email,
      email: ada.email, given_name: 'Ada', family_name: 'Lovelace', name: 'Ada Lovelace', realm_access: { roles: ['TENANT_ADMIN'] },
    });
    expect(payload.exp - payload.iat).toBe(300);
    const basic = await postToken({ grant_type: 'password', username: ada.email, password: 'pa55word!' },
      { authorization: `Basic ${Buffer.from('self-service:').toString('base64')}` });
    expect(basic.status).toBe(200);
  });

  it.each([
    ['wrong password', { password: 'nope' }, 401, { error: 'invalid_grant', error_description: 'Invalid user credentials' }],
    ['unknown user', { username: 'who@example.com' }, 401, { error: 'invalid_grant', error_description: 'Invalid user credentials' }],
    ['unknown client', { client_id: 'admin-cli' }, 401, { error: 'invalid_client' }],
    ['missing password', { password: '' }, 400, { error: 'invalid_request' }],
    ['missing client', { client_id: '' }, 400, { error: 'invalid_request' }],
    ['other grant', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code' }, 400, { error: 'unsupported_grant_type' }],
  ])('answers OAuth errors: %s', async (_name, change, status, body) => {
    const res = await postToken({ grant_type: 'password', client_id: 'self-service', username: ada.email, password: 'pa55word!', ...change });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject(body);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('does not log in a user of another realm', async () => {
    expect((await postToken({ grant_type: 'password', client_id: 'self-service', username: ada.email, password: 'pa55word!' }, {}, 'other')).status).toBe(401);
  });
});

describe('authenticate', () => {
  it('resolves the principal with the roles stored in the database, not the token', async () => {
    const { body } = await login();
    ada.roles = ['STREAM_AUTHOR'];
    try {
      const principal = await authenticate(bearer(body.access_token, { Realm: 'ACME' }));
      expect(principal).toMatchObject({ tenant: acme, user: ada, email: ada.email, fullName: 'Ada Lovelace' });
      expect([...principal.roles]).toEqual(['STREAM_AUTHOR']);
    } finally {
      ada.roles = ['TENANT_ADMIN'];
    }
  });

  it('a token already verified (cached) still answers to the database: demoted, deleted user, gone tenant', async () => {
    const token = await forge({});
    expect([...(await authenticate(bearer(token))).roles]).toEqual(['TENANT_ADMIN']);
    ada.roles = ['STREAM_AUTHOR'];
    try {
      expect([...(await authenticate(bearer(token))).roles]).toEqual(['STREAM_AUTHOR']);
    } finally {
      ada.roles = ['TENANT_ADMIN'];
    }
    users.splice(users.indexOf(ada), 1);
    try {
      expect((await rejection(bearer(token))).reason).toBe('Unknown user');
    } finally {
      users.push(ada);
    }
    tenants.splice(tenants.indexOf(acme), 1);
    try {
      expect((await rejection(bearer(token))).reason).toBe('Unknown realm');
    } finally {
      tenants.push(acme);
    }
    expect((await rejection(bearer(token, { Realm: 'other' }))).reason).toBe('Token realm does not match the Realm header');
    await expect(authenticate(bearer(token))).resolves.toBeDefined();
  });

  it('accepts a token up to 30 s past its expiry', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(authenticate(bearer(await forge({ iat: now - 320, exp: now - 20 })))).resolves.toBeDefined();
  });

  it('answers 401 without invalid_token when no bearer token is sent', async () => {
    expect((await rejection({})).challenge).toBe('Bearer');
    expect((await rejection({ authorization: 'Basic c2VsZi1zZXJ2aWNlOg==' })).challenge).toBe('Bearer');
  });

  it.each<[string, string, () => Promise<string>]>([
    ['garbage', 'Malformed token', async () => 'not.a.jwt'],
    ['alg none', 'Unsupported token algorithm', async () => jwt.sign({ iss: `${authUrl}/realms/acme`, sub: ada.uid, typ: 'Bearer', exp: 9e9 }, '', { algorithm: 'none' })],
    ['HS256 keyed with the public key', 'Unsupported token algorithm', async () => {
      const { keys: [k] } = await keys.jwks();
      return jwt.sign({ iss: `${authUrl}/realms/acme`, sub: ada.uid, typ: 'Bearer', exp: 9e9 }, JSON.stringify(k), { algorithm: 'HS256', keyid: k.kid });
    }],
    ['foreign key under our kid', 'Invalid token', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const now = Math.floor(Date.now() / 1000);
      return jwt.sign({ iss: `${authUrl}/realms/acme`, sub: ada.uid, typ: 'Bearer', exp: now + 60 }, privateKey, { algorithm: 'RS256', keyid: (await keys.activeKey()).kid });
    }],
    ['unknown kid', 'Unknown signing key', () => forge({}, { keyid: 'no-such-key' })],
    ['issuer on another host', 'Unknown token issuer', () => forge({ iss: 'http://evil.example/auth/realms/acme' })],
    ['issuer with a nested path', 'Unknown token issuer', () => forge({ iss: `${authUrl}/realms/acme/x` })],
    ['realm of no tenant', 'Unknown realm', () => forge({ iss: `${authUrl}/realms/ghost` })],
    ['expired beyond leeway', 'Token expired', () => forge({ iat: 1, exp: Math.floor(Date.now() / 1000) - 31 })],
    ['not yet valid', 'Token not yet valid', () => forge({ nbf: Math.floor(Date.now() / 1000) + 120 })],
    ['no expiry', 'Token has no expiry', () => forge({ exp: undefined })],
    ['refresh token', 'Not an access token', async () => (await login()).body.refresh_token],
    ['deleted user', 'Unknown user', () => forge({ sub: '9'.repeat(32) })],
    ['user of another tenant', 'Unknown user', () => forge({ iss: `${authUrl}/realms/other` })],
  ])('rejects %s with 401 invalid_token (%s)', async (_name, reason, token) => {
    expect(await rejection(bearer(await token()))).toEqual({ challenge: 'Bearer error="invalid_token"', reason });
  });

  it('rejects a Realm header naming another realm', async () => {
    expect(await rejection(bearer(await forge({}), { ReAlM: 'other' })))
      .toEqual({ challenge: 'Bearer error="invalid_token"', reason: 'Token realm does not match the Realm header' });
  });

  it('lets a database outage through instead of answering 401', async () => {
    const down = async () => { throw new ConnectionError(new Error('connection refused')); };
    const err = await createAuthenticator({ ...deps, keys, findCaller: down })(bearer(await forge({}))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
  });
});

describe('key store', () => {
  it('keeps verifying tokens of the previous key after rotation', async () => {
    const before = await forge({});
    const oldKid = (await keys.activeKey()).kid;
    await keys.rotate();
    expect((await keys.activeKey()).kid).not.toBe(oldKid);
    expect((await keys.jwks()).keys.map((k) => k.kid)).toContain(oldKid);
    await expect(authenticate(bearer(before))).resolves.toBeDefined();
    await expect(authenticate(bearer(await forge({})))).resolves.toBeDefined();
  });

  it('makes the first key once even when a read that began before it was written ends after it', async () => {
    const table = signingKeyTable();
    const store = createKeyStore({ ...models, SigningKey: table } as unknown as Models, box);
    const readAll = table.findAll;
    let holdNextRead = false;
    table.findAll = async () => {
      const snapshot = await readAll();
      if (holdNextRead) {
        holdNextRead = false;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return snapshot;
    };
    const write = table.create;
    let concurrent: Promise<unknown> | undefined;
    table.create = async (values: Rec) => {
      holdNextRead = true;
      concurrent = store.jwks();
      await new Promise((resolve) => setTimeout(resolve, 20)); // the other read has taken its snapshot
      await write(values);
    };
    const first = await store.activeKey();
    const published = (await concurrent) as { keys: { kid: string }[] };
    expect(published.keys.map((k) => k.kid)).toEqual([first.kid]);
    await new Promise((resolve) => setTimeout(resolve, 150)); // the stale read has ended
    expect((await store.activeKey()).kid).toBe(first.kid);
    expect(table.rows).toHaveLength(1);
  });

  it("sees another process's new key on a forced re-read even right after a read, and reads at most once per second however many ask", async () => {
    const table = signingKeyTable();
    const shared = { ...models, SigningKey: table } as unknown as Models;
    const here = createKeyStore(shared, box);
    const first = await here.activeKey();
    const readAll = table.findAll;
    let reads = 0;
    table.findAll = async () => { reads += 1; return readAll(); };
    await createKeyStore(shared, box).rotate();
    const rotated = table.rows.find((r) => r.retiredAt === null)!.kid as string;
    reads = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, () => here.jwks({ refresh: true })));
    for (const a of answers) expect(a.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([first.kid, rotated]));
    expect(reads).toBe(1);
  });

  it('keeps both keys when two processes create the first one at once, and each verifies the other', async () => {
    const table = signingKeyTable();
    const shared = { ...models, SigningKey: table } as unknown as Models;
    const [a, b] = [createKeyStore(shared, box), createKeyStore(shared, box)];
    const [ka, kb] = await Promise.all([a.activeKey(), b.activeKey()]);
    expect(table.rows).toHaveLength(2);
    expect(ka.kid).not.toBe(kb.kid);
    const now = Math.floor(Date.now() / 1000);
    const fromA = jwt.sign({ iss: `${authUrl}/realms/acme`, sub: ada.uid, typ: 'Bearer', exp: now + 60 }, ka.privateKeyPem, { algorithm: 'RS256', keyid: ka.kid });
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the key store's re-read rate limit
    await expect(createAuthenticator({ ...deps, models: shared, keys: b, findCaller })(bearer(fromA))).resolves.toBeDefined();
  });
});
