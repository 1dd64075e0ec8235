/**
 * What the Axual Terraform provider's client sends, byte for byte (test/support/terraform-client), and what it
 * decodes from the reply: the defects its run against main found (issue 9, items 1–3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { queryEscape, terraformCall } from '../support/terraform-client';

let app: TestApp;
let t: TestTenant;
let person: TestUser;
let instance: any;
let group: any;
let env: any;
const tf = (method: string, path: string, body?: unknown) => terraformCall(app, t.shortName, t.admin.token, method, path, body);

beforeAll(async () => {
  ({ app, t } = await startWithTenant('terraform'));
  person = await createUser(app, t, ['STREAM_AUTHOR'], 'person+tf');
  instance = (await tf('POST', '/instances', { name: 'Terraform Instance', shortName: 'tfinst' })).body;
  group = (await tf('POST', '/groups', { name: 'Terraform Owners', members: [t.admin.user.uid] })).body;
  env = (await tf('POST', '/environments', {
    name: 'tf-env', shortName: 'tfenv', color: '#80affe', retentionTime: 3600000, partitions: 3, authorizationIssuer: 'Stream owner',
    visibility: 'Public', instance: `${app.api}/instances/${instance.uid}`, owners: `${app.api}/groups/${group.uid}`, viewers: null,
    properties: { 'segment.ms': '60000', 'retention.bytes': '1000' }, settings: { enforceDataMasking: 'false' },
  })).body;
  expect([instance, group, env].map((r) => r.uid ? "ok" : JSON.stringify(r))).toEqual(["ok", "ok", "ok"]);
});
afterAll(async () => app?.stop());

describe('searches the provider decodes', () => {
  it('FindUserByEmail reads _embedded.users[0]', async () => {
    const res = await tf('GET', `/users/search/findByEmailAddress?email=${queryEscape(person.email)}`);
    expect(res.status).toBe(200);
    expect(res.body._embedded.users[0]).toMatchObject({ uid: person.user.uid, emailAddress: { email: person.email }, middleName: null });
  });
  it('GetEnvironmentByShortName reads _embedded.environments[0]', async () => {
    const res = await tf('GET', `/environments/search/findByShortName?shortName=${queryEscape('tfenv')}`);
    expect(res.body._embedded.environments).toEqual([expect.objectContaining({ uid: env.uid, shortName: 'tfenv' })]);
  });
  it('GetInstanceByName decodes one instance; an unknown name is 404', async () => {
    const res = await tf('GET', `/instances/search/findByName?name=${queryEscape('Terraform Instance')}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uid: instance.uid, name: 'Terraform Instance', shortName: 'tfinst' });
    expect((await tf('GET', `/instances/search/findByName?name=${queryEscape('No Such Instance')}`)).status).toBe(404);
  });
});

describe('UpdateUser', () => {
  it('PATCH roles, then PATCH the user with middleName "" and a string emailAddress; "" is echoed', async () => {
    expect((await tf('PATCH', `/users/${person.user.uid}/roles`, [{ name: 'STREAM_AUTHOR' }, { name: 'SCHEMA_AUTHOR' }])).status).toBe(200);
    const res = await tf('PATCH', `/users/${person.user.uid}`, {
      firstName: 'Terra', lastName: 'Form', middleName: '', emailAddress: person.email, roles: [{ name: 'STREAM_AUTHOR' }, { name: 'SCHEMA_AUTHOR' }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: 'Terra', middleName: '', lastName: 'Form', fullName: 'Terra Form', emailAddress: { email: person.email } });
    expect((await tf('GET', `/users/${person.user.uid}`)).body.middleName).toBe('');
  });
  it('creating a user with middleName "" works too', async () => {
    const res = await tf('POST', '/users', { firstName: 'New', lastName: 'Person', middleName: '', emailAddress: `new-${t.shortName}@example.com`, roles: [{ name: 'APPLICATION_AUTHOR' }] });
    expect(res.status).toBe(201);
    expect(res.body.middleName).toBe('');
  });
});

describe('UpdateEnvironment: maps', () => {
  const base = () => ({ name: 'tf-env', shortName: 'tfenv', instance: instance.uid, owners: group.uid, viewers: null });
  it('drops a key by sending it as null and keeps the others', async () => {
    const res = await tf('PATCH', `/environments/${env.uid}`, { ...base(), properties: { 'segment.ms': null, 'retention.bytes': '2000' }, settings: { enforceDataMasking: 'true' } });
    expect(res.status).toBe(200);
    expect(res.body.properties).toEqual({ 'retention.bytes': '2000' });
    expect(res.body.settings).toEqual({ enforceDataMasking: 'true' });
  });
  it('clears a map by sending {} (properties = {} or none in Terraform)', async () => {
    const res = await tf('PATCH', `/environments/${env.uid}`, { ...base(), properties: {}, settings: {} });
    expect(res.status).toBe(200);
    expect(res.body.properties).toEqual({});
    expect(res.body.settings).toEqual({});
    const read = await tf('GET', `/environments/${env.uid}`);
    expect([read.body.properties, read.body.settings]).toEqual([{}, {}]);
  });
});
