/**
 * Where a browser signs in when an external identity provider issues the tokens (`AUTH_URL`, e.g. Keycloak): the
 * endpoints its OpenID discovery document names for the realm, read at most once per realm every ten minutes.
 * While the provider cannot be asked (or answers no usable document), Keycloak's own layout under `AUTH_URL` stands
 * in, and the provider is asked again after half a minute.
 */
import { logger } from '../core/logger';

export interface BrowserEndpoints {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  endSessionEndpoint?: string;
  /** From the provider's discovery document (true) or Keycloak's layout standing in (false). */
  discovered: boolean;
}

const FRESH_MS = 10 * 60_000;
const RETRY_MS = 30_000;

/** Keycloak's layout: `{authUrl}/realms/{realm}/protocol/openid-connect/{auth,token,logout}`. */
export function keycloakEndpoints(authUrl: string, realm: string): BrowserEndpoints {
  const issuer = `${authUrl}/realms/${encodeURIComponent(realm)}`;
  const at = (name: string) => `${issuer}/protocol/openid-connect/${name}`;
  return { issuer, authorizationEndpoint: at('auth'), tokenEndpoint: at('token'), endSessionEndpoint: at('logout'), discovered: false };
}

const httpUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

export function createBrowserEndpoints(authUrl: string, options: { timeoutMs?: number; now?: () => number } = {}): (realm: string) => Promise<BrowserEndpoints> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const now = options.now ?? Date.now;
  const known = new Map<string, { endpoints: BrowserEndpoints; until: number }>();
  const asking = new Map<string, Promise<BrowserEndpoints>>();

  async function ask(realm: string): Promise<BrowserEndpoints> {
    const fallback = keycloakEndpoints(authUrl, realm);
    const url = `${fallback.issuer}/.well-known/openid-configuration`;
    try {
      const res = await fetch(url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const doc = (await res.json()) as Record<string, unknown>;
      if (!httpUrl(doc.authorization_endpoint) || !httpUrl(doc.token_endpoint)) throw new Error('no authorization_endpoint or token_endpoint');
      const endpoints: BrowserEndpoints = {
        issuer: typeof doc.issuer === 'string' ? doc.issuer : fallback.issuer,
        authorizationEndpoint: doc.authorization_endpoint, tokenEndpoint: doc.token_endpoint,
        ...(httpUrl(doc.end_session_endpoint) ? { endSessionEndpoint: doc.end_session_endpoint } : {}),
        discovered: true,
      };
      known.set(realm, { endpoints, until: now() + FRESH_MS });
      return endpoints;
    } catch (err) {
      logger.warn({ url, err: (err as Error).message }, "the identity provider's discovery document could not be read; its Keycloak layout stands in");
      known.set(realm, { endpoints: fallback, until: now() + RETRY_MS });
      return fallback;
    }
  }

  return async (realm) => {
    const cached = known.get(realm);
    if (cached && cached.until > now()) return cached.endpoints;
    let pending = asking.get(realm);
    if (!pending) {
      pending = ask(realm).finally(() => asking.delete(realm));
      asking.set(realm, pending);
    }
    if (known.size > 1000) known.clear();
    return pending;
  };
}
