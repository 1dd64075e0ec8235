/** The browser clients of the embedded issuer as configured (`BROWSER_CLIENTS`, `SELF_SERVICE_REDIRECT_URIS`; auth/browser-clients). */
import { ConfigError } from './config-error';

export interface BrowserClient {
  clientId: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
}

export interface BrowserClientSettings {
  /** `BROWSER_CLIENTS`: more public clients. */
  clients: BrowserClient[];
  /** `SELF_SERVICE_REDIRECT_URIS`: more redirect URIs of `self-service` (a portal on another origin, a local dev server). */
  selfServiceRedirectUris: string[];
}

const SELF_SERVICE = 'self-service';

/** An absolute http(s) URI without a fragment (RFC 6749 §3.1.2), as registered; `what` names it in the error. */
function checkUri(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new ConfigError(`${what} must be a string`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${what} must be an absolute URI (got ${JSON.stringify(value)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${what} must be http or https (got ${JSON.stringify(value)})`);
  if (url.hash !== '' || value.includes('#')) throw new ConfigError(`${what} must not have a fragment (got ${JSON.stringify(value)})`);
  return value;
}

/** `SELF_SERVICE_REDIRECT_URIS`: space-separated absolute URIs. */
export function parseRedirectUris(text: string | undefined): string[] {
  return (text ?? '').split(/\s+/).filter((u) => u !== '').map((u, i) => checkUri(u, `SELF_SERVICE_REDIRECT_URIS[${i}]`));
}

/** `BROWSER_CLIENTS`: a JSON array of `{ "clientId", "redirectUris": [...], "postLogoutRedirectUris"?: [...] }`. */
export function parseBrowserClients(text: string | undefined): BrowserClient[] {
  if (text === undefined || text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError('BROWSER_CLIENTS must be a JSON array of { clientId, redirectUris, postLogoutRedirectUris }');
  }
  if (!Array.isArray(parsed)) throw new ConfigError('BROWSER_CLIENTS must be a JSON array');
  const seen = new Set<string>([SELF_SERVICE]);
  return parsed.map((entry: unknown, i) => {
    const at = `BROWSER_CLIENTS[${i}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new ConfigError(`${at} must be an object`);
    const { clientId, redirectUris, postLogoutRedirectUris, ...rest } = entry as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) throw new ConfigError(`${at}.${unknown[0]}: unknown field (clientId, redirectUris, postLogoutRedirectUris)`);
    if (typeof clientId !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(clientId)) throw new ConfigError(`${at}.clientId must be 1-64 letters, digits, '.', '_' or '-'`);
    if (seen.has(clientId)) throw new ConfigError(`${at}.clientId ${clientId} is registered twice (or is the service's own)`);
    seen.add(clientId);
    if (!Array.isArray(redirectUris) || redirectUris.length === 0) throw new ConfigError(`${at}.redirectUris must be a non-empty array`);
    if (postLogoutRedirectUris !== undefined && !Array.isArray(postLogoutRedirectUris)) throw new ConfigError(`${at}.postLogoutRedirectUris must be an array`);
    return {
      clientId,
      redirectUris: redirectUris.map((u, j) => checkUri(u, `${at}.redirectUris[${j}]`)),
      postLogoutRedirectUris: ((postLogoutRedirectUris ?? []) as unknown[]).map((u, j) => checkUri(u, `${at}.postLogoutRedirectUris[${j}]`)),
    };
  });
}
