/**
 * Application principals end to end (docs/contract.md §5.11, §6.3, §7, §7.1, §8, §11.6, §11.11): the one-element-array
 * POST and its JSON-string reply; what is stored from a certificate chain (RFC 4514 DN, chain, expiry,
 * fingerprint as openssl computes it) or a custom string; private keys (Connector only, must match, sealed in the
 * database, never shown in a reply or audit row); duplicates per environment; activation of Connector principals
 * (also ten at once); PATCH and DELETE; who may see, edit and create; the searches; `GET /auth` against the links;
 * the audit rows; and, in the last block, the calls exactly as the Axual Terraform provider makes them.
 * Every certificate and key is made by openssl at test time (test/support/certificates.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { auditOf } from '../support/audit';
import { expectError } from '../support/errors';
import { newApplication, type ApplicationKind } from '../support/fixtures';
import { authAnswer, call, created, expectStatus, type CallResult } from '../support/http';
import { certificateKit, type CertificateKit, type TestLeaf } from '../support/certificates';
import { goOk, queryEscape, terraformCall } from '../support/terraform-client';

const P = '/application_principals';
const DUPLICATE = 'errmsg.duplicate.principal';
const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const UID = /^[0-9a-f]{32}$/;

let app: TestApp;
let t: TestTenant;
let kit: CertificateKit;
/** APPLICATION_AUTHOR, member of appTeam (owns the applications). */
let appOwner: TestUser;
/** ENVIRONMENT_AUTHOR, member of envTeam (owns envA, not envB). */
let envOwner: TestUser;
/** APPLICATION_AUTHOR + ENVIRONMENT_AUTHOR in a group that owns nothing here. */
let stranger: TestUser;
/** APPLICATION_ADMIN without any group. */
let appAdmin: TestUser;
let appTeam: any;
let envTeam: any;
/** The tenant admin's group: owns envB and the stream. */
let platform: any;
let instance: any;
let envA: any;
let envB: any;
/** A Connector application and a Custom one, both of appTeam. */
let connector: any;
let custom: any;
let n = 0;
let subjects = 0;

beforeAll(async () => {
  kit = certificateKit();
  ({ app, t } = await startWithTenant('princ'));
  appOwner = await createUser(app, t, ['APPLICATION_AUTHOR'], 'appowner');
  envOwner = await createUser(app, t, ['ENVIRONMENT_AUTHOR'], 'envowner');
  stranger = await createUser(app, t, ['APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR'], 'stranger');
  appAdmin = await createUser(app, t, ['APPLICATION_ADMIN'], 'appadmin');
  appTeam = await adminPost('/groups', { name: 'pr App Team', members: [appOwner.user.uid] });
  envTeam = await adminPost('/groups', { name: 'pr Env Team', members: [envOwner.user.uid] });
  platform = await adminPost('/groups', { name: 'pr Platform', members: [t.admin.user.uid] });
  await adminPost('/groups', { name: 'pr Strangers', members: [stranger.user.uid] });
  instance = await adminPost('/instances', { name: 'pr Instance', shortName: 'prinst' });
  envA = await adminPost('/environments', { name: 'pr-a', shortName: 'pra', instance: instance.uid, owners: envTeam.uid });
  envB = await adminPost('/environments', { name: 'pr-b', shortName: 'prb', instance: instance.uid, owners: platform.uid });
  connector = await freshApp('Connector');
  custom = await freshApp('Custom');
}, 120_000);

afterAll(async () => {
  kit?.cleanup();
  await app?.stop();
});

// ---------------------------------------------------------------------------------------------------------------
// helpers

const adminPost = (path: string, body: unknown) => created(app, path, body, t.admin.token);
const freshApp = (kind: ApplicationKind) => newApplication(app, appOwner.token, { tag: 'pr', owners: appTeam.uid, kind });

/** A leaf with a subject of its own (the fingerprint is unique anyway; the subject makes failures readable). */
const leaf = (o: { keyType?: 'rsa' | 'ec'; key?: string } = {}): TestLeaf => kit.leaf(`/C=NL/O=Org/OU=Team/CN=pr-${++subjects}`, o);

const post = (body: unknown, token = appOwner.token) => call(app, 'POST', P, { token, body });
const get = (uid: string, token = appOwner.token) => call(app, 'GET', `${P}/${uid}`, { token });
const patch = (uid: string, body: unknown, token = appOwner.token) => call(app, 'PATCH', `${P}/${uid}`, { token, body });
const remove = (uid: string, token = appOwner.token) => call(app, 'DELETE', `${P}/${uid}`, { token });
const activate = (uid: string, token = appOwner.token) => call(app, 'POST', `/application_authentications/${uid}/activate`, { token });
const search = (query: string, token = appOwner.token) => call(app, 'GET', `${P}/search/${query}`, { token });
const items = (res: CallResult) => res.body._embedded.application_principals as any[];

const uidOf = (location: string) => location.replace(`${app.api}${P}/`, '');

interface Element { principal: unknown; application?: any; environment?: any; privateKey?: unknown; custom?: boolean }
const element = (e: Element) => ({
  principal: e.principal, application: (e.application ?? custom).uid, environment: (e.environment ?? envA).uid,
  ...(e.privateKey === undefined ? {} : { privateKey: e.privateKey }), ...(e.custom === undefined ? {} : { custom: e.custom }),
});

/** POSTs `[element]` and answers the new principal's uid. */
const createdPrincipal = async (e: Element, token = appOwner.token): Promise<string> => uidOf(expectStatus(await post([element(e)], token), 201).body);

/** 400 whose only error and sub-error name `field`; a private key is never echoed as the rejected value. */
function expectFieldRefused(res: CallResult, field: string) {
  expectError(res, 400);
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0]).toMatch(new RegExp(`^${field}: `));
  expect(res.body.subErrors).toHaveLength(1);
  expect(res.body.subErrors[0]).toMatchObject({ field, message: expect.any(String) });
  if (field === 'privateKey') expect(res.body.subErrors[0]).not.toHaveProperty('rejectedValue');
}

/** The PEM's base64 lines: none of them may appear anywhere a key must not be. */
const keyLines = (pem: string) => pem.split('\n').filter((l) => l !== '' && !l.startsWith('-----'));

/** No `privateKey` field at any depth, and no trace of the key's text. */
function expectNoKey(value: unknown, key: string, allowRedactedField = false) {
  const text = JSON.stringify(value) ?? '';
  expect(text).not.toContain('PRIVATE KEY');
  for (const line of keyLines(key)) expect(text).not.toContain(line);
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'privateKey') {
          if (!allowRedactedField) throw new Error(`privateKey field present: ${text}`);
          expect(JSON.stringify(x)).toMatch(/^("\*\*\*"|\{"old":"\*\*\*","new":"\*\*\*"\}|null)$/);
        }
        walk(x);
      }
    }
  };
  walk(value);
}

/** The principal rows of an application's audit history, oldest first. */
const principalAudit = (applicationUid: string) => auditOf(app, applicationUid, 'AUTHENTICATION_');

const iso = (d: Date) => d.toISOString().slice(0, 19);
const activeOf = async (applicationUid: string, environmentUid: string) =>
  (await app.models.ApplicationPrincipal.findAll({ where: { applicationUid, environmentUid, active: true } })).map((r: any) => r.uid as string);

