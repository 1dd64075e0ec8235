/**
 * Issue 30: the embedded issuer has one name, PUBLIC_URL's or else `http://localhost:<port>`, whatever Host a client
 * uses: discovery announces it, tokens carry it (OIDC Discovery §4.3 has clients compare it with the URL they
 * configured, and replicas must agree). Links are different: without PUBLIC_URL they follow the request's host.
 */
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { createTenant, startTestApp, type TestApp, type TestTenant } from '../support/app';

const apps: TestApp[] = [];
afterAll(async () => { for (const app of apps) await app.stop(); });

/** GET on the app's loopback port with the given headers (Host included, which fetch may not set). */
function get(app: TestApp, path: string, headers: Record<string, string>, token?: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: app.port, path, headers: { ...headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) } }, (res) => {
      let text = '';
      res.on('data', (d) => { text += String(d); });
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${res.statusCode} ${text}`))));
    });
    req.once('error', reject);
    req.end();
  });
}

const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

const HOSTS: Record<string, string>[] = [
  {},
  { Host: 'pms.example.com' },
  { Host: '10.1.2.3:9999', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'gateway.example.org' },
];

async function withTenant(overrides: Parameters<typeof startTestApp>[0]): Promise<{ app: TestApp; t: TestTenant }> {
  const app = await startTestApp(overrides);
  apps.push(app);
  // Tokens are asked for at the loopback address, whatever the issuer's name.
  return { app, t: await createTenant({ ...app, authUrl: `http://127.0.0.1:${app.port}/auth` }, 'iss') };
}

describe('the embedded issuer names itself the same whatever the Host', () => {
  it('without PUBLIC_URL: http://localhost:<port>, in discovery and in tokens; links follow the host', async () => {
    const { app, t } = await withTenant({});
    const issuer = `http://localhost:${app.port}/auth/realms/${t.shortName}`;
    for (const headers of HOSTS) {
      const discovery = await get(app, `/auth/realms/${t.shortName}/.well-known/openid-configuration`, headers);
      expect(discovery.issuer, JSON.stringify(headers)).toBe(issuer);
      expect(discovery.token_endpoint).toBe(`${issuer}/protocol/openid-connect/token`);
    }
    expect(claims(t.admin.token).iss).toBe(issuer);
    const tenant = await get(app, '/api/tenant', { Host: 'pms.example.com' }, t.admin.token);
    expect(tenant.issuerUrl).toBe(issuer);
    expect(tenant._links.self.href).toMatch(/^http:\/\/pms\.example\.com\/api\/tenants\//);
  });

  it('with PUBLIC_URL: PUBLIC_URL, for the issuer and the links alike', async () => {
    const { app, t } = await withTenant({ publicUrl: 'https://pms.example.com' });
    const issuer = `https://pms.example.com/auth/realms/${t.shortName}`;
    for (const headers of HOSTS) {
      expect((await get(app, `/auth/realms/${t.shortName}/.well-known/openid-configuration`, headers)).issuer).toBe(issuer);
    }
    expect(claims(t.admin.token).iss).toBe(issuer);
    const tenant = await get(app, '/api/tenant', { Host: '10.1.2.3' }, t.admin.token);
    expect(tenant._links.self.href).toMatch(/^https:\/\/pms\.example\.com\/api\/tenants\//);
  });
});
