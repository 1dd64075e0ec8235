/**
 * `POST /stream_configs/{id}/promote` (docs/contract.md §5.8, "Promotion"): the source's partitions (on create),
 * retention, allow-listed properties and pinned versions written to its stream's config in another environment,
 * through the generic create or update of stream configs, so that every rule of a direct write holds. A dry run
 * makes the same write in a transaction it rolls back: the plan's refusals are exactly what a real run meets.
 */
import { UniqueConstraintError, type Transaction } from 'sequelize';
import type { AuditEntry } from '../models/audit-event';
import type { Row } from '../models/define';
import { configOfPair } from '../models/stream-config';
import { isDeadlock } from '../models/db-errors';
import { streamConfigPolicy } from '../auth/policies/stream-config';
import type { RequestContext } from '../core/context';
import { BadRequestError, ConflictError, ForbiddenError, HttpError } from '../core/errors';
import { link } from '../core/hal';
import { forgetMemos } from '../core/request-memo';
import { promotedValues, promotionPlan, type PromotedValues } from '../core/rules/promotion-plan';
import { alreadyConfigured } from '../core/rules/stream-config-rules';
import type { components } from '../generated/types';
import { createWithin, renderOne, updateWithin } from './_lib/crud';
import { validatorHeaders } from './_lib/etag';
import { mutate } from './_lib/mutation';
import { isNone } from './_lib/references';
import { selfHref } from './_lib/render';
import { hal, type Handler } from './_lib/reply';
import { findVisible, resolveBodyRef } from './_lib/store';
import { environmentResource } from './environments';
import { streamConfigResource } from './stream-configs';

type PromotionRequest = components['schemas']['StreamConfigPromotion'];
type Plan = components['schemas']['PromotionPlan'];

const unprocessable = (field: string, message: string, rejectedValue: unknown) =>
  new HttpError(422, `${field}: ${message}`, [`${field}: ${message}`], [{ field, message, rejectedValue }]);

/** The environment the request names, else the source environment's successor; 400 naming `environment` when neither. */
async function targetOf(ctx: RequestContext, request: PromotionRequest, sourceEnvironment: Row): Promise<Row> {
  let target: Row;
  if (!isNone(request.environment)) {
    target = await resolveBodyRef(environmentResource, ctx, 'environment', request.environment);
  } else {
    const successor = sourceEnvironment.successorUid as string | null;
    const why = successor ? `the successor of ${sourceEnvironment.shortName} is not an environment you can see` : `is required: ${sourceEnvironment.shortName} declares no successor`;
    const found = successor ? await findVisible(environmentResource, ctx, successor).catch(() => null) : null;
    if (!found) throw new BadRequestError([`environment: ${why}`], [{ field: 'environment', message: why, rejectedValue: null }]);
    target = found;
  }
  if (target.uid === sourceEnvironment.uid) throw unprocessable('environment', 'is the source stream config\'s own environment', request.environment ?? null);
  return target;
}

/** A config's promoted values, pinned versions as `{uid, version}` (the plan shows them so) or as uids (what is written). */
async function valuesOf(ctx: RequestContext, row: Row, named: boolean): Promise<PromotedValues> {
  const pin = async (uid: string | null) => {
    if (!uid || !named) return uid ?? null;
    const version = await ctx.models.SchemaVersion.findOne({ where: { uid } });
    return { uid, version: (version?.versionName as string | undefined) ?? null };
  };
  return {
    partitions: row.partitions, retentionTime: row.retentionTime, properties: row.properties ?? {},
    keySchemaVersion: await pin(row.keySchemaVersionUid), valueSchemaVersion: await pin(row.valueSchemaVersionUid),
  };
}

interface Promotion { source: Row; sourceEnvironment: Row; targetEnvironment: Row; target: Row | null; force: boolean }

/** The write itself, as a direct POST (no target yet) or PUT (onto the target) of the promoted values makes it. */
async function write(ctx: RequestContext, p: Promotion, transaction: Transaction): Promise<{ row: Row; audit: AuditEntry[] }> {
  const values = promotedValues(await valuesOf(ctx, p.source, false), p.target === null);
  const body = { ...values, force: p.force };
  if (p.target) {
    const sub: RequestContext = { ...ctx, body, transaction };
    if (!(await streamConfigPolicy.canEdit(sub, p.target))) throw new ForbiddenError('You may not edit this streamConfig');
    return updateWithin(streamConfigResource, sub, 'replace', p.target, transaction);
  }
  const sub: RequestContext = { ...ctx, body: { ...body, stream: p.source.streamUid, environment: p.targetEnvironment.uid }, transaction };
  if (!(await streamConfigPolicy.canCreate(sub))) throw new ForbiddenError('You may not create stream_configs');
  return createWithin(streamConfigResource, sub, transaction);
}