// ---------------------------------------------------------------------------------------------------------------

describe('POST /application_principals', () => {
  it('takes a one-element array and answers 201 with the new URI as a JSON string equal to Location', async () => {
    const l = leaf();
    const res = await post([element({ principal: l.cert })]);
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(typeof res.body).toBe('string');
    expect(res.text).toBe(JSON.stringify(res.body));
    expect(res.headers.get('location')).toBe(res.body);
    expect(res.body).toMatch(new RegExp(`^${app.api}${P}/[0-9a-f]{32}$`));
    const got = await get(uidOf(res.body));
    expect(got.status, got.text).toBe(200);
    expect(got.body._links.self.href).toBe(res.body);
  });

  it('accepts a bare object too', async () => {
    const res = await post(element({ principal: leaf().cert }));
    expect(res.status, res.text).toBe(201);
    expect(typeof res.body).toBe('string');
    expect((await get(uidOf(res.body))).status).toBe(200);
  });

  it('refuses two elements, or none, and writes nothing', async () => {
    const [a, b] = [leaf(), leaf()];
    const before = await app.models.ApplicationPrincipal.count();
    expectError(await post([element({ principal: a.cert }), element({ principal: b.cert })]), 400);
    expectError(await post([]), 400);
    expect(await app.models.ApplicationPrincipal.count()).toBe(before);
    // Neither was stored: both can be created afterwards.
    await createdPrincipal({ principal: a.cert });
    await createdPrincipal({ principal: b.cert });
  });

  it('stores the leaf DN in RFC 4514 order, the trimmed chain, its expiry and the openssl SHA-256 fingerprint', async () => {
    const l = kit.leaf('/C=NL/O=Org, Inc./OU=Team/CN=app one', { keyType: 'rsa' });
    const uid = await createdPrincipal({ principal: `\n\n${l.cert}\n${kit.ca.cert}\n\n` });
    const res = await get(uid);
    expect(res.status, res.text).toBe(200);
    const p = res.body;
    expect(p.principal).toBe('CN=app one,OU=Team,O=Org\\, Inc.,C=NL');
    expect(p.type).toBe('SSL');
    expect(p.applicationPem).toBe(`${l.cert.trim()}\n${kit.ca.cert.trim()}`);
    expect(p.fingerprint).toBe(kit.fingerprintOf(l.cert));
    expect(p.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(p.expiresOn).toMatch(TS);
    expect(p.expiresOn).toBe(iso(kit.notAfterOf(l.cert)));
    expect(p.active).toBe(true);
    expect(p.privateKeyUploaded).toBe(false);
    expect(p.uid).toBe(uid);
    for (const f of ['created_at', 'modified_at']) expect(p[f]).toMatch(TS);
    expect(p.created_by).toBe(appOwner.email);
    expect(p).not.toHaveProperty('privateKey');
    expect(p).not.toHaveProperty('custom');
    expect(p._embedded.application.uid).toBe(custom.uid);
    expect(p._embedded.environment.uid).toBe(envA.uid);
    const self = `${app.api}${P}/${uid}`;
    expect(p._links.self.href).toBe(self);
    expect(p._links.applicationPrincipal.href).toBe(self);
    expect(p._links.application.href).toBe(`${self}/application`);
    expect(p._links.environment.href).toBe(`${self}/environment`);
    expect((await call(app, 'GET', `${self}/environment`, { token: appOwner.token })).body.uid).toBe(envA.uid);
  });

  it('keeps non-ASCII subject values as they are', async () => {
    const l = kit.leaf('/C=NL/O=Zoë Ĳssel 🚀/CN=ünïcode');
    const p = (await get(await createdPrincipal({ principal: l.cert, environment: envB }))).body;
    expect(p.principal).toBe('CN=ünïcode,O=Zoë Ĳssel 🚀,C=NL');
  });

  it('a certificate whose subject DN is very long is stored whole or refused with 400, never a 500', async () => {
    const ous = Array.from({ length: 24 }, (_, i) => `/OU=${String(i).padStart(2, '0')}${'u'.repeat(60)}`).join('');
    const l = kit.leaf(`/C=NL/O=Org${ous}/CN=long`);
    const res = await post([element({ principal: l.cert, environment: envB })]);
    if (res.status === 201) {
      const p = (await get(uidOf(res.body))).body;
      expect(p.principal.length).toBeGreaterThan(1024);
      expect(p.principal).toMatch(/^CN=long,OU=23u+,/);
    } else {
      expectFieldRefused(res, 'principal');
    }
  });

  it('takes an EC leaf and references as URIs (even the provider’s {base}/{uid} form)', async () => {
    const l = kit.leaf('/CN=ec app/O=Org', { keyType: 'ec' });
    const res = await post([{ principal: l.cert, application: `${app.api}/applications/${custom.uid}`, environment: `${app.api}/${envB.uid}` }]);
    expect(res.status, res.text).toBe(201);
    const p = (await get(uidOf(res.body))).body;
    expect(p.principal).toBe('O=Org,CN=ec app');
    expect(p._embedded.environment.uid).toBe(envB.uid);
  });

  it.each([
    ['an expired certificate', () => kit.expired().cert],
    ['garbage', () => 'not a certificate'],
    ['a broken PEM block', () => '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----'],
    ['a chain in reverse order', () => kit.ca.cert + leaf().cert],
    ['a private key instead of a certificate', () => leaf().key],
    ['an empty string', () => ''],
  ])('refuses %s with 400 naming principal', async (_label, pem) => {
    expectFieldRefused(await post([element({ principal: pem() })]), 'principal');
  });

  it.each([
    ['principal', (cert: string) => ({ application: custom.uid, environment: envA.uid, principal: cert }) as Record<string, unknown>],
    ['application', (cert: string) => ({ application: custom.uid, environment: envA.uid, principal: cert }) as Record<string, unknown>],
    ['environment', (cert: string) => ({ application: custom.uid, environment: envA.uid, principal: cert }) as Record<string, unknown>],
  ])('a missing %s is a validation error naming it (array and bare object alike)', async (field, make) => {
    for (const wrap of [(e: unknown) => [e], (e: unknown) => e]) {
      const body = make(leaf().cert);
      delete body[field];
      const res = await post(wrap(body));
      expectError(res, 400);
      // docs/contract.md §2: validation says `<path>: <problem>`; the bad-body message is for a missing or unparsable body.
      expect(res.body.errors).toEqual([expect.stringMatching(new RegExp(`^(\\[0\\]\\.)?${field}: is required$`))]);
    }
  });

  it('null references are `is required`, unknown ones 400', async () => {
    const l = leaf();
    expectError(await post([{ principal: l.cert, application: null, environment: envA.uid }]), 400, { errors: ['application: is required'] });
    expectError(await post([{ principal: l.cert, application: custom.uid, environment: '' }]), 400, { errors: ['environment: is required'] });
    expectError(await post([{ principal: l.cert, application: custom.uid, environment: 'f'.repeat(32) }]), 400);
  });
});

describe('custom principals', () => {
  it('are OAUTH, store the string as sent, and have no chain, expiry or fingerprint', async () => {
    const uid = await createdPrincipal({ principal: 'Client-ID_1.two@realm', custom: true });
    const p = (await get(uid)).body;
    expect(p).toMatchObject({ principal: 'Client-ID_1.two@realm', type: 'OAUTH', applicationPem: null, expiresOn: null, fingerprint: null, active: true, privateKeyUploaded: false });
    expect(p).not.toHaveProperty('custom');
  });

  it('take up to 255 printable characters', async () => {
    expect((await post([element({ principal: 'x'.repeat(255), custom: true })])).status).toBe(201);
    const wide = '🚀'.repeat(254) + 'Zoë'.slice(0, 1);
    const uid = await createdPrincipal({ principal: wide, custom: true, environment: envB });
    expect((await get(uid)).body.principal).toBe(wide);
    expectFieldRefused(await post([element({ principal: 'y'.repeat(256), custom: true })]), 'principal');
    expectFieldRefused(await post([element({ principal: 'tab\there', custom: true })]), 'principal');
    expectFieldRefused(await post([element({ principal: '   ', custom: true })]), 'principal');
    expectFieldRefused(await post([element({ principal: '', custom: true })]), 'principal');
  });

  it('are inactive on a Connector application, like its certificates', async () => {
    const uid = await createdPrincipal({ principal: `connector-client-${++n}`, custom: true, application: connector });
    expect((await get(uid)).body).toMatchObject({ type: 'OAUTH', active: false });
  });
});

describe('private keys', () => {
  it('are accepted for Connector applications only', async () => {
    const l = leaf();
    expectFieldRefused(await post([element({ principal: l.cert, privateKey: l.key, application: custom })]), 'privateKey');
    const c = await freshApp('Connector');
    expectFieldRefused(await post([element({ principal: `with-key-${++n}`, custom: true, privateKey: l.key, application: c })]), 'privateKey');
    const uid = await createdPrincipal({ principal: l.cert, privateKey: l.key, application: c });
    expect((await get(uid)).body.privateKeyUploaded).toBe(true);
  });

  it.each([
    ['another EC key', () => ({ l: leaf(), key: kit.newKey('ec') })],
    ['an EC key for an RSA leaf', () => ({ l: leaf({ keyType: 'rsa' }), key: kit.newKey('ec') })],
    ['another RSA key', () => ({ l: leaf({ keyType: 'rsa' }), key: kit.newKey('rsa') })],
    ['the CA key', () => ({ l: leaf(), key: kit.ca.key })],
    ['text', () => ({ l: leaf(), key: 'not a key' })],
  ])('must match the leaf: %s → 400 naming privateKey', async (_label, make) => {
    const { l, key } = make();
    const res = await post([element({ principal: l.chain, privateKey: key, application: connector })]);
    expectFieldRefused(res, 'privateKey');
    expectNoKey(res.body, typeof key === 'string' && key.includes('PRIVATE KEY') ? key : '');
  });

  it('a blank privateKey counts as none: nothing is claimed to be uploaded', async () => {
    const c = await freshApp('Connector');
    const res = await post([element({ principal: leaf().cert, privateKey: '', application: c })]);
    // Either refused or taken as "no key"; never a principal claiming an uploaded key it does not hold.
    if (res.status === 201) expect((await get(uidOf(res.body))).body.privateKeyUploaded).toBe(false);
    else expectFieldRefused(res, 'privateKey');
  });

  it('are stored sealed and never come back: item, collection, searches, activate, PATCH, audit', async () => {
    const c = await freshApp('Connector');
    const l = leaf({ keyType: 'rsa' });
    const res = await post([element({ principal: l.chain, privateKey: l.key, application: c })]);
    expect(res.status, res.text).toBe(201);
    expectNoKey(res.body, l.key);
    const uid = uidOf(res.body);

    const row = await app.models.ApplicationPrincipal.findOne({ where: { uid } });
    const stored = String(row!.get('privateKey'));
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).not.toContain('PRIVATE KEY');
    for (const line of keyLines(l.key)) expect(stored).not.toContain(line);
    expect(stored).not.toContain(Buffer.from(l.key).toString('base64').slice(0, 40));

    const item = await get(uid);
    expect(item.body.privateKeyUploaded).toBe(true);
    expectNoKey(item.body, l.key);
    for (const token of [appOwner.token, envOwner.token, appAdmin.token, t.admin.token]) {
      expectNoKey((await call(app, 'GET', `${P}?size=2000`, { token })).body, l.key);
    }
    for (const q of [`findByApplication?application=${c.uid}`, `findByApplicationAndEnvironment?application=${c.uid}&environment=${envA.uid}`, `findByEnvironment?environment=${envA.uid}`]) {
      const found = await search(q);
      expect(found.status, found.text).toBe(200);
      expect(items(found).map((p) => p.uid)).toContain(uid);
      expectNoKey(found.body, l.key);
      expect(items(found).find((p) => p.uid === uid).privateKeyUploaded).toBe(true);
    }
    expectNoKey((await activate(uid)).body, l.key);
    // A re-issued certificate on the same key: the stored key still matches and is kept.
    const again = kit.leaf(l.subject, { key: l.key });
    const patched = await patch(uid, { principal: again.cert });
    expect(patched.status, patched.text).toBe(200);
    expectNoKey(patched.body, l.key);
    const other = leaf();
    const replaced = await patch(uid, { principal: other.cert, privateKey: other.key });
    expect(replaced.status, replaced.text).toBe(200);
    expectNoKey(replaced.body, other.key);

    const audit = await principalAudit(c.uid);
    expect(audit.length).toBeGreaterThanOrEqual(4);
    for (const e of audit) {
      expectNoKey(e.details, l.key, true);
      expectNoKey(e.details, other.key, true);
    }
  });
});

