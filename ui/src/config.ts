/**
 * What the service tells the portal about itself, in the page's `portal-config` meta element (server/portal.ts fills
 * it): where the issuer is, the API's root, and the redirect URI registered for the `self-service` client.
 */
export interface PortalConfig {
  /** The issuer root: `{authUrl}/realms/{tenant}` is a tenant's issuer. */
  authUrl: string;
  /** The API root path, e.g. `/api`. */
  api: string;
  clientId: string;
  /** Exactly as registered: the portal's root under the public URL. */
  redirectUri: string;
}

function read(): PortalConfig {
  const content = document.querySelector<HTMLMetaElement>('meta[name="portal-config"]')?.content;
  if (!content) throw new Error('The page has no portal-config: it is served by the service, not opened as a file.');
  return JSON.parse(content) as PortalConfig;
}

export const config: PortalConfig = read();
