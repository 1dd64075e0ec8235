/**
 * The service's one public root: PUBLIC_URL, else `http://localhost:<port>`. The embedded issuer names itself
 * `<root>/auth/realms/<tenant>` from it whatever Host a request uses, so every replica, every token and every
 * discovery document agree on one issuer (OIDC Discovery §4.3 makes clients compare it with the URL they used).
 * Links are different: without PUBLIC_URL they follow the request's Host / X-Forwarded-* (server/app.ts baseUrl).
 */
import type { Config } from './config';

export const publicRoot = (config: Pick<Config, 'publicUrl'>, port: number): string => config.publicUrl ?? `http://localhost:${port}`;

/** `{auth_url}`: the external identity provider's base, else the embedded issuer's under the public root. */
export const authBase = (config: Pick<Config, 'publicUrl' | 'externalAuthUrl'>, port: number): string =>
  config.externalAuthUrl ?? `${publicRoot(config, port)}/auth`;
