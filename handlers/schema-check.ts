/**
 * `POST /schemas/check-compatibility` (issue 45): would this document, as a new version of a schema, pass — judged
 * in a mode (the schema's own, else BACKWARD: a check that judged nothing would answer nothing) against the
 * schema's versions, and in every environment the caller can see against the versions its stream configs pin
 * there, since what runs there is what a change can break. Nothing is stored. Anyone who may read the schema may
 * check (schemas are visible to the whole tenant).
 */
import type { CompatibilityMode } from '../core/rules/compatibility-mode';
import { BadRequestError, UnprocessableError } from '../core/errors';
import type { Row } from '../models/define';
import { pinsOf } from '../models/stream-config';
import { compatibilityProblems, parseSchema, type ModeProblem, type ParsedSchema, type SchemaType } from '../schema-formats';
import { environmentResource } from './environments';
import { plain, type Handler } from './_lib/reply';
import { findOneWhere } from './_lib/store';
import { parsed } from './parts/schema-upload';
import type { RequestContext } from '../core/context';

interface CheckInput { schema: string; type?: SchemaType; name?: string; schemaId?: string; mode?: CompatibilityMode; environments?: string[] }

const problemBody = (p: ModeProblem) => ({ against: p.against, direction: p.direction, path: p.path, rule: p.rule, message: p.message });

/** The schema named by `schemaId` or `name` (exactly one of them), of the caller's tenant; 400 naming the field. */
async function target(ctx: RequestContext, input: CheckInput): Promise<Row> {
  const refuse = (field: string, message: string, value?: unknown, detail = '') => new BadRequestError([`${field}: ${message}${detail}`], [{ field, message, rejectedValue: value ?? null }]);
  if ((input.name === undefined) === (input.schemaId === undefined)) throw refuse('name', 'give either name or schemaId');
  const { Schema } = ctx.models;
  const tenantUid = ctx.principal.tenant.uid;
  const row = input.schemaId !== undefined
    ? await Schema.findOne({ where: { tenantUid, uid: String(input.schemaId).replace(/-/g, '').toLowerCase() } })
    : await Schema.findOne({ where: { tenantUid, nameKey: String(input.name).toLowerCase() } });
  // As every unknown reference is refused (handlers/_lib/store): `unknown <kind>` at the field, the value in `errors`.
  if (!row) throw input.schemaId !== undefined ? refuse('schemaId', 'unknown schema', input.schemaId, ` ${input.schemaId}`) : refuse('name', 'unknown schema', input.name, ` ${input.name}`);
  return row;
}

/** The environments `environments` names by short name, each one the caller can see; 400 naming the first unknown. */
async function named(ctx: RequestContext, shortNames: string[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const shortName of new Set(shortNames.map((n) => n.toLowerCase()))) {
    const row = await findOneWhere(environmentResource, ctx, { shortNameKey: shortName });
    if (!row) {
      const given = shortNames.find((n) => n.toLowerCase() === shortName)!;
      throw new BadRequestError([`environments: unknown environment ${given}`], [{ field: 'environments', message: 'unknown environment', rejectedValue: given }]);
    }
    rows.push(row);
  }
  return rows;
}

export const checkSchemaCompatibility: Handler = async (ctx) => {
  const input = ctx.body as CheckInput;
  const schema = await target(ctx, input);
  const only = input.environments === undefined ? undefined : await named(ctx, input.environments);
  const candidate = parsed(input.schema, input.type ?? (schema.type as SchemaType));
  if (candidate.type !== schema.type) throw new UnprocessableError(`Schema ${schema.name} is ${schema.type}; a ${candidate.type} document cannot be a version of it`);
  const mode: CompatibilityMode = input.mode ?? (schema.compatibility === 'NONE' ? 'BACKWARD' : schema.compatibility as CompatibilityMode);
  const versions = await ctx.models.SchemaVersion.findAll({ where: { schemaUid: schema.uid }, order: [['createdAt', 'ASC'], ['uid', 'ASC']] });
  const parsedOf = new Map<string, { label: string; schema: ParsedSchema }>(versions.map((v) => [v.uid as string, { label: v.versionName as string, schema: parseSchema(v.schemaBody as string, schema.type as SchemaType) }]));
  const problems = compatibilityProblems(mode, candidate, [...parsedOf.values()]);
  return plain({
    schema: { uid: schema.uid, name: schema.name, type: schema.type, compatibility: schema.compatibility },
    mode,
    compatible: problems.length === 0,
    problems: problems.map(problemBody),
    environments: await byEnvironment(ctx, mode, candidate, parsedOf, only),
  });
};

/**
 * Per visible environment with pins of the schema, or per environment of `only` (with or without pins): the
 * candidate against each pinned version, in the mode's directions.
 */
async function byEnvironment(ctx: RequestContext, mode: CompatibilityMode, candidate: ParsedSchema, versions: Map<string, { label: string; schema: ParsedSchema }>, only?: Row[]) {
  const pins = await pinsOf(ctx.models, [...versions.keys()]);
  const byEnv = new Map<string, typeof pins>(only?.map((environment) => [environment.uid as string, []]));
  for (const pin of pins) {
    const environmentUid = pin.config.environmentUid as string;
    if (!only || byEnv.has(environmentUid)) byEnv.set(environmentUid, [...(byEnv.get(environmentUid) ?? []), pin]);
  }
  // A pin judged on its own: transitivity means nothing against one version.
  const pairMode = mode.replace('_TRANSITIVE', '') as CompatibilityMode;
  const out = [];
  for (const [environmentUid, envPins] of byEnv) {
    const environment = await findOneWhere(environmentResource, ctx, { uid: environmentUid });
    if (!environment) continue;
    const pinned = envPins.map((pin) => {
      const version = versions.get(pin.versionUid)!;
      const found = compatibilityProblems(pairMode, candidate, [version]);
      return { topicName: pin.config.topicName, side: pin.side, version: version.label, compatible: found.length === 0, problems: found.map(problemBody) };
    });
    out.push({
      environment: { uid: environment.uid, name: environment.name, shortName: environment.shortName },
      compatible: pinned.every((p) => p.compatible), pinned,
    });
  }
  return out.sort((a, b) => String(a.environment.shortName).localeCompare(String(b.environment.shortName)));
}