describe('duplicates', () => {
  it('the same certificate in the same environment is 409 errmsg.duplicate.principal, in another environment fine', async () => {
    const l = leaf();
    await createdPrincipal({ principal: l.cert });
    expectError(await post([element({ principal: l.cert })]), 409, { errors: [DUPLICATE] });
    // Another chain with the same leaf, and another application: still the same identity in that environment.
    expectError(await post([element({ principal: l.chain })]), 409, { errors: [DUPLICATE] });
    expectError(await post([element({ principal: l.cert, application: connector })]), 409, { errors: [DUPLICATE] });
    expect((await post([element({ principal: l.cert, environment: envB })])).status).toBe(201);
    // A new certificate with the same subject and key is another principal.
    expect((await post([element({ principal: kit.leaf(l.subject, { key: l.key }).cert })])).status).toBe(201);
  });

  it('the same custom string in the same environment is 409, in another environment fine', async () => {
    const name = `dup-client-${++n}`;
    await createdPrincipal({ principal: name, custom: true });
    expectError(await post([element({ principal: name, custom: true })]), 409, { errors: [DUPLICATE] });
    expectError(await post([element({ principal: name, custom: true, application: connector })]), 409, { errors: [DUPLICATE] });
    expect((await post([element({ principal: name, custom: true, environment: envB })])).status).toBe(201);
  });

  it('concurrent posts of one certificate store it once', async () => {
    const l = leaf();
    const replies = await Promise.all(Array.from({ length: 5 }, () => post([element({ principal: l.cert, environment: envB })])));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await app.models.ApplicationPrincipal.count({ where: { fingerprint: kit.fingerprintOf(l.cert), environmentUid: envB.uid } })).toBe(1);
  });
});

