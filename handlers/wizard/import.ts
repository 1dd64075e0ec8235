/**
 * The topic wizard's import (docs/contract.md §10): each provider topic becomes a stream, its stream config in one
 * environment, its key/value schema versions, and an application with Approved grants per ACL principal — each
 * found by its natural key first, so a second run creates nothing. Every entity is created through the same code
 * as its POST (validation, rules, audit), one transaction per topic.
 */
import { UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize';
import { forgetMemos } from '../../core/request-memo';
import { writeAudit, type AuditEntry } from '../../models/audit-event';
import { isDeadlock } from '../../models/db-errors';
import { retryOnConflict } from '../_lib/conflict-retry';
import type { Row } from '../../models/define';
import { topicNameProblem } from '../../core/rules/stream-config-rules';
import {
  accessByPrincipal, applicationNamesOf, configValuesOf, isInternalTopic, retentionPolicyOf, streamNameProblem, streamTypeOf, versionNameOf,
} from '../../providers/import-rules';
import type { ProviderSchema, ProviderTopic, ProviderType } from '../../providers/types';
import type { SchemaType } from '../../schema-formats';
import type { RequestContext } from '../../core/context';
import { createWithin } from '../_lib/crud';
import { HttpError, UnprocessableError } from '../../core/errors';
import { auditActor } from '../_lib/mutation';
import { applicationResource } from '../applications';
import { requestGrant } from '../grants/workflow';
import { parsed, uploadVersion } from '../parts/schema-upload';
import { streamConfigResource } from '../stream-configs';
import { streamResource } from '../streams';
import { Found, readFound, SCHEMA_TYPE } from './found';

export interface ImportRequest {
  provider: ProviderType;
  topics: string[];
  environment: Row;
  owners: Row;
  /** Confidentiality and integrity uids for the streams it creates (tenants with data classification). */
  classification: { confidentiality?: string; integrity?: string };
  importAcls: boolean;
  importSchemas: boolean;
  dryRun: boolean;
}

const KINDS = ['streams', 'streamConfigs', 'schemas', 'schemaVersions', 'applications', 'grants'] as const;
type Kind = (typeof KINDS)[number];
export type ImportReport = { dryRun: boolean; failures: { topic: string; message: string }[] } & Record<Kind, { created: number; existing: number }>;

/** Natural keys seen in one run: created once, or found existing (and not made earlier in this run). */
class Tally {
  private readonly created = new Map<Kind, Set<string>>(KINDS.map((k) => [k, new Set()]));
  private readonly existing = new Map<Kind, Set<string>>(KINDS.map((k) => [k, new Set()]));
  made(kind: Kind, key: string): void { this.created.get(kind)!.add(key); }
  found(kind: Kind, key: string): void { this.existing.get(kind)!.add(key); }
  /** A topic's tally joins the run's only when its transaction committed (or, in a dry run, would have). */
  merge(other: Tally): void {
    for (const k of KINDS) {
      for (const key of other.created.get(k)!) this.made(k, key);
      for (const key of other.existing.get(k)!) this.found(k, key);
    }
  }
  createdAnything(): boolean { return KINDS.some((k) => this.created.get(k)!.size > 0); }
  counts(): Record<Kind, { created: number; existing: number }> {
    return Object.fromEntries(KINDS.map((k) => {
      const made = this.created.get(k)!;
      return [k, { created: made.size, existing: [...this.existing.get(k)!].filter((key) => !made.has(key)).length }];
    })) as Record<Kind, { created: number; existing: number }>;
  }
}

const ROLLBACK = Symbol('dry run');

/**
 * A topic's transaction (inside a dry run's, a savepoint), begun at its first statement: a topic whose every entity
 * the run already found sends none at all.
 */
class TopicTransaction {
  private begun?: Transaction;
  constructor(private readonly sequelize: Sequelize, private readonly outer?: Transaction) {}
  async get(): Promise<Transaction> {
    this.begun ??= await this.sequelize.transaction({ transaction: this.outer });
    return this.begun;
  }
  async commit(): Promise<void> { await this.begun?.commit(); }
  /** As a managed transaction ends on an error: rolled back unless its commit already ended it; the error is the caller's. */
  async rollback(): Promise<void> {
    const begun = this.begun as (Transaction & { finished?: string }) | undefined;
    if (begun && !begun.finished) await begun.rollback().catch(() => undefined);
  }
}

/** A created entity's own entry, as the wizard files it: CREATED under its kind (docs/contract.md §8). */
const asCreated = (entry: AuditEntry): AuditEntry => ({ ...entry, action: 'CREATED' });

export async function importTopics(ctx: RequestContext, available: ProviderTopic[], request: ImportRequest): Promise<ImportReport> {
  const { sequelize } = ctx.models;
  const byName = new Map(available.map((t) => [t.name, t]));
  const tally = new Tally();
  const failures: ImportReport['failures'] = [];
  const names = [...new Set(request.topics)];
  const wanted = names.flatMap((name) => (byName.has(name) && !isInternalTopic(name) ? [byName.get(name)!] : []));
  const found = await readFound(ctx, wanted, request);
  const run = async (outer?: Transaction) => {
    for (const name of names) {
      const topic = byName.get(name);
      if (!topic || isInternalTopic(name)) {
        failures.push({ topic: name, message: topic ? `${name} is an internal topic; those are not imported` : `${request.provider} has no topic ${name}` });
        continue;
      }
      const local = { tally: new Tally(), found: found.child() };
      // Outside a dry run its own transaction; inside one a savepoint, so a failed topic leaves the others.
      const transaction = new TopicTransaction(sequelize, outer);
      try {
        const audit = await importOne(ctx, topic, request, local, transaction);
        if (!request.dryRun && audit.length > 0) await writeAudit(ctx.models, auditActor(ctx), audit, await transaction.get());
        await transaction.commit();
      } catch (err) {
        await transaction.rollback();
        failures.push({ topic: name, message: failureOf(err) });
        continue;
      }
      tally.merge(local.tally);
      local.found.commit();
    }
  };
  if (request.dryRun) {
    // One transaction rolled back at the end: later topics see what earlier ones would have made, as in a real run.
    await sequelize.transaction(async (outer) => {
      await run(outer);
      throw ROLLBACK;
    }).catch((err) => {
      if (err !== ROLLBACK) throw err;
    });
  } else {
    await run();
  }
  const report: ImportReport = { dryRun: request.dryRun, ...tally.counts(), failures };
  if (!request.dryRun) await summarise(ctx, request, report, tally.createdAnything());
  forgetMemos(ctx);
  return report;
}

/** The run's one SYNCHRONIZED entry (Tenant), and `wizardCompleted` once anything was created. */
async function summarise(ctx: RequestContext, request: ImportRequest, report: ImportReport, created: boolean): Promise<void> {
  // Two imports of one tenant both mark it: the loser of that collision writes the same again.
  await retryOnConflict(() => ctx.models.sequelize.transaction(async (transaction) => {
    const tenant = ctx.principal.tenant;
    if (created) await ctx.models.Tenant.update({ wizardCompleted: true }, { where: { uid: tenant.uid }, transaction });
    const { dryRun: _dryRun, failures, ...counts } = report;
    await writeAudit(ctx.models, auditActor(ctx), [{
      action: 'SYNCHRONIZED', resourceType: 'Tenant', resourceName: tenant.shortName, resourceId: tenant.uid,
      details: {
        wizard: 'topics', provider: request.provider, environment: request.environment.shortName, topics: request.topics.length,
        ...counts, failures: failures.length,
      },
    }], transaction);
  }));
}

/** Why a topic was not imported, for `failures`; anything but a refusal (the database gone, a bug) stops the run. */
function failureOf(err: unknown): string {
  if (err instanceof HttpError) return err.errors.length > 0 ? err.errors.join('; ') : err.message;
  if (err instanceof UniqueConstraintError || isDeadlock(err)) return 'a concurrent change collided with this topic; run the import again';
  throw err;
}

/** A topic's own view of the run: its tally and its finds, which join the run's once it commits. */
interface Topic { tally: Tally; found: Found }

async function importOne(ctx: RequestContext, topic: ProviderTopic, request: ImportRequest, local: Topic, transaction: TopicTransaction): Promise<AuditEntry[]> {
  const nameProblem = streamNameProblem(topic.name);
  if (nameProblem) throw new UnprocessableError(nameProblem);
  const values = configValuesOf(topic);
  if (typeof values === 'string') throw new UnprocessableError(values);
  const audit: AuditEntry[] = [];
  const key = request.importSchemas ? await schemaOf(ctx, topic.keySchema, request, local, audit, transaction) : null;
  const value = request.importSchemas ? await schemaOf(ctx, topic.valueSchema, request, local, audit, transaction) : null;
  const stream = await streamOf(ctx, topic, request, { key, value }, local, audit, transaction);
  await configOf(ctx, topic, values, stream, { key, value }, request, local, audit, transaction);
  if (request.importAcls) await grantsOf(ctx, topic, stream, request, local, audit, transaction);
  return audit;
}

interface Imported { schema: Row; version: Row; schemaType: SchemaType }

async function schemaOf(ctx: RequestContext, given: ProviderSchema | null, request: ImportRequest, { tally, found }: Topic, audit: AuditEntry[], transaction: TopicTransaction): Promise<Imported | null> {
  if (!given) return null;
  const schemaType = SCHEMA_TYPE[given.type];
  const result = parsed(given.schema, schemaType);
  const versionName = versionNameOf(given);
  const schemaKey = result.fullName.toLowerCase();
  const versionKey = `${schemaKey}@${versionName.toLowerCase()}`;
  const schema = found.schema(schemaKey);
  const version = schema ? found.version(schema.uid, versionName.toLowerCase()) : undefined;
  if (schema && version) {
    tally.found('schemas', schemaKey);
    tally.found('schemaVersions', versionKey);
    return { schema, version, schemaType };
  }
  // An import copies the provider's versions as they are: not judged (`judge` false).
  const uploaded = await uploadVersion(ctx, { schema: given.schema, type: schemaType, version: versionName, owners: request.owners.uid }, result, await transaction.get(), { schema: schema ?? null }, false);
  found.addSchema(uploaded.schema);
  found.addVersion(uploaded.version);
  if (uploaded.schemaCreated) tally.made('schemas', schemaKey);
  else tally.found('schemas', schemaKey);
  tally.made('schemaVersions', versionKey);
  audit.push(...uploaded.audit.map(asCreated));
  return { schema: uploaded.schema, version: uploaded.version, schemaType };
}

type Sides = { key: Imported | null; value: Imported | null };

async function streamOf(ctx: RequestContext, topic: ProviderTopic, request: ImportRequest, sides: Sides, { tally, found }: Topic, audit: AuditEntry[], transaction: TopicTransaction): Promise<Row> {
  const nameKey = topic.name.toLowerCase();
  const existing = found.stream(nameKey);
  if (existing) {
    tally.found('streams', nameKey);
    return existing;
  }
  const body = {
    name: topic.name,
    description: `Imported from ${request.provider}`,
    keyType: streamTypeOf(sides.key ? topic.keySchema : null),
    valueType: streamTypeOf(sides.value ? topic.valueSchema : null),
    keySchema: sides.key?.schema.uid,
    valueSchema: sides.value?.schema.uid,
    retentionPolicy: retentionPolicyOf(topic.cleanupPolicy),
    owners: request.owners.uid,
    ...request.classification,
  };
  const { row, audit: entries } = await createWithin(streamResource, { ...ctx, body }, await transaction.get());
  found.addStream(row);
  tally.made('streams', nameKey);
  audit.push(...entries);
  return row;
}

async function configOf(ctx: RequestContext, topic: ProviderTopic, values: Exclude<ReturnType<typeof configValuesOf>, string>, stream: Row, sides: Sides,
  request: ImportRequest, { tally, found }: Topic, audit: AuditEntry[], topicTransaction: TopicTransaction): Promise<void> {
  const key = `${stream.uid}@${request.environment.uid}`;
  if (found.isConfigured(stream.uid)) {
    tally.found('streamConfigs', key);
    return;
  }
  const topicProblem = topicNameProblem(topic.name);
  if (topicProblem) throw new UnprocessableError(topicProblem);
  // A version is pinned only where the stream uses that schema (an existing stream may use another one, or none).
  const pin = (side: 'key' | 'value') => {
    const imported = sides[side];
    return imported && stream[`${side}SchemaUid`] === imported.schema.uid ? imported.version.uid : undefined;
  };
  const body = {
    stream: stream.uid, environment: request.environment.uid, partitions: values.partitions,
    ...(values.retentionTime === null ? {} : { retentionTime: values.retentionTime }),
    properties: values.properties, keySchemaVersion: pin('key'), valueSchemaVersion: pin('value'),
  };
  const transaction = await topicTransaction.get();
  const { row, audit: entries } = await createWithin(streamConfigResource, { ...ctx, body }, transaction);
  // Imports keep the provider's topic name (docs/contract.md §5.8) instead of the instance pattern's.
  row.set({ topicName: topic.name });
  await row.save({ transaction });
  const [own, ...rest] = entries;
  audit.push({ ...asCreated(own), details: { ...(own.details ?? {}), topicName: topic.name } }, ...rest);
  found.addConfig(stream.uid);
  tally.made('streamConfigs', key);
}

async function grantsOf(ctx: RequestContext, topic: ProviderTopic, stream: Row, request: ImportRequest, { tally, found }: Topic, audit: AuditEntry[], transaction: TopicTransaction): Promise<void> {
  const environment = request.environment;
  for (const [principal, kinds] of accessByPrincipal(topic.acls)) {
    const names = applicationNamesOf(principal);
    if (!names) throw new UnprocessableError(`ACL principal ${principal}: no application shortName (3 or more letters, digits or _) can be derived from it`);
    let application = found.application(names.shortName);
    if (application) {
      tally.found('applications', names.shortName);
    } else {
      const body = {
        ...names, applicationType: 'Custom', type: 'Other', owners: request.owners.uid,
        description: `Imported from ${request.provider} ACL principal ${principal}`.slice(0, 200),
      };
      const created = await createWithin(applicationResource, { ...ctx, body }, await transaction.get());
      application = created.row;
      found.addApplication(application);
      tally.made('applications', names.shortName);
      audit.push(...created.audit);
    }
    for (const accessType of kinds) {
      const identity = { applicationUid: application.uid, streamUid: stream.uid, environmentUid: environment.uid, accessType };
      const key = `${application.uid}@${stream.uid}@${environment.uid}@${accessType}`;
      if (found.hasGrant(identity)) {
        tally.found('grants', key);
        continue;
      }
      const { audit: entries } = await requestGrant(ctx, { application, stream, environment, accessType }, await transaction.get(), true);
      found.addGrant(identity);
      tally.made('grants', key);
      audit.push(...entries);
    }
  }
}
