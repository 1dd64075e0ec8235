import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { expectError } from '../support/errors';
import { call } from '../support/http';

let app: TestApp;
let t: TestTenant;

beforeAll(async () => { ({ app, t } = await startWithTenant('profile')); });
afterAll(async () => app?.stop());

describe('profile', () => {
  it('collection profile links lead to an ALPS description of the representation and operations', async () => {
    const list = await call(app, 'GET', '/clusters', { token: t.admin.token });
    const profile = await call(app, 'GET', list.body._links.profile.href, { token: t.admin.token });
    expect(profile.status).toBe(200);
    expect(profile.headers.get('content-type')).toContain('application/alps+json');
    const [representation, ...operations] = profile.body.alps.descriptor;
    expect(representation.id).toBe('cluster-representation');
    expect(representation.descriptor.map((d: { name: string }) => d.name)).toEqual(
      expect.arrayContaining(['name', 'bootstrapServers', 'schemaRegistryUrls', 'providerType']),
    );
    expect(operations.map((o: { id: string }) => o.id)).toEqual(expect.arrayContaining(['get-clusters', 'create-clusters', 'patch-cluster', 'findByName']));
  });

  it('answers a JSON Schema of one item for Accept: application/schema+json', async () => {
    const res = await call(app, 'GET', '/profile/clusters', { token: t.admin.token, headers: { Accept: 'application/schema+json' } });
    expect(res.status).toBe(200);
    expect(res.body.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(res.body.title).toBe('Cluster');
    expect(JSON.stringify(res.body)).toContain('bootstrapServers');
  });

  it.each(['clusters', 'instances', 'environments', 'groups', 'users', 'tenants'])('the %s JSON Schema is a flat draft-07 object naming every field', async (c) => {
    const res = await call(app, 'GET', `/profile/${c}`, { token: t.admin.token, headers: { Accept: 'application/schema+json' } });
    expect(res.body).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' });
    const alps = await call(app, 'GET', `/profile/${c}`, { token: t.admin.token });
    const fields = alps.body.alps.descriptor[0].descriptor.filter((d: any) => d.type === 'SEMANTIC').map((d: any) => d.name);
    expect(Object.keys(res.body.properties)).toEqual(expect.arrayContaining([...fields, 'uid', 'created_at', 'modified_at', 'created_by', 'modified_by']));
    expect(res.body.properties.uid).toMatchObject({ type: 'string' });
    const text = JSON.stringify(res.body);
    for (const openApiOnly of ['"allOf"', '"$ref"', '"nullable"', '"example"']) expect(text).not.toContain(openApiOnly);
  });

  it('lists every index collection under /profile and 404s an unknown one', async () => {
    const index = await call(app, 'GET', '/profile', { token: t.admin.token });
    expect(index.body._links.clusters.href).toBe(`${app.api}/profile/clusters`);
    const unknown = await call(app, 'GET', '/profile/nothing', { token: t.admin.token });
    expectError(unknown, 404);
  });
});