describe('activation (Connector principals)', () => {
  it('Connector principals start inactive, others active', async () => {
    const c = await freshApp('Connector');
    expect((await get(await createdPrincipal({ principal: leaf().cert, application: c }))).body.active).toBe(false);
    expect((await get(await createdPrincipal({ principal: leaf().cert, application: custom }))).body.active).toBe(true);
  });

  it('swaps the active principal in one step, audited with activated and deactivated', async () => {
    const c = await freshApp('Connector');
    const first = await createdPrincipal({ principal: leaf().cert, application: c });
    const second = await createdPrincipal({ principal: leaf().cert, application: c });
    const elsewhere = await createdPrincipal({ principal: leaf().cert, application: c, environment: envB });
    expect(await activeOf(c.uid, envA.uid)).toEqual([]);

    const one = await activate(first);
    expect(one.status, one.text).toBe(200);
    expect(one.headers.get('content-type')).toMatch(/^application\/hal\+json/);
    expect(one.body).toMatchObject({ uid: first, active: true });
    expect(one.body._links).not.toHaveProperty('activate');
    expect(await activeOf(c.uid, envA.uid)).toEqual([first]);

    const two = await activate(second);
    expect(two.status, two.text).toBe(200);
    expect(two.body.active).toBe(true);
    expect(await activeOf(c.uid, envA.uid)).toEqual([second]);
    expect((await get(first)).body.active).toBe(false);
    expect((await get(elsewhere)).body.active).toBe(false);

    const activations = (await principalAudit(c.uid)).filter((e: any) => e.details?.activated);
    expect(activations.map((e: any) => ({ action: e.action, resourceType: e.resourceType, resourceName: e.resourceName, ...pick(e.details) }))).toEqual([
      { action: 'AUTHENTICATION_CONFIGURED', resourceType: 'Application', resourceName: c.shortName, principal: first, activated: first, deactivated: null },
      { action: 'AUTHENTICATION_CONFIGURED', resourceType: 'Application', resourceName: c.shortName, principal: second, activated: second, deactivated: first },
    ]);
  });

  it('activating the active principal answers 200 and changes nothing', async () => {
    const c = await freshApp('Connector');
    const uid = await createdPrincipal({ principal: leaf().cert, application: c });
    expect((await activate(uid)).status).toBe(200);
    const before = await get(uid);
    const auditBefore = (await principalAudit(c.uid)).length;
    const again = await activate(uid);
    expect(again.status, again.text).toBe(200);
    expect(again.body.active).toBe(true);
    expect(again.body.modified_at).toBe(before.body.modified_at);
    expect(again.headers.get('etag')).toBe(before.headers.get('etag'));
    expect((await principalAudit(c.uid)).length).toBe(auditBefore);
  });

  it('is refused for principals of other application types (422)', async () => {
    const uid = await createdPrincipal({ principal: leaf().cert, application: custom });
    expectError(await activate(uid), 422);
    expect((await get(uid)).body.active).toBe(true);
  });

  it('is for app editors only: environment owners 403, unrelated users 404, unknown 404', async () => {
    const c = await freshApp('Connector');
    const uid = await createdPrincipal({ principal: leaf().cert, application: c });
    expectError(await activate(uid, envOwner.token), 403);
    expectError(await activate(uid, stranger.token), 404);
    expectError(await activate('0'.repeat(32)), 404);
    expect((await get(uid)).body.active).toBe(false);
    expect((await activate(uid, appAdmin.token)).status).toBe(200);
  });

  it('ten concurrent activations of different principals end with exactly one active', async () => {
    const c = await freshApp('Connector');
    const uids: string[] = [];
    for (let i = 0; i < 10; i += 1) uids.push(await createdPrincipal({ principal: leaf().cert, application: c }));
    const replies = await Promise.all(uids.map((uid) => activate(uid)));
    for (const r of replies) expect(r.status, r.text).toBe(200);
    const active = await activeOf(c.uid, envA.uid);
    expect(active).toHaveLength(1);
    const listed = items(await search(`findByApplicationAndEnvironment?application=${c.uid}&environment=${envA.uid}`));
    expect(listed.filter((p) => p.active).map((p) => p.uid)).toEqual(active);
    // Every activation was audited, and the chain of swaps is consistent: each deactivated the one active before it.
    const swaps = (await principalAudit(c.uid)).filter((e: any) => e.details?.activated).map((e: any) => e.details);
    expect(swaps).toHaveLength(10);
    expect(swaps[0].deactivated).toBeNull();
    for (let i = 1; i < swaps.length; i += 1) expect(swaps[i].deactivated).toBe(swaps[i - 1].activated);
    expect(swaps[swaps.length - 1].activated).toBe(active[0]);
  });

  it('the activate link is on inactive Connector principals only, for app editors only', async () => {
    const c = await freshApp('Connector');
    const uid = await createdPrincipal({ principal: leaf().cert, application: c });
    const href = `${app.api}/application_authentications/${uid}/activate`;
    expect((await get(uid)).body._links.activate).toEqual({ href });
    expect((await get(uid, appAdmin.token)).body._links.activate).toEqual({ href });
    expect((await get(uid, t.admin.token)).body._links.activate).toEqual({ href });
    expect((await get(uid, envOwner.token)).body._links).not.toHaveProperty('activate');
    const listed = items(await search(`findByApplication?application=${c.uid}`));
    expect(listed.find((p) => p.uid === uid)._links.activate).toEqual({ href });
    await activate(uid);
    expect((await get(uid)).body._links).not.toHaveProperty('activate');
    const other = await createdPrincipal({ principal: leaf().cert, application: custom });
    expect((await get(other)).body._links).not.toHaveProperty('activate');
  });
});