/** The write's entry of the config itself names the source it came from. */
function promotedFrom(audit: AuditEntry[], p: Promotion): AuditEntry[] {
  const from = { streamConfig: p.source.uid, environment: p.sourceEnvironment.shortName };
  return audit.map((entry, i) => (i === 0 ? { ...entry, details: { ...(entry.details ?? {}), promotedFrom: from } } : entry));
}

const ROLLBACK = Symbol('dry run');

/** The write in a transaction that is always rolled back: the refusal a real run meets, and the topic name it gives. */
async function rehearse(ctx: RequestContext, p: Promotion): Promise<{ refusal: HttpError | null; topicName: string | null }> {
  let topicName: string | null = null;
  try {
    await ctx.models.sequelize.transaction(async (transaction) => {
      topicName = (await write(ctx, p, transaction)).row.topicName;
      throw ROLLBACK;
    });
  } catch (err) {
    if (err !== ROLLBACK) {
      if (!(err instanceof HttpError)) throw err;
      return { refusal: err, topicName: p.target?.topicName ?? null };
    }
  } finally {
    forgetMemos(ctx);
  }
  return { refusal: null, topicName };
}

async function plan(ctx: RequestContext, p: Promotion): Promise<Plan> {
  // Read before the rehearsal: its write sets the new values on the target's row object, though they are rolled back.
  const changes = promotionPlan(await valuesOf(ctx, p.source, true), p.target ? await valuesOf(ctx, p.target, true) : null);
  const { refusal, topicName } = await rehearse(ctx, p);
  const sourceHref = selfHref(streamConfigResource, p.source, ctx);
  return {
    dryRun: true,
    ...changes,
    source: { streamConfig: p.source.uid, environment: p.sourceEnvironment.shortName, topicName: p.source.topicName },
    target: { streamConfig: p.target?.uid ?? null, environment: p.targetEnvironment.shortName, topicName },
    refusals: refusal ? [{ code: refusal.status, ...refusal.toBody() }] : [],
    _links: {
      self: link(`${sourceHref}/promote`),
      source: link(sourceHref),
      environment: link(selfHref(environmentResource, p.targetEnvironment, ctx)),
      ...(p.target ? { target: link(selfHref(streamConfigResource, p.target, ctx)) } : {}),
    },
  };
}

/** A create that lost: the winner made the config, the pair is taken; an update that lost: the winner wrote it. */
async function lostTo(ctx: RequestContext, source: Row, environment: Row, created: boolean): Promise<ConflictError> {
  const stream = (await ctx.models.data.readByUids(ctx.models.Stream, [source.streamUid]))[0]!;
  if (created) return new ConflictError(alreadyConfigured(stream.name, environment.shortName));
  return new ConflictError(`environment: a concurrent request configured stream ${stream.name} in environment ${environment.shortName}; promote again to write over it`);
}

export const promoteStreamConfig: Handler = async (ctx) => {
  const request = (ctx.body ?? {}) as PromotionRequest;
  const source = await findVisible(streamConfigResource, ctx, ctx.params.id);
  const sourceEnvironment = (await ctx.models.Environment.findOne({ where: { uid: source.environmentUid } }))!;
  const targetEnvironment = await targetOf(ctx, request, sourceEnvironment);
  const target = await configOfPair(ctx.models, source.streamUid, targetEnvironment.uid);
  const p: Promotion = { source, sourceEnvironment, targetEnvironment, target, force: request.force === true };
  if (request.dryRun === true) return hal(await plan(ctx, p), 200);
  let row: Row;
  try {
    row = await mutate(ctx, async (transaction) => {
      const { row: saved, audit } = await write(ctx, p, transaction);
      return { result: saved, audit: promotedFrom(audit, p) };
    });
  } catch (err) {
    // Two promotions to one environment collided: the other one won. A re-run would write over its result, so the
    // loser answers what the check of a later request would: in the user's words, naming the field.
    if (err instanceof UniqueConstraintError || isDeadlock(err)) throw await lostTo(ctx, source, targetEnvironment, target === null);
    throw err;
  }
  const body = await renderOne(streamConfigResource, row, ctx);
  if (target) return hal(body, 200, validatorHeaders(row));
  return hal(body, 201, { Location: selfHref(streamConfigResource, row, ctx), ...validatorHeaders(row) });
};
