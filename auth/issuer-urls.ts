/** Where the embedded issuer's pieces are, from the public URL of its mount point (`{publicRoot}/auth`). */

/** The service's public root: the issuer's URL without its `/auth` mount. */
export function publicRootOf(authUrl: string): string {
  return authUrl.endsWith('/auth') ? authUrl.slice(0, -'/auth'.length) : authUrl;
}

/** The path of a realm's cookies: only that realm's pages see them. */
export const realmCookiePath = (realm: string): string => `/auth/realms/${realm}/`;
