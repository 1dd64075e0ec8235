import type { Transaction } from 'sequelize';
import type { Row, RowModel } from './row';
import type { Config } from './config';
import type { SecretBox } from './secret-box';
import type { HealthInputs } from './health';

/** Who is calling: resolved from a verified bearer token (auth/authenticate). */
export interface Principal {
  tenant: Row;
  /** The caller's user with what a request needs of it (uid, roles, email, names: models/caller); not its hashes. */
  user: Row;
  roles: Set<string>;
  email: string;
  fullName: string;
}

/** A row read with the caller for a GET of one item, and the targets of its associations (per relation). */
export interface Prefetched { model: RowModel; uid: string; row: Row | null; targets?: Map<string, Row[]> }

/**
 * The data layer's models by name. The core names no model: models/index.ts declares the members of this
 * interface (module augmentation), so every layer above sees them typed.
 */
export interface Models {}

/** Process-wide dependencies handed to handlers and the auth module. */
export interface Deps {
  models: Models;
  config: Config;
  /** `{auth_url}`: the embedded issuer's public base (…/auth) or the external IdP's. Known once listening. */
  authUrl: () => string;
  /** The service's public root (PUBLIC_URL, else http://localhost:<port>). Known once listening. */
  publicRoot: () => string;
  /** Encryption of secrets at rest (signing keys, principals' private keys). */
  secrets: SecretBox;
  /** The process's state the readiness probe reports. */
  health: HealthInputs;
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
  /**
   * The row a GET of one item names, read with the caller in one statement and within the caller's tenant (row
   * null: none there); the store takes it only where the caller's scope is that tenant alone and no transaction is
   * open (handlers/_lib/store). `targets`: the targets of its associations, read in the same round trip where the
   * data access can, per association; the store takes them for this item whatever the caller's scope (targets are
   * not subject to visibility).
   */
  prefetched?: Prefetched;
  /**
   * The write's transaction while one is open (handlers/_lib/mutation). Permission reads (auth/permissions,
   * auth/parent-rows) run in it: a write that held one pooled connection and waited for a second could, under
   * as many concurrent writes as the pool has connections, leave every request waiting until the pool gave up (503).
   */
  transaction?: Transaction;
}
