import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { call } from '../support/http';

let app: TestApp;
let t: TestTenant;

beforeAll(async () => { ({ app, t } = await startWithTenant('clusters')); });
afterAll(async () => app?.stop());

describe('clusters', () => {
  it('creates a cluster and reads it back with its links', async () => {
    const created = await call(app, 'POST', '/clusters', { token: t.admin.token, body: { name: 'eu-1', bootstrapServers: ['b1:9092'] } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(created.body._links.self.href);
    expect(created.body).toMatchObject({ name: 'eu-1', providerType: 'APACHE_KAFKA', schemaRegistryUrls: [], created_by: t.admin.email });
    const read = await call(app, 'GET', created.headers.get('location')!, { token: t.admin.token });
    expect(read.status).toBe(200);
    expect(read.body.uid).toBe(created.body.uid);
    expect(read.body._links.cluster.href).toBe(created.body._links.self.href);
  });
});
