/**
 * Access tokens for scripts, tests and CI: a person's from the service's embedded OpenID Connect issuer (the password
 * grant of its public client `self-service`), and a service account's by client credentials, from the embedded issuer
 * or a Keycloak (same token endpoint shape).
 */

export interface PasswordTokenOptions {
  /** The issuer root, e.g. `http://localhost:8080/auth`. */
  authUrl: string;
  /** The tenant's short name. */
  realm: string;
  username: string;
  password: string;
  fetch?: (request: Request) => Promise<Response>;
}

interface TokenReply { access_token?: string; error?: string; error_description?: string }

/** The access token (it lives `expires_in` seconds, five minutes by default); throws with the issuer's OAuth error. */
export async function passwordToken(options: PasswordTokenOptions): Promise<string> {
  const { authUrl, realm, username, password, fetch = globalThis.fetch } = options;
  const url = `${authUrl.replace(/\/+$/, '')}/realms/${encodeURIComponent(realm)}/protocol/openid-connect/token`;
  return requestToken(url, new URLSearchParams({ client_id: 'self-service', grant_type: 'password', username, password }), fetch);
}

export interface ClientCredentialsOptions {
  /** The issuer's token endpoint, e.g. `http://localhost:8080/auth/realms/demo/protocol/openid-connect/token`. */
  tokenUrl: string;
  /** The service account's client id; a federated assertion alone names its service account. */
  clientId?: string;
  /** The service account's secret, or instead: */
  clientSecret?: string;
  /** A JWT of a workload-identity issuer the tenant trusts (a CI job's OIDC token): federated client credentials. */
  clientAssertion?: string;
  fetch?: (request: Request) => Promise<Response>;
}

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** A service account's access token by the client_credentials grant; throws with the issuer's OAuth error. */
export async function clientCredentialsToken(options: ClientCredentialsOptions): Promise<string> {
  const { tokenUrl, clientId, clientSecret, clientAssertion, fetch = globalThis.fetch } = options;
  if ((clientSecret === undefined) === (clientAssertion === undefined)) throw new TypeError('give clientSecret or clientAssertion, not both');
  const body = new URLSearchParams({ grant_type: 'client_credentials' });
  if (clientId !== undefined) body.set('client_id', clientId);
  if (clientSecret !== undefined) body.set('client_secret', clientSecret);
  if (clientAssertion !== undefined) {
    body.set('client_assertion_type', JWT_BEARER);
    body.set('client_assertion', clientAssertion);
  }
  return requestToken(tokenUrl, body, fetch);
}

async function requestToken(url: string, body: URLSearchParams, fetch: (request: Request) => Promise<Response>): Promise<string> {
  const response = await fetch(new Request(url, { method: 'POST', body }));
  const reply = (await response.json().catch(() => ({}))) as TokenReply;
  if (!response.ok || typeof reply.access_token !== 'string') {
    throw new Error(`token request to ${url} failed: ${response.status} ${reply.error ?? ''} ${reply.error_description ?? ''}`.trim());
  }
  return reply.access_token;
}
