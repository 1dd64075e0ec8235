/**
 * What the embedded issuer's browser sign-in keeps (migrations/0022-issuer-sessions; auth/browser-flow.ts): pending
 * authorization requests, single sign-on sessions, authorization codes, the refresh-token families of the code flow
 * and the revoked refresh tokens of the password grant. Every host on the database shares them, so each change that
 * two hosts could race on (taking a request, redeeming a code, rotating a refresh token) is one conditional statement
 * whose count of changed rows says who won. Secrets are stored only as their SHA-256.
 */
import { createHash } from 'node:crypto';
import { DataTypes, Op, UniqueConstraintError, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import type { Models } from '../core/context';

export type IssuerSessionRow = Model & { uid: string; secretHash: string; tenantUid: string; userUid: string; authTime: Date; idleExpiresAt: Date; maxExpiresAt: Date };
export type IssuerRequestRow = Model & {
  uid: string; tenantUid: string; clientId: string; redirectUri: string; scope: string; state: string | null; nonce: string | null;
  codeChallenge: string; loginHint: string | null; bindingHash: string; expiresAt: Date; consumedAt: Date | null;
};
export type IssuerCodeRow = Model & {
  codeHash: string; sessionUid: string; tenantUid: string; userUid: string; clientId: string; redirectUri: string; codeChallenge: string;
  nonce: string | null; scope: string; expiresAt: Date; consumedAt: Date | null; grantUid: string | null;
};
export type IssuerGrantRow = Model & { uid: string; sessionUid: string; tenantUid: string; userUid: string; clientId: string; currentJti: string; revokedAt: Date | null; createdAt: Date };
export type IssuerRevokedTokenRow = Model & { jti: string; expiresAt: Date };

const UID = () => ({ type: DataTypes.CHAR(32), allowNull: false });
const TIME = (allowNull = false) => ({ type: DataTypes.DATE(3), allowNull });
const STR = (length: number, allowNull = false) => ({ type: DataTypes.STRING(length), allowNull });
const TEXT = (allowNull = false) => ({ type: DataTypes.TEXT, allowNull });
const options = (tableName: string) => ({ tableName, timestamps: false });

export function defineIssuerState(sequelize: Sequelize) {
  return {
    IssuerSession: sequelize.define('IssuerSession', {
      uid: { ...UID(), primaryKey: true }, secretHash: STR(64), tenantUid: UID(), userUid: UID(),
      authTime: TIME(), idleExpiresAt: TIME(), maxExpiresAt: TIME(),
    }, options('issuer_sessions')) as ModelStatic<IssuerSessionRow>,
    IssuerRequest: sequelize.define('IssuerRequest', {
      uid: { ...UID(), primaryKey: true }, tenantUid: UID(), clientId: STR(64), redirectUri: TEXT(), scope: STR(255),
      state: TEXT(true), nonce: TEXT(true), codeChallenge: STR(64), loginHint: STR(255, true), bindingHash: STR(64),
      expiresAt: TIME(), consumedAt: TIME(true),
    }, options('issuer_requests')) as ModelStatic<IssuerRequestRow>,
    IssuerCode: sequelize.define('IssuerCode', {
      codeHash: { ...STR(64), primaryKey: true }, sessionUid: UID(), tenantUid: UID(), userUid: UID(), clientId: STR(64),
      redirectUri: TEXT(), codeChallenge: STR(64), nonce: TEXT(true), scope: STR(255), expiresAt: TIME(), consumedAt: TIME(true),
      grantUid: { type: DataTypes.CHAR(32), allowNull: true },
    }, options('issuer_codes')) as ModelStatic<IssuerCodeRow>,
    IssuerGrant: sequelize.define('IssuerGrant', {
      uid: { ...UID(), primaryKey: true }, sessionUid: UID(), tenantUid: UID(), userUid: UID(), clientId: STR(64),
      currentJti: STR(64), revokedAt: TIME(true), createdAt: TIME(),
    }, options('issuer_grants')) as ModelStatic<IssuerGrantRow>,
    IssuerRevokedToken: sequelize.define('IssuerRevokedToken', {
      jti: { ...STR(64), primaryKey: true }, expiresAt: TIME(),
    }, options('issuer_revoked_tokens')) as ModelStatic<IssuerRevokedTokenRow>,
  };
}

/** The stored form of a secret a browser or client holds. */
export const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');

// Requests

export async function takeRequest(models: Models, uid: string, now: Date): Promise<boolean> {
  const [changed] = await models.IssuerRequest.update({ consumedAt: now }, { where: { uid, consumedAt: null, expiresAt: { [Op.gt]: now } } });
  return changed === 1;
}

export function findOpenRequest(models: Models, uid: string, tenantUid: string, now: Date): Promise<IssuerRequestRow | null> {
  return models.IssuerRequest.findOne({ where: { uid, tenantUid, consumedAt: null, expiresAt: { [Op.gt]: now } } });
}

// Sessions

export function findSession(models: Models, secret: string, tenantUid: string): Promise<IssuerSessionRow | null> {
  return models.IssuerSession.findOne({ where: { secretHash: hashOf(secret), tenantUid } });
}

/** Ends sessions (their codes and refresh-token families go with them); answers how many ended. */
export function endSessions(models: Models, where: { uid?: string; userUid?: string; tenantUid: string }): Promise<number> {
  return models.IssuerSession.destroy({ where });
}

// Codes and refresh-token families

export type Redeemed = { kind: 'redeemed' } | { kind: 'replayed' } | { kind: 'expired' };

/**
 * Redeems a code once: the family its tokens will belong to is stored first, then the code is marked used for it
 * in one conditional statement. Of two redemptions at once exactly one changes the row; the other finds it used
 * and revokes the family the first one started (RFC 6749 §4.1.2: a code used twice revokes what it issued).
 */
export async function redeemCode(models: Models, code: IssuerCodeRow, grant: { uid: string; jti: string }, now: Date): Promise<Redeemed> {
  await models.IssuerGrant.create({
    uid: grant.uid, sessionUid: code.sessionUid, tenantUid: code.tenantUid, userUid: code.userUid, clientId: code.clientId,
    currentJti: grant.jti, revokedAt: null, createdAt: now,
  });
  const [changed] = await models.IssuerCode.update({ consumedAt: now, grantUid: grant.uid }, {
    where: { codeHash: code.codeHash, consumedAt: null, expiresAt: { [Op.gt]: now } },
  });
  if (changed === 1) return { kind: 'redeemed' };
  await models.IssuerGrant.destroy({ where: { uid: grant.uid } });
  const used = await models.IssuerCode.findByPk(code.codeHash);
  if (used?.consumedAt) {
    if (used.grantUid) await revokeGrant(models, used.grantUid, now);
    return { kind: 'replayed' };
  }
  return { kind: 'expired' };
}

export async function revokeGrant(models: Models, uid: string, now: Date): Promise<void> {
  await models.IssuerGrant.update({ revokedAt: now }, { where: { uid, revokedAt: null } });
}

/**
 * Moves a family to its next refresh token. Only the family's current token may do so; an earlier one coming back
 * means one of the two was stolen, so the family is revoked (RFC 9700 §4.14.2).
 */
export async function rotateGrant(models: Models, uid: string, presentedJti: string, nextJti: string, now: Date): Promise<'rotated' | 'reused' | 'revoked'> {
  const [changed] = await models.IssuerGrant.update({ currentJti: nextJti }, { where: { uid, currentJti: presentedJti, revokedAt: null } });
  if (changed === 1) return 'rotated';
  const grant = await models.IssuerGrant.findByPk(uid);
  if (!grant || grant.revokedAt) return 'revoked';
  await revokeGrant(models, uid, now);
  return 'reused';
}

// Revoked refresh tokens of the password grant

export async function revokeToken(models: Models, jti: string, expiresAt: Date): Promise<void> {
  try {
    await models.IssuerRevokedToken.create({ jti, expiresAt });
  } catch (err) {
    if (!(err instanceof UniqueConstraintError)) throw err;
  }
}

export async function isTokenRevoked(models: Models, jti: string): Promise<boolean> {
  return (await models.IssuerRevokedToken.count({ where: { jti } })) > 0;
}

/** Removes what can no longer be used: expired requests, codes and revocations, and ended sessions (with their families). */
export async function sweepIssuerState(models: Models, now: Date): Promise<void> {
  await models.IssuerRequest.destroy({ where: { expiresAt: { [Op.lt]: now } } });
  await models.IssuerCode.destroy({ where: { expiresAt: { [Op.lt]: now } } });
  await models.IssuerSession.destroy({ where: { [Op.or]: [{ idleExpiresAt: { [Op.lt]: now } }, { maxExpiresAt: { [Op.lt]: now } }] } });
  await models.IssuerRevokedToken.destroy({ where: { expiresAt: { [Op.lt]: now } } });
}
