/**
 * External IdP mode (AUTH_URL): who a verified token speaks for (docs/contract.md §1.3). A user is found by the stored IdP
 * subject, else by email (then linked to the subject), else created just in time from the token's claims. After
 * that the database is the record: later claims (names, roles) never overwrite it, and permission checks use the
 * stored roles.
 */
import { isDeadlock } from '../models/db-errors';
import { col, fn, Op, OptimisticLockError, where, UniqueConstraintError, type Transaction } from 'sequelize';
import type { Deps } from '../core/context';
import { UnauthorizedError } from '../core/errors';
import { writeAudit, type AuditEntry } from '../models/audit-event';
import type { Row } from '../models/define';
import { DEFAULT_ROLES, fullName, serviceAccountEmail, serviceAccountNames } from '../models/user';
import type { JwtPayload } from 'jsonwebtoken';

/** Verified claims of an access token; `sub` and `exp` are guaranteed present. */
export type AccessClaims = JwtPayload & { sub: string; exp: number };

/**
 * External IdP: finds the user a verified token speaks for; null answers 401. Stored subject, then email
 * (linked), then just-in-time creation.
 */
export type UserResolver = (tenant: Row, claims: AccessClaims) => Promise<Row | null>;

export const KNOWN_ROLES = [
  'SCHEMA_ADMIN', 'STREAM_ADMIN', 'TENANT_ADMIN', 'APPLICATION_ADMIN', 'ENVIRONMENT_ADMIN', 'SUPER_ADMIN',
  'APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR', 'SCHEMA_AUTHOR',
] as const;

const NAME_MAX = 100;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** What a first sight of a user needs from the token; `authTime` = when the IdP last authenticated them. */
export interface ExternalIdentity {
  subject: string;
  email: string;
  firstName: string;
  lastName: string;
  roles: string[];
  authTime: number;
  /** Set for a Keycloak service-account token (client credentials): the platform user is a service account. */
  clientId?: string;
}

const refused = (reason: string) => new UnauthorizedError(reason, true);

/** Known platform roles named in `realm_access.roles` (any case), in KNOWN_ROLES order; none → the defaults. */
export function rolesFromClaims(claims: Record<string, unknown>): string[] {
  const access = claims.realm_access as { roles?: unknown } | undefined;
  const named = new Set(Array.isArray(access?.roles) ? access.roles.filter((r): r is string => typeof r === 'string').map((r) => r.toUpperCase()) : []);
  const known = KNOWN_ROLES.filter((r) => named.has(r));
  return known.length > 0 ? known : [...DEFAULT_ROLES];
}

/** Trimmed, control characters dropped, inner whitespace collapsed, at most 100 characters; '' if nothing is left. */
export function cleanName(value: unknown): string {
  if (typeof value !== 'string') return '';
  // eslint-disable-next-line no-control-regex
  const text = value.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/\s+/g, ' ').trim();
  return [...text].slice(0, NAME_MAX).join('').trim();
}

/**
 * `given_name` / `family_name`; a missing one from `name` (first word / the rest); still missing, from the email's
 * local part split at `.`, `_`, `-` or `+` ("jane.doe" → jane / doe; a one-word local part serves as both).
 */
export function namesFromClaims(claims: Record<string, unknown>, email: string): { firstName: string; lastName: string } {
  let firstName = cleanName(claims.given_name);
  let lastName = cleanName(claims.family_name);
  const [nameFirst, ...nameRest] = cleanName(claims.name).split(' ').filter(Boolean);
  if (!firstName && nameFirst && (nameRest.length > 0 || !lastName)) firstName = nameFirst;
  if (!lastName && nameRest.length > 0) lastName = cleanName(nameRest.join(' '));
  const parts = email.slice(0, email.lastIndexOf('@')).split(/[._+-]+/).map(cleanName).filter(Boolean);
  const local = cleanName(email.slice(0, email.lastIndexOf('@'))) || 'user';
  if (!firstName) firstName = parts.length > 1 ? parts[0] : local;
  if (!lastName) lastName = parts.length > 1 ? cleanName(parts.slice(1).join(' ')) : local;
  return { firstName, lastName };
}

const CLIENT_ID = /^[a-z0-9][a-z0-9-]{2,63}$/;

/**
 * Keycloak's service-account tokens (client_credentials) carry `preferred_username: service-account-{clientId}`
 * and the client in `azp`, usually without an email: such a caller is the tenant's service account of that client.
 */
export function serviceAccountClientId(claims: Record<string, unknown>): string | undefined {
  const azp = typeof claims.azp === 'string' ? claims.azp : undefined;
  if (!azp || claims.preferred_username !== `service-account-${azp}`) return undefined;
  return CLIENT_ID.test(azp) ? azp : undefined;
}