describe('PATCH', () => {
  it('replaces the certificate: DN, chain, expiry, fingerprint; audited on the application', async () => {
    const uid = await createdPrincipal({ principal: leaf().cert });
    const next = kit.leaf('/C=BE/O=Other/CN=rotated', { keyType: 'rsa', days: 90 });
    const res = await patch(uid, { principal: next.chain });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      uid, principal: 'CN=rotated,O=Other,C=BE', type: 'SSL', applicationPem: `${next.cert.trim()}\n${kit.ca.cert.trim()}`,
      fingerprint: kit.fingerprintOf(next.cert), expiresOn: iso(kit.notAfterOf(next.cert)), active: true,
    });
    expect((await get(uid)).body).toMatchObject({ principal: 'CN=rotated,O=Other,C=BE', fingerprint: kit.fingerprintOf(next.cert) });
    const last = (await principalAudit(custom.uid)).at(-1)!;
    expect(last.action).toBe('AUTHENTICATION_CONFIGURED');
    expect(last.resourceType).toBe('Application');
    expect(last.resourceName).toBe(custom.shortName);
    expect((last.details as any).principal).toBe(uid);
  });

  it('keeps the stored key when it matches the new certificate, else 400 naming privateKey; a new key replaces it', async () => {
    const c = await freshApp('Connector');
    const l = leaf();
    const uid = await createdPrincipal({ principal: l.cert, privateKey: l.key, application: c });
    const before = (await app.models.ApplicationPrincipal.findOne({ where: { uid } }))!.get('privateKey');

    const sameKey = kit.leaf(l.subject, { key: l.key });
    const kept = await patch(uid, { principal: sameKey.cert });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body).toMatchObject({ privateKeyUploaded: true, fingerprint: kit.fingerprintOf(sameKey.cert) });

    const otherKey = leaf();
    expectFieldRefused(await patch(uid, { principal: otherKey.cert }), 'privateKey');
    expectFieldRefused(await patch(uid, { principal: otherKey.cert, privateKey: kit.newKey() }), 'privateKey');
    expect((await get(uid)).body.fingerprint).toBe(kit.fingerprintOf(sameKey.cert));

    const replaced = await patch(uid, { principal: otherKey.cert, privateKey: otherKey.key });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ privateKeyUploaded: true, fingerprint: kit.fingerprintOf(otherKey.cert) });
    expect((await app.models.ApplicationPrincipal.findOne({ where: { uid } }))!.get('privateKey')).not.toBe(before);
    // The new key is the one kept now: a certificate on it passes without a key, one on the old key does not.
    expect((await patch(uid, { principal: kit.leaf('/CN=again', { key: otherKey.key }).cert })).status).toBe(200);
    expectFieldRefused(await patch(uid, { principal: kit.leaf('/CN=old', { key: l.key }).cert }), 'privateKey');
  });

  it('privateKey: null removes the stored key', async () => {
    const c = await freshApp('Connector');
    const l = leaf();
    const uid = await createdPrincipal({ principal: l.cert, privateKey: l.key, application: c });
    const next = leaf();
    const res = await patch(uid, { principal: next.cert, privateKey: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body.privateKeyUploaded).toBe(false);
    expect((await app.models.ApplicationPrincipal.findOne({ where: { uid } }))!.get('privateKey')).toBeNull();

    const other = await createdPrincipal({ principal: leaf().cert, privateKey: undefined, application: c });
    const withKey = leaf();
    expect((await patch(other, { principal: withKey.cert, privateKey: withKey.key })).body.privateKeyUploaded).toBe(true);
    const dropped = await patch(other, { privateKey: null });
    expect(dropped.status, dropped.text).toBe(200);
    expect(dropped.body.privateKeyUploaded).toBe(false);
    expect(dropped.body.fingerprint).toBe(kit.fingerprintOf(withKey.cert));
  });

  it('applies the creation checks: expired, garbage, key on a non-Connector, duplicate', async () => {
    const uid = await createdPrincipal({ principal: leaf().cert });
    const taken = leaf();
    await createdPrincipal({ principal: taken.cert });
    const before = (await get(uid)).body;
    expectFieldRefused(await patch(uid, { principal: kit.expired().cert }), 'principal');
    expectFieldRefused(await patch(uid, { principal: 'garbage' }), 'principal');
    expectFieldRefused(await patch(uid, { principal: null }), 'principal');
    const k = leaf();
    expectFieldRefused(await patch(uid, { principal: k.cert, privateKey: k.key }), 'privateKey');
    expectError(await patch(uid, { principal: taken.cert }), 409, { errors: [DUPLICATE] });
    const after = (await get(uid)).body;
    expect(after.fingerprint).toBe(before.fingerprint);
    expect(after.modified_at).toBe(before.modified_at);
    // Its own certificate again is not a duplicate of itself.
    const same = await patch(uid, { principal: before.applicationPem });
    expect(same.status, same.text).toBe(200);
  });

  it('replaces a custom string (same duplicate rule) and keeps application and environment immutable', async () => {
    const uid = await createdPrincipal({ principal: `patch-client-${++n}`, custom: true });
    const taken = `patch-taken-${n}`;
    await createdPrincipal({ principal: taken, custom: true });
    const res = await patch(uid, { principal: `patch-renamed-${n}` });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ principal: `patch-renamed-${n}`, type: 'OAUTH', applicationPem: null, fingerprint: null, expiresOn: null });
    expectError(await patch(uid, { principal: taken }), 409, { errors: [DUPLICATE] });
    expectError(await patch(uid, { environment: envB.uid }), 422);
    expectError(await patch(uid, { application: connector.uid }), 422);
    expect((await patch(uid, { environment: envA.uid, application: custom.uid })).status).toBe(200);
  });

  it('honours If-Match', async () => {
    const uid = await createdPrincipal({ principal: leaf().cert });
    const etag = (await get(uid)).headers.get('etag')!;
    expect(etag).toMatch(/^"\d+"$/);
    expectError(await call(app, 'PATCH', `${P}/${uid}`, { token: appOwner.token, body: { principal: leaf().cert }, headers: { 'If-Match': '"999"' } }), 412);
    expect((await call(app, 'PATCH', `${P}/${uid}`, { token: appOwner.token, body: { principal: leaf().cert }, headers: { 'If-Match': etag } })).status).toBe(200);
  });
});

describe('DELETE', () => {
  it('answers 204, writes AUTHENTICATION_UNCONFIGURED, and the principal is gone', async () => {
    const c = await freshApp('Connector');
    const uid = await createdPrincipal({ principal: leaf().cert, application: c });
    await activate(uid);
    const res = await remove(uid);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expectError(await get(uid), 404);
    expectError(await remove(uid), 404);
    const last = (await principalAudit(c.uid)).at(-1)!;
    expect(last).toMatchObject({ action: 'AUTHENTICATION_UNCONFIGURED', resourceType: 'Application', resourceName: c.shortName, resourceId: c.uid });
    expect((last.details as any).principal).toBe(uid);
  });

  it('frees the certificate for a new principal', async () => {
    const l = leaf();
    const uid = await createdPrincipal({ principal: l.cert });
    expect((await remove(uid)).status).toBe(204);
    expect((await post([element({ principal: l.cert })])).status).toBe(201);
  });

  it('principals block deleting their application and environment (422)', async () => {
    const a = await freshApp('Custom');
    const env = await adminPost('/environments', { name: `pr-blocked-${++n}`, shortName: `prblk${n}`, instance: instance.uid, owners: envTeam.uid });
    const uid = await createdPrincipal({ principal: `blocker-${n}`, custom: true, application: a, environment: env });
    expectError(await call(app, 'DELETE', `/applications/${a.uid}`, { token: appOwner.token }), 422);
    expectError(await call(app, 'DELETE', `/environments/${env.uid}`, { token: t.admin.token }), 422);
    expect((await remove(uid)).status).toBe(204);
    expect((await call(app, 'DELETE', `/applications/${a.uid}`, { token: appOwner.token })).status).toBe(204);
    expect((await call(app, 'DELETE', `/environments/${env.uid}`, { token: t.admin.token })).status).toBe(204);
  });
});

