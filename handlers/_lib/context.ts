import type { Models } from '../../models';
import type { Row } from '../../models/define';
import type { Config } from '../../server/config';
import type { SecretBox } from '../../server/secret-box';

/** Who is calling: resolved from a verified bearer token (auth/authenticate). */
export interface Principal {
  tenant: Row;
  user: Row;
  roles: Set<string>;
  email: string;
  fullName: string;
}

/** Process-wide dependencies handed to handlers and the auth module. */
export interface Deps {
  models: Models;
  config: Config;
  /** `{auth_url}`: the embedded issuer's public base (…/auth) or the external IdP's. Known once listening. */
  authUrl: () => string;
  /** Encryption of secrets at rest (signing keys, principals' private keys). */
  secrets: SecretBox;
}

/** Everything one handler call may use. */
export interface RequestContext {
  deps: Deps;
  models: Models;
  /** `{base}`: absolute API root as the caller sees it, no trailing slash. */
  base: string;
  principal: Principal;
  requestId: string;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** Raw query string values, repeated parameters as arrays (sort=a&sort=b). */
  rawQuery: Record<string, string | string[]>;
  body: unknown;
  contentType: string | undefined;
}
