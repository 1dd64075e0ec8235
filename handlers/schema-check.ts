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
import { pinsOf, type Pin } from '../models/stream-config';
import { compatibilityProblems, type ModeProblem, type ParsedSchema, type SchemaType } from '../schema-formats';
import { environmentResource } from './environments';
import { plain, type Handler } from './_lib/reply';
import { findOneWhere } from './_lib/store';
import { judgeable, parsed, type StoredVersion } from './parts/schema-upload';
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
  const environments = await pinsByEnvironment(ctx, versions.map((v) => v.uid as string), only);
  // Only the versions the judgement reads are parsed: the mode's (the latest unless transitive) and the pinned ones.
  const transitive = mode.endsWith('_TRANSITIVE');
  const latest = versions.at(-1);
  const pinned = new Set(environments.flatMap(({ pins }) => pins.map((pin) => pin.versionUid)));
  const read = versions.filter((v) => transitive || v === latest || pinned.has(v.uid as string));
  const stored = judgeable(schema, read);
  if ('unjudged' in stored) throw new UnprocessableError(stored.tooLarge && transitive ? `${stored.unjudged}; judge in a non-transitive mode` : stored.unjudged);
  const parsedOf = new Map(read.map((v, i) => [v.uid as string, stored.earlier[i]!]));
  const problems = compatibilityProblems(mode, candidate, transitive ? stored.earlier : latest ? [parsedOf.get(latest.uid as string)!] : []);
  return plain({
    schema: { uid: schema.uid, name: schema.name, type: schema.type, compatibility: schema.compatibility },
    mode,
    compatible: problems.length === 0,
    problems: problems.map(problemBody),
    environments: judgedPins(mode, candidate, parsedOf, environments),
  });
};

/**
 * The pins of these versions per environment the caller can see, or per environment of `only` (one without pins
 * listed with none).
 */
async function pinsByEnvironment(ctx: RequestContext, versionUids: string[], only?: Row[]): Promise<{ environment: Row; pins: Pin[] }[]> {
  const byEnv = new Map<string, Pin[]>(only?.map((environment) => [environment.uid as string, []]));
  for (const pin of await pinsOf(ctx.models, versionUids)) {
    const environmentUid = pin.config.environmentUid as string;
    if (!only || byEnv.has(environmentUid)) byEnv.set(environmentUid, [...(byEnv.get(environmentUid) ?? []), pin]);
  }
  const out: { environment: Row; pins: Pin[] }[] = [];
  for (const [environmentUid, pins] of byEnv) {
    const environment = only?.find((e) => e.uid === environmentUid) ?? await findOneWhere(environmentResource, ctx, { uid: environmentUid });
    if (environment) out.push({ environment, pins });
  }
  return out;
}

/** Per environment: the candidate against each pinned version, in the mode's directions. */
function judgedPins(mode: CompatibilityMode, candidate: ParsedSchema, versions: Map<string, StoredVersion>, environments: { environment: Row; pins: Pin[] }[]) {
  // A pin judged on its own: transitivity means nothing against one version.
  const pairMode = mode.replace('_TRANSITIVE', '') as CompatibilityMode;
  return environments.map(({ environment, pins }) => {
    const pinned = pins.map((pin) => {
      const version = versions.get(pin.versionUid)!;
      const found = compatibilityProblems(pairMode, candidate, [version]);
      return { topicName: pin.config.topicName, side: pin.side, version: version.label, compatible: found.length === 0, problems: found.map(problemBody) };
    });
    return {
      environment: { uid: environment.uid, name: environment.name, shortName: environment.shortName },
      compatible: pinned.every((p) => p.compatible), pinned,
    };
  }).sort((a, b) => String(a.environment.shortName).localeCompare(String(b.environment.shortName)));
}
