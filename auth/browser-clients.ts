/**
 * The clients that may sign people in through the browser (authorization code with PKCE; all public: a browser
 * cannot keep a secret). `self-service` is the service's own: its reference page and its web interface under the
 * public URL, plus `SELF_SERVICE_REDIRECT_URIS`; `BROWSER_CLIENTS` registers others (docs/operations.md,
 * "Registering a browser client"). A redirect URI matches only exactly (RFC 9700 §4.1.3): no prefix, no pattern.
 */
import type { BrowserClient, BrowserClientSettings } from '../core/browser-client-settings';

export type { BrowserClient };

export const SELF_SERVICE = 'self-service';

/** Every browser client, `self-service` first, for the service whose public root is `publicRoot` (no trailing slash). */
export function browserClients(settings: BrowserClientSettings, publicRoot: string, basePath: string): Map<string, BrowserClient> {
  const own = [`${publicRoot}${basePath}/docs/oauth2-redirect.html`, `${publicRoot}/`, ...settings.selfServiceRedirectUris];
  const selfService: BrowserClient = { clientId: SELF_SERVICE, redirectUris: own, postLogoutRedirectUris: own };
  return new Map([selfService, ...settings.clients].map((c) => [c.clientId, c]));
}

export const redirectAllowed = (client: BrowserClient, uri: string): boolean => client.redirectUris.includes(uri);
export const postLogoutAllowed = (client: BrowserClient, uri: string): boolean => client.postLogoutRedirectUris.includes(uri);


/** The ids of every public client of the realm's issuer: `self-service` and the browser clients. */
export function publicClientIds(settings: BrowserClientSettings): Set<string> {
  return new Set([SELF_SERVICE, ...settings.clients.map((c) => c.clientId)]);
}
