/**
 * Unknown body fields made visible (docs/contract.md §1.5): ignored as before, but named in `Ignored-Fields`; refused
 * under `Prefer: handling=strict` (RFC 7240) as validation errors, with `Preference-Applied` echoing the handling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { expectError } from '../support/errors';
import { call, created, type CallOptions, type CallResult } from '../support/http';
import { configuredStream, newApplication } from '../support/fixtures';

let app: TestApp;
let t: TestTenant;
let alice: TestUser;
let seq = 0;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('unknown'));
  alice = await createUser(app, t, ['STREAM_AUTHOR'], 'alice');
});
afterAll(async () => app?.stop());

const STRICT = { Prefer: 'handling=strict' };
const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}, o: CallOptions = {}) =>
  call(app, method, path, { token: t.admin.token, body, headers, ...o });
const name = (prefix = 'Team') => `${prefix} ${++seq} ${Date.now().toString(36)}`;
const newGroup = () => created(app, '/groups', { name: name() }, t.admin.token);
const unknownField = (field: string, rejectedValue: unknown) => ({ field, message: 'unknown field', rejectedValue });

describe('by default, unknown fields are ignored and named in Ignored-Fields', () => {
  it('the issue\'s create: "emial" is ignored (emailAddress stays null) and named', async () => {
    const res = await send('POST', '/groups', { name: name(), emial: 'x@example.com' });
    expect(res.status).toBe(201);
    expect(res.body.emailAddress).toBeNull();
    expect(res.headers.get('ignored-fields')).toBe('emial');
    expect(res.headers.get('preference-applied')).toBeNull();
  });

  it('the issue\'s PATCH: "phonNumber" changes nothing and is named, with either JSON type', async () => {
    const group = await newGroup();
    for (const type of ['application/json', 'application/merge-patch+json']) {
      const res = await send('PATCH', `/groups/${group.uid}`, { phonNumber: '+31 20 123 4567' }, { 'Content-Type': type });
      expect([res.status, res.body.phoneNumber, res.headers.get('ignored-fields')]).toEqual([200, null, 'phonNumber']);
    }
  });

  it('nested and array positions are named as in the error body; maps take any key', async () => {
    const res = await send('POST', '/users', {
      firstName: 'N', lastName: 'Ested', emailAddress: { email: `nested-${t.shortName}@example.com`, mail: 'x' }, roles: [{ name: 'STREAM_AUTHOR', scope: 'all' }],
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('ignored-fields')).toBe('emailAddress.mail, roles[0].scope');
    const instance = await created(app, '/instances', { name: name('Instance'), shortName: `uinst${seq}` }, t.admin.token);
    const env = await send('POST', '/environments', {
      name: name('env').replace(/ /g, '-'), shortName: `uenv${seq}`, instance: instance.uid, owners: (await newGroup()).uid,
      properties: { 'segment.ms': '60000', 'any.key': '1' }, settings: { enforceDataMasking: 'false' },
    });
    expect(env.status).toBe(201);
    expect(env.headers.has('ignored-fields')).toBe(false);
  });

  it('no header when nothing is unknown, and none on an operation without a body', async () => {
    const res = await send('POST', '/groups', { name: name(), emailAddress: 'team@example.com', phoneNumber: '+31 20 1' });
    expect(res.status).toBe(201);
    expect([res.headers.has('ignored-fields'), res.headers.has('preference-applied')]).toEqual([false, false]);
    const read = await call(app, 'GET', `/groups/${res.body.uid}`, { token: t.admin.token, headers: STRICT });
    expect([read.status, read.headers.has('preference-applied')]).toEqual([200, false]);
  });

  it('handling=lenient is today\'s behaviour, and Preference-Applied says so', async () => {
    const res = await send('POST', '/groups', { name: name(), emial: 'x' }, { Prefer: 'handling=lenient' });
    expect([res.status, res.headers.get('ignored-fields'), res.headers.get('preference-applied')]).toEqual([201, 'emial', 'handling=lenient']);
  });

  it('a name that could be mistaken for a separator is percent-encoded', async () => {
    const res = await send('POST', '/groups', { name: name(), 'e, mial': 1, 'é': 2 });
    expect(res.headers.get('ignored-fields')).toBe('e%2C%20mial, %C3%A9');
  });
});

describe('Prefer: handling=strict refuses unknown fields', () => {
  it('a create answers 400 naming each unknown field, and creates nothing', async () => {
    const group = name();
    const res = await send('POST', '/groups', { name: group, emial: 'x@example.com', owners: [{ foo: 1 }] }, STRICT);
    expectError(res, 400, {
      errors: ['emial: unknown field', 'owners: unknown field'],
      subErrors: [unknownField('emial', 'x@example.com'), unknownField('owners', [{ foo: 1 }])],
    });
    expect(res.headers.get('preference-applied')).toBe('handling=strict');
    expect(res.headers.has('ignored-fields')).toBe(false);
    const found = await call(app, 'GET', `/groups/search/findByName?name=${encodeURIComponent(group)}`, { token: t.admin.token });
    expect(found.body._embedded.groups).toEqual([]);
  });

  it('a create without unknown fields succeeds, and Preference-Applied says strict was applied', async () => {
    const res = await send('POST', '/groups', { name: name() }, STRICT);
    expect([res.status, res.headers.get('preference-applied'), res.headers.has('ignored-fields')]).toEqual([201, 'handling=strict', false]);
  });

  it('the header is read properly: several preferences, any case, quoted values, repeated lines', async () => {
    for (const prefer of ['return=minimal, HANDLING="strict"', 'respond-async,handling = Strict;x=1', 'wait=5, handling=strict, handling=lenient']) {
      expectError(await send('POST', '/groups', { name: name(), emial: 'x' }, { Prefer: prefer }), 400, { field: 'emial' });
    }
    // A parameter of another preference is not the handling preference.
    const param = await send('POST', '/groups', { name: name(), emial: 'x' }, { Prefer: 'return=minimal; handling=strict' });
    expect([param.status, param.headers.has('preference-applied')]).toEqual([201, false]);
  });

  it('PUT and PATCH (both JSON types): nested positions, with the other validation errors in one answer', async () => {
    const group = await newGroup();
    const put = await send('PUT', `/groups/${group.uid}`, { name: '', phonNumber: '1' }, STRICT);
    expectError(put, 400, { errors: ['name: size must be at least 3', 'phonNumber: unknown field'] });
    for (const type of ['application/json', 'application/merge-patch+json']) {
      const patch = await send('PATCH', `/groups/${group.uid}`, { phonNumber: '1' }, { ...STRICT, 'Content-Type': type });
      expectError(patch, 400, { subErrors: [unknownField('phonNumber', '1')] });
    }
    const user = await send('POST', '/users', { firstName: 'A', lastName: 'B', emailAddress: `strict-${t.shortName}@example.com`, roles: [{ name: 'STREAM_AUTHOR', scope: 'x' }] }, STRICT);
    expectError(user, 400, { errors: ['roles[0].scope: unknown field'] });
  });

  it('the target\'s 404 and 412 come first, as for every validation error', async () => {
    const group = await newGroup();
    expectError(await send('PATCH', '/groups/0123456789abcdef0123456789abcdef', { phonNumber: '1' }, STRICT), 404);
    expectError(await send('PATCH', `/groups/${group.uid}`, { phonNumber: '1' }, { ...STRICT, 'If-Match': '"99"' }), 412);
    expectError(await call(app, 'PATCH', `/groups/${group.uid}`, { token: alice.token, body: { phonNumber: '1' }, headers: STRICT }), 403);
  });

  it('association bodies: unknown keys of {href} and of compact links; a URI list has no fields', async () => {
    const group = await newGroup();
    const members = `/groups/${group.uid}/members`;
    const uri = `${app.api}/users/${alice.user.uid}`;
    expectError(await send('PUT', members, { href: uri, rel: 'member' }, STRICT), 400, { subErrors: [unknownField('rel', 'member')] });
    const compact = await send('POST', members, { links: [{ href: uri, rel: 'member' }] }, { ...STRICT, 'Content-Type': 'application/x-spring-data-compact+json' });
    expectError(compact, 400, { errors: ['links[0].rel: unknown field'] });
    const lenient = await send('PATCH', members, { href: uri, rel: 'member' });
    expect([lenient.status, lenient.headers.get('ignored-fields')]).toEqual([204, 'rel']);
    const list = await send('PUT', members, uri, { ...STRICT, 'Content-Type': 'text/uri-list' });
    expect([list.status, list.headers.get('preference-applied'), list.headers.has('ignored-fields')]).toEqual([204, 'handling=strict', false]);
    expect((await send('PUT', members, [uri], STRICT)).status).toBe(204);
  });
});

describe('Terraform-style bodies (test/support/terraform-client) have no unknown fields', () => {
  /** The provider's headers, plus strict handling: any field the document does not declare would be a 400. */
  const tf = (method: string, path: string, body: unknown) => call(app, method, path, {
    token: t.admin.token,
    headers: { Realm: t.shortName, Accept: 'application/hal+json', 'Content-Type': 'application/json', ...STRICT },
    raw: JSON.stringify(body),
  });
  const ok = (res: CallResult) => {
    expect([200, 201, 204], res.text).toContain(res.status);
    expect(res.headers.get('preference-applied')).toBe('handling=strict');
    return res;
  };

  it('instance, group, environment with maps, user and roles, principal, credential, grant and its denial', async () => {
    const instance = ok(await tf('POST', '/instances', { name: name('Tf Instance'), shortName: `tfinst${seq}` })).body;
    const group = ok(await tf('POST', '/groups', { name: name('Tf Owners'), members: [t.admin.user.uid] })).body;
    const env = ok(await tf('POST', '/environments', {
      name: `tf-env-${seq}`, shortName: `tfenv${seq}`, color: '#80affe', retentionTime: 3600000, partitions: 3, authorizationIssuer: 'Stream owner',
      visibility: 'Public', instance: `${app.api}/instances/${instance.uid}`, owners: `${app.api}/groups/${group.uid}`, viewers: null,
      properties: { 'segment.ms': '60000', 'retention.bytes': '1000' }, settings: { enforceDataMasking: 'false' },
    })).body;
    ok(await tf('PATCH', `/environments/${env.uid}`, {
      name: env.name, shortName: env.shortName, instance: instance.uid, owners: group.uid, viewers: null, properties: { 'segment.ms': null }, settings: {},
    }));
    ok(await tf('PATCH', `/users/${alice.user.uid}/roles`, [{ name: 'STREAM_AUTHOR' }, { name: 'SCHEMA_AUTHOR' }]));
    ok(await tf('PATCH', `/users/${alice.user.uid}`, {
      firstName: 'Terra', lastName: 'Form', middleName: '', emailAddress: alice.email, roles: [{ name: 'STREAM_AUTHOR' }, { name: 'SCHEMA_AUTHOR' }],
    }));
    const application = await newApplication(app, t.admin.token, { tag: 'tfu', owners: group.uid });
    const { stream } = await configuredStream(app, t.admin.token, { name: `tfu-topic-${seq}`, owners: group.uid, environments: [env.uid] });
    ok(await tf('POST', '/application_principals', [{ principal: `tfu-client-${seq}`, custom: true, application: application.uid, environment: env.uid }]));
    ok(await tf('POST', '/application_authentications', { applicationId: application.uid, environmentId: env.uid, target: 'KAFKA' }));
    const grant = ok(await tf('POST', '/application_access_grants', {
      applicationId: application.uid, streamId: stream.uid, environmentId: env.uid, accessType: 'CONSUMER',
    })).body;
    if (grant.status === 'Pending') ok(await tf('POST', `/application_access_grants/${grant.uid}/deny`, { reason: 'not now' }));
  });
});
