/**
 * An upload (docs/contract.md §5.9) inside the caller's transaction: the schema of the document's fullName found or created,
 * its new version, and the audit entries; POST /schemas/upload and the topic wizard both upload through it.
 */
import type { Transaction } from 'sequelize';
import { mayAddVersion, mayAssignSchemaOwners } from '../../auth/policies/schema';
import type { AuditEntry } from '../../models/audit-event';
import type { Row } from '../../models/define';
import { compatibilityProblems, judgedTextTooLarge, parseSchema, parseStoredSchema, SchemaParseError, type CompatibilityMode, type ModeProblem, type ParsedSchema, type SchemaType } from '../../schema-formats';
import type { RequestContext } from '../../core/context';
import { BadRequestError, ConflictError, ForbiddenError, HttpError, UnprocessableError } from '../../core/errors';
import { isNone } from '../_lib/references';
import { resolveBodyRef } from '../_lib/store';
import { groupResource } from '../groups';

export interface SchemaInput {
  schema: string; type?: SchemaType; version?: string; description?: string | null; owners?: unknown;
  /** A new schema's mode (else the service's default); for an existing schema, its own or nothing. */
  compatibility?: CompatibilityMode;
  /** Stores a version its schema's mode refuses (the reasons go into the audit entry). */
  force?: boolean;
}

/** `Invalid schema` with one entry per parser message (docs/contract.md §5.9). */
export function parsed(text: string, type: SchemaType | undefined): ParsedSchema {
  try {
    return parseSchema(text, type ?? 'AVRO');
  } catch (e) {
    if (e instanceof SchemaParseError) throw new BadRequestError(e.problems.map((p) => `schema: ${p}`), null, 'Invalid schema');
    throw e;
  }
}

/**
 * The schema of that fullName, found or created, and the description change an upload to an existing one made.
 * `known`: the caller has read it already (the topic wizard reads all of a run's at once).
 */
async function schemaFor(ctx: RequestContext, input: SchemaInput, result: ParsedSchema, transaction: Transaction, known?: { schema: Row | null }) {
  const { Schema } = ctx.models;
  const existing = known ? known.schema : await Schema.findOne({ where: { tenantUid: ctx.principal.tenant.uid, nameKey: result.fullName.toLowerCase() }, transaction });
  if (existing) {
    if (!(await mayAddVersion(ctx, existing))) throw new ForbiddenError(`Only the owners of ${existing.name} (or SCHEMA_ADMIN) may add versions to it`);
    if (existing.type !== result.type) throw new UnprocessableError(`Schema ${existing.name} is ${existing.type}; a ${result.type} document cannot be a version of it`);
    // A mode is changed on the schema by its owners (PATCH), never by one upload in passing.
    if (input.compatibility !== undefined && input.compatibility !== existing.compatibility) {
      throw new UnprocessableError(`Schema ${existing.name} is ${existing.compatibility}, not ${input.compatibility}; its owners change its mode with PATCH /schemas/${existing.uid}`);
    }
    const old = existing.description as string | null;
    if (typeof input.description === 'string' && input.description !== '' && input.description !== old) {
      existing.set({ description: input.description, modifiedBy: ctx.principal.email });
      await existing.save({ transaction });
      return { schema: existing, created: false, described: { description: { old, new: input.description } } };
    }
    return { schema: existing, created: false, described: undefined };
  }
  const ownersUid = isNone(input.owners) ? null : (await resolveBodyRef(groupResource, ctx, 'owners', input.owners, transaction)).uid;
  if (!(await mayAssignSchemaOwners(ctx, ownersUid))) throw new ForbiddenError('You must belong to the owners group (or be SCHEMA_ADMIN)');
  const actor = ctx.principal.email;
  const schema = await Schema.create({
    tenantUid: ctx.principal.tenant.uid, name: result.fullName, description: input.description ?? null, type: result.type,
    ownersUid, compatibility: input.compatibility ?? ctx.deps.config.schemaCompatibilityDefault, createdBy: actor, modifiedBy: actor,
  }, { transaction });
  return { schema, created: true, described: undefined };
}

export interface Uploaded { schema: Row; version: Row; schemaCreated: boolean; audit: AuditEntry[] }

/** What judging a new version found; `unjudged`: why it was not judged (forced past what one judgement can do). */
interface Judgement { problems: ModeProblem[]; unjudged?: string }

export type StoredVersion = { label: string; schema: ParsedSchema };

/**
 * Stored versions (rows) parsed to judge against, or why they cannot be: together more text than one judgement
 * reads (`tooLarge`), or one past a bound on documents (stored before the bound).
 */
