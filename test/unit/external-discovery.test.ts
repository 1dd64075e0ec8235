/** Browser sign-in with an external provider: its discovery document names the endpoints; Keycloak's layout stands in. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserEndpoints, keycloakEndpoints } from '../../auth/external-discovery';

let server: Server;
let base: string;
const asked: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    if (req.url === '/realms/acme/.well-known/openid-configuration') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ issuer: `${base}/realms/acme`, authorization_endpoint: 'https://login.acme.example/authorize', token_endpoint: 'https://login.acme.example/token', end_session_endpoint: 'https://login.acme.example/logout' }));
    } else if (req.url === '/realms/broken/.well-known/openid-configuration') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ authorization_endpoint: 'javascript:alert(1)', token_endpoint: 'https://x/token' }));
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the external provider\'s browser endpoints', () => {
  it('come from its discovery document, asked once for many sign-ins', async () => {
    const endpoints = createBrowserEndpoints(base);
    const before = asked.length;
    const [a, b] = await Promise.all([endpoints('acme'), endpoints('acme')]);
    expect(a).toEqual({ issuer: `${base}/realms/acme`, authorizationEndpoint: 'https://login.acme.example/authorize', tokenEndpoint: 'https://login.acme.example/token', endSessionEndpoint: 'https://login.acme.example/logout', discovered: true });
    expect(b).toEqual(a);
    await endpoints('acme');
    expect(asked.length - before).toBe(1);
  });

  it('an unknown realm, an unusable document or no answer: Keycloak\'s layout, asked again after half a minute', async () => {
    let clock = 0;
    const endpoints = createBrowserEndpoints(base, { now: () => clock });
    expect(await endpoints('nobody')).toEqual(keycloakEndpoints(base, 'nobody'));
    expect((await endpoints('broken')).authorizationEndpoint).toBe(`${base}/realms/broken/protocol/openid-connect/auth`);
    const before = asked.length;
    await endpoints('nobody');
    expect(asked.length).toBe(before);
    clock += 31_000;
    await endpoints('nobody');
    expect(asked.length).toBe(before + 1);
    const down = createBrowserEndpoints('http://127.0.0.1:1', { timeoutMs: 500 });
    expect(await down('acme')).toMatchObject({ authorizationEndpoint: 'http://127.0.0.1:1/realms/acme/protocol/openid-connect/auth', discovered: false });
  });
});
