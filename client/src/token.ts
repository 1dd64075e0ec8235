/**
 * A person's access token from the service's embedded OpenID Connect issuer (the password grant of its public client
 * `self-service`), for scripts and tests. An external Keycloak issues tokens its own way.
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
  const body = new URLSearchParams({ client_id: 'self-service', grant_type: 'password', username, password });
  const response = await fetch(new Request(url, { method: 'POST', body }));
  const reply = (await response.json().catch(() => ({}))) as TokenReply;
  if (!response.ok || typeof reply.access_token !== 'string') {
    throw new Error(`token request to ${url} failed: ${response.status} ${reply.error ?? ''} ${reply.error_description ?? ''}`.trim());
  }
  return reply.access_token;
}