export function judgeable(schema: Row, versions: Row[]): { earlier: StoredVersion[] } | { unjudged: string; tooLarge: boolean } {
  const tooLarge = judgedTextTooLarge(versions.map((v) => (v.schemaBody as string).length));
  if (tooLarge) return { unjudged: tooLarge, tooLarge: true };
  const earlier: StoredVersion[] = [];
  for (const v of versions) {
    try {
      earlier.push({ label: v.versionName as string, schema: parseStoredSchema(v.schemaBody as string, schema.type as SchemaType) });
    } catch (e) {
      if (!(e instanceof SchemaParseError)) throw e;
      return { unjudged: `version ${String(v.versionName)} of schema ${String(schema.name)} cannot be judged (${e.problems.join('; ')})`, tooLarge: false };
    }
  }
  return { earlier };
}

/**
 * The new version judged in its schema's mode against the versions it has (oldest first; only the latest unless
 * transitive). When they cannot be judged (judgeable), it is refused (422) unless `force`: then it goes unjudged.
 */
async function judged(ctx: RequestContext, schema: Row, result: ParsedSchema, force: boolean, transaction: Transaction): Promise<Judgement> {
  const mode = schema.compatibility as CompatibilityMode;
  if (mode === 'NONE') return { problems: [] };
  const latestOnly = !mode.endsWith('_TRANSITIVE');
  const versions = await ctx.models.SchemaVersion.findAll({
    where: { schemaUid: schema.uid }, order: [['createdAt', latestOnly ? 'DESC' : 'ASC'], ['uid', latestOnly ? 'DESC' : 'ASC']], ...(latestOnly ? { limit: 1 } : {}), transaction,
  });
  const stored = judgeable(schema, versions);
  if ('unjudged' in stored) return unjudged(stored.unjudged, stored.tooLarge ? 'judge in a non-transitive mode, or upload with force=true' : 'upload with force=true', force);
  return { problems: compatibilityProblems(mode, result, stored.earlier) };
}

function unjudged(reason: string, advice: string, force: boolean): Judgement {
  if (!force) throw new UnprocessableError(`${reason}; ${advice}`);
  return { problems: [], unjudged: reason };
}

/** The audit entry's `compatibility`, for a version stored against its mode's verdict or unjudged. */
function forcedDetails(mode: unknown, { problems, unjudged: reason }: Judgement) {
  if (reason) return { compatibility: { mode, forced: true, problems: [`not judged: ${reason}`] } };
  return problems.length > 0 ? { compatibility: { mode, forced: true, problems: problems.map(reasonOf) } } : {};
}

/** One reason in words: which version, which way, where, what, by which rule. */
export const reasonOf = (p: ModeProblem) =>
  `${p.direction === 'reads' ? `reading data of ${p.against}` : `${p.against} reading the new data`}: ${p.path || '(root)'}: ${p.message} (${p.rule})`;

/**
 * `judge`: false for an import, which copies what a provider already holds, so there is nothing to refuse.
 */
export async function uploadVersion(ctx: RequestContext, input: SchemaInput & { version: string }, result: ParsedSchema, transaction: Transaction,
  known?: { schema: Row | null }, judge = true): Promise<Uploaded> {
    const found = await schemaFor(ctx, input, result, transaction, known);
    // A schema made just now has no versions yet.
    const taken = found.created ? null : await ctx.models.SchemaVersion.findOne({ where: { schemaUid: found.schema.uid, versionKey: input.version.toLowerCase() }, transaction });
    if (taken) throw new ConflictError(`version: '${input.version}' already exists for schema ${found.schema.name}`);
    const judgement: Judgement = judge && !found.created ? await judged(ctx, found.schema, result, input.force === true, transaction) : { problems: [] };
    const { problems } = judgement;
    if (problems.length > 0 && input.force !== true) {
      const message = `Schema version ${input.version} is not ${found.schema.compatibility} compatible with schema ${found.schema.name}; retry with force=true`;
      throw new HttpError(422, message, [message, ...problems.map(reasonOf)]);
    }
    const actor = ctx.principal.email;
    const row = await ctx.models.SchemaVersion.create({
      tenantUid: ctx.principal.tenant.uid, schemaUid: found.schema.uid, versionName: input.version, schemaBody: input.schema, createdBy: actor, modifiedBy: actor,
    }, { transaction });
    const about = { resourceType: 'Schema', resourceName: found.schema.name, resourceId: found.schema.uid };
    const audit = [
      ...(found.created ? [{ ...about, action: 'CREATED', details: { name: found.schema.name, type: found.schema.type, description: found.schema.description, owners: found.schema.ownersUid } }] : []),
      // A new description with a version of an existing schema is a change of the schema itself.
      ...(found.described ? [{ ...about, action: 'UPDATED', details: found.described }] : []),
      {
        ...about, action: 'SCHEMA_VERSION_UPLOADED',
        details: { version: input.version, schemaVersion: row.uid, ...forcedDetails(found.schema.compatibility, judgement) },
      },
    ];
    return { schema: found.schema, version: row, schemaCreated: found.created, audit };
}