describe('deleting the active principal of a deployed connector (§6.3)', () => {
  const MESSAGE = 'Unable to delete the active principal of a deployed connector; activate another principal first';
  let auto: any;
  let stream: any;

  beforeAll(async () => {
    auto = await adminPost('/environments', { name: 'pr-auto', shortName: 'prauto', instance: instance.uid, owners: envTeam.uid, authorizationIssuer: 'Auto' });
    stream = await adminPost('/streams', { name: 'pr-deployed', keyType: 'String', valueType: 'String', owners: platform.uid });
    await adminPost('/stream_configs', { stream: stream.uid, environment: auto.uid });
  });

  /** A Connector with an active principal, an Approved grant and a deployment in `auto`; answers its principals. */
  async function deployed(): Promise<{ c: any; active: string; spare: string }> {
    const c = await freshApp('Connector');
    const l = leaf();
    const active = await createdPrincipal({ principal: l.cert, privateKey: l.key, application: c, environment: auto });
    const spare = await createdPrincipal({ principal: leaf().cert, application: c, environment: auto });
    expect((await activate(active)).status).toBe(200);
    const grant = await call(app, 'POST', '/application_access_grants', {
      token: appOwner.token, body: { applicationId: c.uid, streamId: stream.uid, environmentId: auto.uid, accessType: 'CONSUMER' },
    });
    expect(grant.status, grant.text).toBe(201);
    expect(grant.body.status).toBe('Approved');
    const deployment = await call(app, 'POST', '/application_deployments', { token: appOwner.token, body: { application: c.uid, environment: auto.uid, configs: { topics: stream.name } } });
    expect(deployment.status, deployment.text).toBe(201);
    return { c, active, spare };
  }

  it('answers 400 with the readable message and keeps it; inactive ones go; after a swap the old one goes', async () => {
    const { c, active, spare } = await deployed();
    const before = (await principalAudit(c.uid)).length;
    const refused = await remove(active);
    expectError(refused, 400, { errors: [MESSAGE] });
    expect(refused.body.message).toBe(MESSAGE);
    expect((await get(active)).body.active).toBe(true);
    expect((await principalAudit(c.uid)).length).toBe(before);

    expect((await activate(spare)).status).toBe(200);
    expect((await remove(active)).status).toBe(204);
    expectError(await remove(spare), 400, { errors: [MESSAGE] });
  });

  it('an inactive principal of a deployed connector is deleted (204), and the active one of an undeployed connector too', async () => {
    const { spare } = await deployed();
    expect((await remove(spare)).status).toBe(204);
    const c = await freshApp('Connector');
    const uid = await createdPrincipal({ principal: leaf().cert, application: c, environment: auto });
    await activate(uid);
    expect((await remove(uid)).status).toBe(204);
  });

  it('non-editors still get 403 / 404 first', async () => {
    const { active } = await deployed();
    expectError(await remove(active, envOwner.token), 403);
    expectError(await remove(active, stranger.token), 404);
  });

  it('the Terraform provider reads the refusal from the 400 body', async () => {
    const { active } = await deployed();
    const res = await terraformCall(app, t.shortName, appOwner.token, 'DELETE', `${P}/${active}`);
    expect(res.status).toBe(400); // not 422, whose body the client drops
    expect(res.text).toContain(MESSAGE);
  });
});

describe('permissions', () => {
  it('app editors create; environment owners and unrelated users get 403; APPLICATION_ADMIN and TENANT_ADMIN may', async () => {
    expectError(await post([element({ principal: leaf().cert })], envOwner.token), 403);
    expectError(await post([element({ principal: leaf().cert })], stranger.token), 403);
    expect((await post([element({ principal: leaf().cert })], appAdmin.token)).status).toBe(201);
    expect((await post([element({ principal: leaf().cert })], t.admin.token)).status).toBe(201);
  });

  it('environment owners view (GET, searches) but do not edit; unrelated users get 404', async () => {
    const inA = await createdPrincipal({ principal: leaf().cert });
    const inB = await createdPrincipal({ principal: leaf().cert, environment: envB });

    const seen = await get(inA, envOwner.token);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body._links).not.toHaveProperty('edit');
    expect(seen.body._links).not.toHaveProperty('delete');
    expectError(await get(inB, envOwner.token), 404);
    expectError(await patch(inA, { principal: leaf().cert }, envOwner.token), 403);
    expectError(await remove(inA, envOwner.token), 403);

    const byEnv = items(await search(`findByEnvironment?environment=${envA.uid}&size=2000`, envOwner.token)).map((p) => p.uid);
    expect(byEnv).toContain(inA);
    const byApp = items(await search(`findByApplication?application=${custom.uid}&size=2000`, envOwner.token)).map((p) => p.uid);
    expect(byApp).toContain(inA);
    expect(byApp).not.toContain(inB);
    const all = items(await call(app, 'GET', `${P}?size=2000`, { token: envOwner.token })).map((p) => p.uid);
    expect(all).toContain(inA);
    expect(all).not.toContain(inB);

    for (const uid of [inA, inB]) {
      expectError(await get(uid, stranger.token), 404);
      expectError(await patch(uid, { principal: leaf().cert }, stranger.token), 404);
      expectError(await remove(uid, stranger.token), 404);
    }
    const strangerList = await call(app, 'GET', P, { token: stranger.token });
    expect(strangerList.status).toBe(200);
    expect(items(strangerList)).toEqual([]);
    expect(items(await search(`findByApplication?application=${custom.uid}`, stranger.token))).toEqual([]);

    const owner = await get(inB);
    expect(owner.body._links.edit.href).toBe(owner.body._links.self.href);
    expect(owner.body._links.delete.href).toBe(owner.body._links.self.href);
    expect((await remove(inB, appAdmin.token)).status).toBe(204);
  });
});

describe('searches', () => {
  let c: any;
  let a1: string;
  let a2: string;
  let b1: string;
  beforeAll(async () => {
    c = await freshApp('Custom');
    a1 = await createdPrincipal({ principal: leaf().cert, application: c });
    a2 = await createdPrincipal({ principal: `search-${++n}`, custom: true, application: c });
    b1 = await createdPrincipal({ principal: leaf().cert, application: c, environment: envB });
  });

  it('lists its methods', async () => {
    const res = await call(app, 'GET', `${P}/search`, { token: appOwner.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body._links).sort()).toEqual(['findByApplication', 'findByApplicationAndEnvironment', 'findByEnvironment', 'self']);
    expect(res.body._links.findByApplicationAndEnvironment).toEqual({ href: `${app.api}${P}/search/findByApplicationAndEnvironment{?application,environment,page,size,sort}`, templated: true });
  });

  it('findByApplication, with a uid or a URI', async () => {
    for (const ref of [c.uid, `${app.api}/applications/${c.uid}`]) {
      const res = await search(`findByApplication?application=${encodeURIComponent(ref)}`);
      expect(res.status, res.text).toBe(200);
      expect(items(res).map((p) => p.uid).sort()).toEqual([a1, a2, b1].sort());
      expect(res.body.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });
    }
  });

  it('findByApplicationAndEnvironment needs both (400), answers the pair', async () => {
    const res = await search(`findByApplicationAndEnvironment?application=${c.uid}&environment=${envA.uid}`);
    expect(res.status, res.text).toBe(200);
    expect(items(res).map((p) => p.uid).sort()).toEqual([a1, a2].sort());
    expect(res.body._links.self.href).toContain('findByApplicationAndEnvironment');
    expectError(await search(`findByApplicationAndEnvironment?application=${c.uid}`), 400, { errors: ['environment: is required'] });
    expectError(await search(`findByApplicationAndEnvironment?environment=${envA.uid}`), 400, { errors: ['application: is required'] });
    expectError(await search(`findByApplicationAndEnvironment?application=${c.uid}&environment=${'e'.repeat(32)}`), 404);
    const none = await search(`findByApplicationAndEnvironment?application=${connector.uid}&environment=${envB.uid}`);
    expect(none.status).toBe(200);
    expect(items(none)).toEqual([]);
  });

  it('findByEnvironment', async () => {
    const res = await search(`findByEnvironment?environment=${envB.uid}&size=2000`);
    expect(res.status, res.text).toBe(200);
    const uids = items(res).map((p) => p.uid);
    expect(uids).toContain(b1);
    expect(uids).not.toContain(a1);
    expect(items(res).every((p) => p._embedded.environment.uid === envB.uid)).toBe(true);
    expectError(await search('findByEnvironment'), 400, { errors: ['environment: is required'] });
    expectError(await search('findByApplication'), 400, { errors: ['application: is required'] });
  });
});

