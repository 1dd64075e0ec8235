/**
 * The access-grant use cases behind both `/application_access_grants` and `/application_access/{id}/grants`
 * (docs/contract.md §6.1): a request, and a decision on an existing grant. The state machine itself is pure
 * (core/rules/grant-state.ts); here it meets rights, preconditions, the compare-and-set in the database and the audit
 * entry, all in one transaction.
 */
import { UniqueConstraintError, type Transaction } from 'sequelize';
import { canEditApplication } from '../../auth/policies/application';
import { grantCapacities } from '../../auth/policies/access';
import { authenticatesIn } from '../../models/application-auth';
import { moveGrant, openKey } from '../../models/application-access';
import type { AuditEntry } from '../../models/audit-event';
import type { Row } from '../../models/define';
import { decide, requestedStatus, type GrantAction, type GrantStatus } from '../../core/rules/grant-state';
import { hasExpired, resolveExpiry, type ExpiryAsked } from '../../core/rules/access-duration';
import { expireGrant } from '../../models/grant-expiry';
import { expiryOf } from '../../auth/policies/access';
import { configOfPair } from '../../models/stream-config';
import type { RequestContext } from '../../core/context';
import { BadRequestError, ConflictError, ForbiddenError, UnprocessableError } from '../../core/errors';
import { checkIfMatch } from '../_lib/etag';
import { mutate } from '../_lib/mutation';

/** What a grant names: its application, stream and environment (references that never change). */
export interface GrantParts { application: Row; stream: Row; environment: Row }

/** `expiry`: what the request asks of the grant's end (`expiresAt` or `validFor`); the environment's default else. */
export interface GrantRequest { application: Row; stream: Row; environment: Row; accessType: string; expiry?: ExpiryAsked }

/** Audit entries of grants are filed under the application (docs/contract.md §8); the grant and its context go into details. */
function grantEntry(action: string, grant: Row, parts: { application: Row; stream: Row; environment: Row }, extra: Record<string, unknown> = {}): AuditEntry {
  return {
    action, resourceType: 'Application', resourceName: parts.application.shortName, resourceId: parts.application.uid,
    details: { grant: grant.uid, stream: parts.stream.name, environment: parts.environment.shortName, accessType: grant.accessType, ...extra },
  };
}

/** 403 unless the caller edits the application: only its editors ask access for it. */
export async function mayRequest(ctx: RequestContext, application: Row): Promise<void> {
  if (!(await canEditApplication(ctx, application))) {
    throw new ForbiddenError(`Only the editors of application ${application.shortName} may request access for it`);
  }
}

/** The access row of (application, stream, access type), made by the first request when nobody made it before. */
async function accessFor(ctx: RequestContext, r: GrantRequest, transaction: Transaction): Promise<Row> {
  const where = { applicationUid: r.application.uid, streamUid: r.stream.uid, accessType: r.accessType };
  const { ApplicationAccess } = ctx.models;
  const existing = await ApplicationAccess.findOne({ where, transaction });
  if (existing) return existing;
  try {
    // A savepoint: a concurrent first request for another environment may insert the same row; then use theirs.
    return await ctx.models.sequelize.transaction({ transaction }, (savepoint) => ApplicationAccess.create({
      tenantUid: ctx.principal.tenant.uid, ...where, createdBy: ctx.principal.email, modifiedBy: ctx.principal.email,
    }, { transaction: savepoint }));
  } catch (err) {
    if (!(err instanceof UniqueConstraintError)) throw err;
    // A locking read sees the other transaction's committed row even under MariaDB's repeatable read. A shared
    // lock: the failed insert already holds one there, and exclusive ones requested by several such requests
    // deadlock on MariaDB.
    return (await ApplicationAccess.findOne({ where, transaction, lock: transaction.LOCK.SHARE }))!;
  }
}

/** The end of a new grant requested at `now`: 400 naming the field for a bad, past or too distant one. */
function expiryOfRequest(r: GrantRequest, now: Date): Date | null {
  const resolved = resolveExpiry(r.expiry ?? {}, r.environment as never, now);
  if (resolved.ok) return resolved.expiresAt;
  const problems = [resolved, ...(resolved.also ? [resolved.also] : [])];
  throw new BadRequestError(problems.map((p) => `${p.field}: ${p.message}`), problems.map(({ field, message, rejectedValue }) => ({ field, message, rejectedValue })));
}

/**
 * The open grant of the same identity blocks a new request (409) unless it is an Approved one already past its end:
 * that one is revoked here as the sweep would (by `system`, reason `expired`), so a renewal need not wait for it.
 * Answers the grant that still blocks, if any.
 */
async function blockingGrant(ctx: RequestContext, key: string, now: Date, transaction: Transaction): Promise<Row | null> {
  const open = await ctx.models.ApplicationAccessGrant.findOne({ where: { openKey: key }, transaction });
  if (!open) return null;
  const expired = hasExpired(open.expiresAt as Date | null, now);
  if (open.status === 'Approved' && expired && (await expireGrant(ctx.models, open, now, transaction, ctx.deps.publicRoot()))) return null;
  return open;
}

/**
 * A new grant (docs/contract.md §6.1): Pending, or Approved at once where the environment approves automatically. 422 when
 * the stream is not configured there or the application cannot authenticate there; 409 for a second open grant.
 * Runs in the caller's transaction and answers the grant with its audit entries. `imported` (the topic wizard):
 * Approved at once, no principal needed, audited CREATED; the wizard has configured the stream there and found no
 * open grant of the identity, so neither is read again (a concurrent one still meets the unique open key: 409).
 */