/** The claims a new or not yet linked user needs; 401 when the token cannot name one. */
export function identityFromClaims(claims: AccessClaims, realm: string): ExternalIdentity {
  const clientId = serviceAccountClientId(claims);
  const authTime = typeof claims.auth_time === 'number' ? claims.auth_time : typeof claims.iat === 'number' ? claims.iat : 0;
  if (clientId) {
    return { subject: claims.sub, email: serviceAccountEmail(clientId, realm), ...serviceAccountNames(clientId), roles: rolesFromClaims(claims), authTime, clientId };
  }
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (email === '') throw refused('Token has no email claim');
  if (email.length > 255 || !EMAIL.test(email)) throw refused('Token email is not an e-mail address');
  // An unverified address must not take over, or be claimed for, the platform account of that address.
  if (claims.email_verified === false) throw refused('Token email is not verified');
  return { subject: claims.sub, email, ...namesFromClaims(claims, email), roles: rolesFromClaims(claims), authTime };
}

/**
 * A user deleted through the API leaves its DELETED audit entry (resourceName = email). A token whose sign-in
 * (`auth_time`, else `iat`) is not later than that deletion is refused instead of silently recreating the user;
 * signing in at the IdP again afterwards re-admits them just in time.
 */
export function signedInBeforeDeletion(authTime: number, deletedAt: Date | undefined): boolean {
  return deletedAt !== undefined && authTime <= Math.floor(deletedAt.getTime() / 1000);
}

export function createExternalUserResolver(deps: Deps): UserResolver {
  const { User, AuditEvent, sequelize } = deps.models;
  const bySubject = (tenant: Row, sub: string) => User.findOne({ where: { tenantUid: tenant.uid, externalSubject: sub } });
  const byEmail = (tenant: Row, email: string) => User.findOne({ where: { tenantUid: tenant.uid, emailKey: email.toLowerCase() } });
  const byClientId = (tenant: Row, clientId: string) => User.findOne({ where: { tenantUid: tenant.uid, serviceAccount: true, clientId } });

  const audit = (tenant: Row, user: Row, entry: AuditEntry, transaction: Transaction) => writeAudit(deps.models, {
    tenantUid: tenant.uid, tenant: tenant.shortName, actor: user.email, actorName: fullName(user as never),
  }, [entry], transaction);

  async function deletedAt(tenant: Row, email: string): Promise<Date | undefined> {
    const entry = await AuditEvent.findOne({
      where: {
        [Op.and]: [
          { tenantUid: tenant.uid, action: 'DELETED', resourceType: 'User' },
          where(fn('lower', col('resource_name')), email.toLowerCase()),
        ],
      },
      order: [['timestamp', 'DESC']],
    });
    return entry?.timestamp ?? undefined;
  }

  /** Stores the subject on the user of that email; UPDATED audit entry by the user themselves. */
  async function link(tenant: Row, user: Row, subject: string): Promise<Row> {
    const old = user.externalSubject as string | null;
    // A racing first request of the same user linked (or created) it between our two reads.
    if (old === subject) return user;
    return sequelize.transaction(async (transaction) => {
      await user.update({ externalSubject: subject, modifiedBy: user.email }, { transaction });
      await audit(tenant, user, {
        action: 'UPDATED', resourceType: 'User', resourceName: user.email, resourceId: user.uid,
        details: { externalSubject: { old, new: subject } },
      }, transaction);
      return user;
    });
  }

  async function create(tenant: Row, identity: ExternalIdentity): Promise<Row> {
    return sequelize.transaction(async (transaction) => {
      const { email, firstName, lastName, roles, subject, clientId } = identity;
      const user = await User.create({
        tenantUid: tenant.uid, firstName, lastName, email, roles, externalSubject: subject, createdBy: email, modifiedBy: email,
        ...(clientId ? { serviceAccount: true, clientId } : {}),
      }, { transaction });
      await audit(tenant, user, {
        action: 'CREATED', resourceType: 'User', resourceName: email, resourceId: user.uid,
        details: {
          firstName, middleName: null, lastName, emailAddress: { email }, phoneNumber: null,
          roles: roles.map((name) => ({ name })), externalSubject: subject, justInTime: true, ...(clientId ? { clientId, serviceAccount: true } : {}),
        },
      }, transaction);
      return user;
    });
  }

  async function resolveOnce(tenant: Row, claims: AccessClaims): Promise<Row> {
    const linked = await bySubject(tenant, claims.sub);
    if (linked) return linked;
    const identity = identityFromClaims(claims, tenant.shortName as string);
    const existing = identity.clientId ? await byClientId(tenant, identity.clientId) : await byEmail(tenant, identity.email);
    if (existing) return link(tenant, existing, identity.subject);
    if (signedInBeforeDeletion(identity.authTime, await deletedAt(tenant, identity.email))) {
      throw refused('User was deleted after this sign-in; sign in again');
    }
    return create(tenant, identity);
  }

  /** Two first requests of one new user race: the loser's unique clash or lost link update re-reads the winner's row. */
  return async (tenant, claims) => {
    try {
      return await resolveOnce(tenant, claims);
    } catch (err) {
      if (!(err instanceof UniqueConstraintError || err instanceof OptimisticLockError || isDeadlock(err))) throw err;
      return resolveOnce(tenant, claims);
    }
  };
}