describe('GET /auth', () => {
  const auth = (token: string, action: string, resourceUid?: string) => authAnswer(app, token, action, 'APPLICATION_PRINCIPAL', resourceUid);

  it('VIEW, EDIT, DELETE agree with the item and its links', async () => {
    const uid = await createdPrincipal({ principal: leaf().cert });
    for (const who of [appOwner, envOwner, appAdmin, t.admin]) {
      const item = await get(uid, who.token);
      expect(item.status).toBe(200);
      expect((await auth(who.token, 'APPLICATION_PRINCIPAL_VIEW', uid)).status).toBe(200);
      expect((await auth(who.token, 'APPLICATION_PRINCIPAL_EDIT', uid)).status).toBe('edit' in item.body._links ? 200 : 403);
      expect((await auth(who.token, 'APPLICATION_PRINCIPAL_DELETE', uid)).status).toBe('delete' in item.body._links ? 200 : 403);
    }
    expect((await auth(appOwner.token, 'APPLICATION_PRINCIPAL_EDIT', uid)).status).toBe(200);
    expect((await auth(envOwner.token, 'APPLICATION_PRINCIPAL_EDIT', uid)).status).toBe(403);
    expect((await auth(envOwner.token, 'APPLICATION_PRINCIPAL_DELETE', uid)).status).toBe(403);
    for (const action of ['APPLICATION_PRINCIPAL_VIEW', 'APPLICATION_PRINCIPAL_EDIT', 'APPLICATION_PRINCIPAL_DELETE']) {
      expect((await auth(stranger.token, action, uid)).status).toBe(404);
    }
    expect((await auth(appOwner.token, 'APPLICATION_PRINCIPAL_VIEW')).status).toBe(400);
  });

  it('CREATE under an application: its editors only', async () => {
    expect((await auth(appOwner.token, 'APPLICATION_PRINCIPAL_CREATE', custom.uid)).status).toBe(200);
    expect((await auth(appAdmin.token, 'APPLICATION_PRINCIPAL_CREATE', custom.uid)).status).toBe(200);
    expect((await auth(t.admin.token, 'APPLICATION_PRINCIPAL_CREATE', custom.uid)).status).toBe(200);
    expect((await auth(envOwner.token, 'APPLICATION_PRINCIPAL_CREATE', custom.uid)).status).toBe(403);
    expect((await auth(stranger.token, 'APPLICATION_PRINCIPAL_CREATE', custom.uid)).status).toBe(403);
    expect((await auth(appOwner.token, 'APPLICATION_PRINCIPAL_CREATE', 'a'.repeat(32))).status).toBe(404);
  });
});