export async function requestGrant(ctx: RequestContext, r: GrantRequest, transaction: Transaction, imported = false): Promise<{ grant: Row; audit: AuditEntry[] }> {
  const { application, stream, environment, accessType } = r;
  const now = new Date();
  // An imported ACL is enforced as it stands, with no end of its own.
  const expiresAt = imported ? null : expiryOfRequest(r, now);
  if (!imported && !(await configOfPair(ctx.models, stream.uid, environment.uid, transaction))) {
    throw new UnprocessableError(`Stream ${stream.name} is not configured in environment ${environment.shortName}`);
  }
  // An imported ACL is a grant the cluster already enforces: Approved as it stands, with no principal here yet (§10).
  if (!imported && !(await authenticatesIn(ctx.models, application.uid, environment.uid, transaction))) {
    throw new UnprocessableError(`Application ${application.shortName} has no principal or credential in environment ${environment.shortName}`);
  }
  const identity = { applicationUid: application.uid, streamUid: stream.uid, environmentUid: environment.uid, accessType };
  const clash = (open?: Row) => new ConflictError(
    `Application ${application.shortName} already has an open ${accessType} grant for stream ${stream.name} in environment ${environment.shortName}`
    // A Pending request past its end can never be approved; the requester withdraws it to ask again.
    + (open?.status === 'Pending' && hasExpired(open.expiresAt as Date | null, now)
      ? `; its request ${open.uid} ended unapproved at ${(open.expiresAt as Date).toISOString()}: cancel it and request again` : ''));
  const { ApplicationAccessGrant } = ctx.models;
  const blocking = imported ? null : await blockingGrant(ctx, openKey(identity, 'Pending')!, now, transaction);
  if (blocking) throw clash(blocking);
  const access = await accessFor(ctx, r, transaction);
  const status = imported ? 'Approved' : requestedStatus({ authorizationIssuer: environment.authorizationIssuer, visibility: environment.visibility });
  const by = ctx.principal.email;
  let grant: Row;
  try {
    grant = await ApplicationAccessGrant.create({
      tenantUid: ctx.principal.tenant.uid, accessUid: access.uid, ...identity, status, comment: null,
      requestedBy: by, requestedAt: now, processedBy: imported ? by : null, processedAt: status === 'Approved' ? now : null,
      openKey: openKey(identity, status), expiresAt, createdBy: by, modifiedBy: by,
    }, { transaction });
  } catch (err) {
    // The unique open_key decides between two concurrent requests for the same grant.
    if (err instanceof UniqueConstraintError) throw clash();
    throw err;
  }
  const parts = { application, stream, environment };
  if (imported) return { grant, audit: [grantEntry('CREATED', grant, parts, { status, imported: true })] };
  const audit = [grantEntry('APPLICATION_ACCESS_REQUESTED', grant, parts)];
  if (status === 'Approved') audit.push(grantEntry('APPLICATION_ACCESS_APPROVED', grant, parts, { auto: true }));
  return { grant, audit };
}

async function partsOf(ctx: RequestContext, grant: Row, transaction: Transaction) {
  // One after the other: a transaction is one connection, which runs one query at a time.
  const { data } = ctx.models;
  const application = await data.readByUid(ctx.models.Application, grant.applicationUid, grant.tenantUid, transaction);
  const stream = await data.readByUid(ctx.models.Stream, grant.streamUid, grant.tenantUid, transaction);
  const environment = await data.readByUid(ctx.models.Environment, grant.environmentUid, grant.tenantUid, transaction);
  return { application: application!, stream: stream!, environment: environment! };
}

/**
 * Takes `requested` on a visible grant: 403 without the right, 412 on a stale `If-Match`, 422 for an illegal move,
 * nothing for a cancel of a grant that is already over, else the move as a compare-and-set with its audit entry
 * (naming the `known` parts when the caller read them, else those read in its transaction).
 * A decision that lost a race to another one answers 409. `reason` (deny, revoke, cancel) becomes the comment.
 * Answers whether the grant moved; the row is then as stored.
 */
export async function actOnGrant(ctx: RequestContext, grant: Row, requested: GrantAction, reason?: string | null, known?: GrantParts): Promise<boolean> {
  const decision = decide(grant.status as GrantStatus, requested, await grantCapacities(ctx, grant), expiryOf(grant));
  if (decision.kind === 'forbidden') throw new ForbiddenError(decision.message);
  checkIfMatch(ctx, grant);
  if (decision.kind === 'illegal') throw new UnprocessableError(decision.message);
  if (decision.kind === 'unchanged') return false;
  const comment = requested === 'approve' ? undefined : reason;
  await mutate(ctx, async (transaction) => {
    const moved = await moveGrant(ctx.models.data, grant, { from: decision.from, to: decision.to, by: ctx.principal.email, comment }, transaction);
    if (!moved) throw new ConflictError(`Application Access Grant ${grant.uid} was changed by a concurrent request; reload it and retry`);
    const extra: Record<string, unknown> = { status: { old: decision.from, new: decision.to } };
    if (comment !== undefined && comment !== null) extra.reason = comment;
    return { result: undefined, audit: [grantEntry(decision.audit, grant, known ?? await partsOf(ctx, grant, transaction), extra)] };
  }, { keepMemos: true });
  return true;
}
