/**
 * A second, independent OIDC issuer for tests: its own RSA keys, its own loopback port, a JWKS served both
 * Keycloak-style (`/realms/{realm}/protocol/openid-connect/certs`) and at `/jwks`. It stands in for an external
 * Keycloak (AUTH_URL mode) and for a workload-identity provider whose assertions a tenant trusts (federation).
 */
import { createServer, type Server } from 'node:http';
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import jwt, { type SignOptions } from 'jsonwebtoken';

interface SigningKey { kid: string; privateKey: KeyObject; publicKey: KeyObject }

export interface ExternalIssuer {
  /** `http://127.0.0.1:{port}`; Keycloak-style issuers are `{url}/realms/{realm}`. */
  url: string;
  /** `{url}/jwks`: the key set outside any realm (federation). */
  jwksUri: string;
  /** How often the key set was fetched (to observe caching). */
  jwksRequests: () => number;
  /** Signs claims with the current key (RS256, its kid) unless options say otherwise. */
  sign: (claims: Record<string, unknown>, options?: SignOptions) => string;
  /** A new current key with a new kid; the old one stays published unless `dropOld`. */
  rotate: (dropOld?: boolean) => string;
  /** Answer 503 on every request (an IdP outage). */
  setDown: (down: boolean) => void;
  close: () => Promise<void>;
}

function newKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid: randomUUID(), privateKey, publicKey };
}

export async function startExternalIssuer(): Promise<ExternalIssuer> {
  let keys: SigningKey[] = [newKey()];
  let requests = 0;
  let down = false;
  const jwks = () => ({ keys: keys.map((k) => ({ ...k.publicKey.export({ format: 'jwk' }), kid: k.kid, use: 'sig', alg: 'RS256' })) });

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (down) { res.writeHead(503).end(); return; }
    if (path === '/jwks' || /^\/realms\/[^/]+\/protocol\/openid-connect\/certs$/.test(path)) {
      requests += 1;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(jwks()));
      return;
    }
    res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    jwksUri: `${url}/jwks`,
    jwksRequests: () => requests,
    sign: (claims, options = {}) => {
      const current = keys[keys.length - 1];
      return jwt.sign(claims, current.privateKey, { algorithm: 'RS256', keyid: current.kid, ...options });
    },
    rotate: (dropOld = false) => {
      const next = newKey();
      keys = dropOld ? [next] : [...keys, next];
      return next.kid;
    },
    setDown: (value) => { down = value; },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