describe('audit', () => {
  it('create, activate, PATCH and DELETE are filed on the application with details.principal', async () => {
    const c = await freshApp('Connector');
    const uid = await createdPrincipal({ principal: leaf().cert, application: c });
    await activate(uid);
    expect((await patch(uid, { principal: leaf().cert })).status).toBe(200);
    expect((await remove(uid)).status).toBe(204);
    const rows = await principalAudit(c.uid);
    expect(rows.map((e: any) => e.action)).toEqual(['AUTHENTICATION_CONFIGURED', 'AUTHENTICATION_CONFIGURED', 'AUTHENTICATION_CONFIGURED', 'AUTHENTICATION_UNCONFIGURED']);
    for (const e of rows as any[]) {
      expect(e).toMatchObject({ resourceType: 'Application', resourceId: c.uid, resourceName: c.shortName, actor: appOwner.email, tenant: t.shortName });
      expect(e.details.principal).toBe(uid);
    }
  });

  it('refused requests write nothing', async () => {
    const c = await freshApp('Connector');
    const l = leaf();
    await post([element({ principal: l.cert, privateKey: kit.newKey(), application: c })]);
    await post([element({ principal: kit.expired().cert, application: c })]);
    await post([element({ principal: l.cert, application: c })], envOwner.token);
    expect(await principalAudit(c.uid)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------------

/**
 * The Axual Terraform provider (`axual-webclient/application_principal.go`, `application_principal_data.go`,
 * `internal/provider/resource_application_principal.go`, and the principal check of
 * `resource_application_deployment.go`). Requests carry the client's default headers (terraformCall); bodies are
 * json.Marshal of the Go structs, in field order, `omitempty` fields left out when empty.
 */
describe('Terraform provider', () => {
  const tf = (method: string, path: string, body?: unknown, who = appOwner) => terraformCall(app, t.shortName, who.token, method, path, body);

  interface TfPrincipal { principal: string; privateKey?: string; application: string; environment: string; custom?: boolean }

  /** createApplicationPrincipalRequestFromData + CreateApplicationPrincipal + the id extraction of Create. */
  async function tfCreate(d: TfPrincipal): Promise<{ res: CallResult; id: string }> {
    // ApplicationPrincipalRequest: principal, privateKey (omitempty), application, environment, custom (omitempty).
    const request: Record<string, unknown> = { principal: d.principal.trim() };
    if (d.privateKey !== undefined && d.privateKey.trim() !== '') request.privateKey = d.privateKey.trim();
    request.application = `${app.api}/applications/${d.application}`;
    request.environment = `${app.api}/${d.environment}`;
    if (d.custom) request.custom = true;
    const res = await tf('POST', P, [request]);
    if (!goOk(res)) return { res, id: '' };
    // ApplicationPrincipalCreateResponse is a Go string: json.Unmarshal needs a JSON string.
    const decoded = JSON.parse(res.text);
    expect(typeof decoded).toBe('string');
    const id = decoded.replace(/^"+|"+$/g, '').split(`${app.api}/application_principals/`).join('');
    return { res, id };
  }

  /** ReadApplicationPrincipal → ApplicationPrincipalResponse, checked against the Go types. */
  async function tfRead(id: string) {
    const res = await tf('GET', `${P}/${id}`);
    if (res.status !== 200) return { res, p: undefined };
    const b = res.body;
    expect(typeof b.uid).toBe('string');
    expect(typeof b.principal).toBe('string');
    expect(['string', 'object']).toContain(typeof b.applicationPem); // string, or null (Go leaves "")
    expect(typeof b.type).toBe('string');
    expect(typeof b.active).toBe('boolean'); // *bool: must be present to be read as active/inactive
    for (const rel of ['application', 'environment']) {
      expect(typeof b._embedded[rel].uid).toBe('string');
      expect(typeof b._embedded[rel].shortName).toBe('string');
    }
    return {
      res,
      p: {
        uid: b.uid as string, principal: b.principal as string, applicationPem: (b.applicationPem ?? '') as string, type: b.type as string, active: b.active as boolean,
        application: b._embedded.application.uid as string, environment: b._embedded.environment.uid as string,
      },
    };
  }

  const tfActivate = (id: string) => tf('POST', `/application_authentications/${id}/activate`);
  const tfDelete = (id: string) => tf('DELETE', `${P}/${id}`);

  /** FindApplicationPrincipalByApplicationAndEnvironment as resource_application_deployment calls it. */
  async function tfFind(applicationUid: string, environmentUid: string) {
    const application = `${app.api}/applications/${applicationUid}`;
    const environment = `${app.api}/environments/${environmentUid}`;
    const res = await tf('GET', `${P}/search/findByApplicationAndEnvironment?application=${queryEscape(application)}&environment=${queryEscape(environment)}`);
    expect(res.status, res.text).toBe(200);
    const list = res.body._embedded.application_principals as any[];
    expect(Array.isArray(list)).toBe(true);
    for (const p of list) expect(typeof p.active).toBe('boolean');
    return list;
  }

  /** GetApplication: the resource branches on `applicationType` == "Connector". */
  async function tfApplicationType(uid: string): Promise<string> {
    const res = await tf('GET', `/applications/${uid}`);
    expect(res.status).toBe(200);
    return res.body.applicationType;
  }

  it('a custom principal: create, read (OAUTH → principal), import, delete, read gone', async () => {
    const name = `tf-oauth-${++n}`;
    const { res, id } = await tfCreate({ principal: name, application: custom.uid, environment: envA.uid, custom: true });
    expect(res.status, res.text).toBe(201);
    expect(id).toMatch(UID);
    const { p } = await tfRead(id);
    expect(p).toMatchObject({ uid: id, type: 'OAUTH', principal: name, application: custom.uid, environment: envA.uid, active: true });
    expect(await tfApplicationType(custom.uid)).toBe('Custom');
    const del = await tfDelete(id);
    expect(del.status, del.text).toBe(204);
    expect((await tfRead(id)).res.status).toBe(404); // NotFoundError: the resource is dropped from state
    expect((await tfDelete(id)).status).toBe(404);
  });

  it('a Connector principal with active=true: create with chain and key, activate, read the PEM back, deployment check sees it active', async () => {
    const c = await freshApp('Connector');
    const l = leaf({ keyType: 'rsa' });
    // file() keeps the trailing newline; the provider trims before sending and compares trimmed on read.
    const { res, id } = await tfCreate({ principal: `${l.chain}\n`, privateKey: `${l.key}\n`, application: c.uid, environment: envA.uid });
    expect(res.status, res.text).toBe(201);
    expect(await tfApplicationType(c.uid)).toBe('Connector');
    expect((await tfRead(id)).p!.active).toBe(false);
    const act = await tfActivate(id);
    expect(goOk(act), act.text).toBe(true);
    const { p } = await tfRead(id);
    expect(p).toMatchObject({ uid: id, type: 'SSL', active: true, application: c.uid, environment: envA.uid });
    expect(p!.applicationPem.trim()).toBe(l.chain.trim()); // no perpetual diff
    expect(p!.principal).toMatch(/^CN=pr-\d+,OU=Team,O=Org,C=NL$/);
    const found = await tfFind(c.uid, envA.uid);
    expect(found.map((x) => x.uid)).toEqual([id]);
    expect(found.filter((x) => x.active)).toHaveLength(1);
    expect(found[0]._embedded.application.uid).toBe(c.uid);
  });

  it('a Connector principal without active reads as active=false (present, not omitted); the deployment check counts none', async () => {
    const c = await freshApp('Connector');
    const l = leaf();
    const { id } = await tfCreate({ principal: l.cert, privateKey: l.key, application: c.uid, environment: envA.uid });
    const { res, p } = await tfRead(id);
    expect(res.body).toHaveProperty('active', false);
    expect(p!.active).toBe(false);
    const found = await tfFind(c.uid, envA.uid);
    expect(found).toHaveLength(1);
    expect(found.filter((x) => x.active)).toHaveLength(0);
    expect(await tfFind(c.uid, envB.uid)).toEqual([]);
  });

  it('certificate rotation: create the new one, inherit activation from the live old one, delete the old one', async () => {
    const c = await freshApp('Connector');
    const old = leaf();
    const { id: oldId } = await tfCreate({ principal: old.cert, privateKey: old.key, application: c.uid, environment: envA.uid });
    expect(goOk(await tfActivate(oldId))).toBe(true);

    const next = leaf();
    const { res, id: newId } = await tfCreate({ principal: next.cert, privateKey: next.key, application: c.uid, environment: envA.uid });
    expect(res.status, res.text).toBe(201);
    // activateRotatedPrincipal: reads the old one's live status.
    expect((await tfRead(oldId)).p!.active).toBe(true);
    expect(goOk(await tfActivate(newId))).toBe(true);
    expect((await tfRead(oldId)).p!.active).toBe(false);
    const del = await tfDelete(oldId);
    expect(del.status, del.text).toBe(204);
    const found = await tfFind(c.uid, envA.uid);
    expect(found.map((x) => [x.uid, x.active])).toEqual([[newId, true]]);
  });

  it('re-posting an unchanged certificate is a readable 409 errmsg.duplicate.principal, never a second row', async () => {
    const c = await freshApp('Connector');
    const l = leaf();
    const { id } = await tfCreate({ principal: l.cert, privateKey: l.key, application: c.uid, environment: envA.uid });
    const again = await tfCreate({ principal: l.cert, privateKey: l.key, application: c.uid, environment: envA.uid });
    expect(again.res.status).toBe(409); // not 422: the client keeps the body of a 409
    expect(again.res.text).toContain(DUPLICATE);
    expect(again.res.body.errors).toEqual([DUPLICATE]);
    expect((await tfFind(c.uid, envA.uid)).map((x) => x.uid)).toEqual([id]);
  });

  it('a mismatching key is a readable 400 naming privateKey', async () => {
    const c = await freshApp('Connector');
    const { res } = await tfCreate({ principal: leaf().cert, privateKey: kit.newKey(), application: c.uid, environment: envA.uid });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatch(/^privateKey: /);
  });

  it('deleting the active principal without a deployment answers 204', async () => {
    const c = await freshApp('Connector');
    const l = leaf();
    const { id } = await tfCreate({ principal: l.cert, privateKey: l.key, application: c.uid, environment: envA.uid });
    expect(goOk(await tfActivate(id))).toBe(true);
    const del = await tfDelete(id);
    expect(del.status, del.text).toBe(204);
    expect(await tfFind(c.uid, envA.uid)).toEqual([]);
  });

  it('activating a principal of another application type answers 422 (the provider only warns and never calls it)', async () => {
    const { id } = await tfCreate({ principal: leaf().cert, application: custom.uid, environment: envB.uid });
    expect((await tfActivate(id)).status).toBe(422);
  });

  it('a principal on a non-Connector application with a key is refused as the provider would report it', async () => {
    const l = leaf();
    const { res } = await tfCreate({ principal: l.cert, privateKey: l.key, application: custom.uid, environment: envA.uid });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatch(/^privateKey: /);
    expectNoKey(res.body, l.key);
  });
});

/** Only the keys the activation assertions compare. */
function pick(details: any) {
  return { principal: details.principal, activated: details.activated, deactivated: details.deactivated };
}
