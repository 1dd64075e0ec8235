/**
 * What the wizard's run finds by natural key, read before its first topic in one statement per kind (streams,
 * their configs in the environment, schemas, schema versions, applications, open grants) rather than once per
 * topic, and kept current as each topic's transaction commits: a topic's own finds and makes join the run's only
 * then, so a rolled-back topic leaves nothing behind. A key the read did not find may still be made meanwhile by a
 * concurrent import: the create then meets the unique index, and the topic is a failure to re-run.
 */
import { Op, type Transaction } from 'sequelize';
import { openKey } from '../../models/application-access';
import type { Row } from '../../models/define';
import { accessByPrincipal, applicationNamesOf, versionNameOf } from '../../providers/import-rules';
import type { ProviderSchema, ProviderTopic } from '../../providers/types';
import type { RequestContext } from '../../core/context';
import { parseSchema, type SchemaType } from '../../schema-formats';

export const SCHEMA_TYPE: Record<ProviderSchema['type'], SchemaType> = { AVRO: 'AVRO', PROTOBUF: 'PROTOBUF', JSON: 'JSON_SCHEMA' };

export interface GrantIdentity { applicationUid: string; streamUid: string; environmentUid: string; accessType: string }

export class Found {
  private readonly streams = new Map<string, Row>();
  /** Stream uids configured in the run's environment. */
  private readonly configured = new Set<string>();
  private readonly schemas = new Map<string, Row>();
  /** By `<schema uid>@<version key>`. */
  private readonly versions = new Map<string, Row>();
  private readonly applications = new Map<string, Row>();
  private readonly grants = new Set<string>();

  constructor(private readonly parent?: Found) {}

  /** One topic's view: what it finds or makes stays its own until `commit`. */
  child(): Found {
    return new Found(this);
  }

  stream(nameKey: string): Row | undefined { return this.streams.get(nameKey) ?? this.parent?.stream(nameKey); }
  isConfigured(streamUid: string): boolean { return this.configured.has(streamUid) || !!this.parent?.isConfigured(streamUid); }
  schema(nameKey: string): Row | undefined { return this.schemas.get(nameKey) ?? this.parent?.schema(nameKey); }
  version(schemaUid: string, versionKey: string): Row | undefined { return this.versions.get(`${schemaUid}@${versionKey}`) ?? this.parent?.version(schemaUid, versionKey); }
  application(shortNameKey: string): Row | undefined { return this.applications.get(shortNameKey) ?? this.parent?.application(shortNameKey); }
  hasGrant(identity: GrantIdentity): boolean { return this.grants.has(openKey(identity, 'Pending')!) || !!this.parent?.hasGrant(identity); }

  addStream(row: Row): void { this.streams.set(String(row.nameKey), row); }
  addConfig(streamUid: string): void { this.configured.add(streamUid); }
  addSchema(row: Row): void { this.schemas.set(String(row.nameKey), row); }
  addVersion(row: Row): void { this.versions.set(`${row.schemaUid}@${row.versionKey}`, row); }
  addApplication(row: Row): void { this.applications.set(String(row.shortNameKey), row); }
  addGrant(identity: GrantIdentity): void { this.grants.add(openKey(identity, 'Pending')!); }

  /** A topic's finds and makes join its run's (its transaction committed, or in a dry run its savepoint was released). */
  commit(): void {
    const into = this.parent!;
    for (const row of this.streams.values()) into.addStream(row);
    for (const uid of this.configured) into.addConfig(uid);
    for (const row of this.schemas.values()) into.addSchema(row);
    for (const row of this.versions.values()) into.addVersion(row);
    for (const row of this.applications.values()) into.addApplication(row);
    for (const key of this.grants) into.grants.add(key);
  }
}

/** A provider schema's natural key (lowercase fullName) and version key; null when it does not parse (its topic fails later). */
export function schemaKeysOf(given: ProviderSchema): { nameKey: string; versionKey: string } | null {
  try {
    return { nameKey: parseSchema(given.schema, SCHEMA_TYPE[given.type]).fullName.toLowerCase(), versionKey: versionNameOf(given).toLowerCase() };
  } catch {
    return null;
  }
}

export interface FoundRequest { environment: Row; importAcls: boolean; importSchemas: boolean }

/** What the run's topics already have: one statement per kind, none for a kind with nothing to look for. */
export async function readFound(ctx: RequestContext, topics: ProviderTopic[], request: FoundRequest, transaction?: Transaction): Promise<Found> {
  const found = new Found();
  const m = ctx.models;
  const tenantUid = ctx.principal.tenant.uid;
  const unique = <T>(xs: T[]) => [...new Set(xs)];
  const nameKeys = unique(topics.map((t) => t.name.toLowerCase()));
  const streams = nameKeys.length ? await m.Stream.findAll({ where: { tenantUid, nameKey: nameKeys }, transaction }) : [];
  for (const row of streams) found.addStream(row);
  const configs = streams.length
    ? await m.StreamConfig.findAll({ where: { environmentUid: request.environment.uid, streamUid: streams.map((s) => s.uid) }, attributes: ['streamUid'], raw: true, transaction })
    : [];
  for (const row of configs as unknown as { streamUid: string }[]) found.addConfig(row.streamUid);

  if (request.importSchemas) {
    const keys = topics.flatMap((t) => [t.keySchema, t.valueSchema]).flatMap((s) => (s ? [schemaKeysOf(s)] : [])).filter((k) => k !== null);
    const schemas = keys.length ? await m.Schema.findAll({ where: { tenantUid, nameKey: unique(keys.map((k) => k.nameKey)) }, transaction }) : [];
    for (const row of schemas) found.addSchema(row);
    const versions = schemas.length
      ? await m.SchemaVersion.findAll({ where: { schemaUid: schemas.map((s) => s.uid), versionKey: unique(keys.map((k) => k.versionKey)) }, transaction })
      : [];
    for (const row of versions) found.addVersion(row);
  }

  if (request.importAcls) {
    const shortNames = unique(topics.flatMap((t) => [...accessByPrincipal(t.acls).keys()].flatMap((p) => applicationNamesOf(p)?.shortName ?? [])));
    const applications = shortNames.length ? await m.Application.findAll({ where: { tenantUid, shortNameKey: shortNames }, transaction }) : [];
    for (const row of applications) found.addApplication(row);
    const keys = topics.flatMap((t) => {
      const stream = found.stream(t.name.toLowerCase());
      if (!stream) return [];
      return [...accessByPrincipal(t.acls)].flatMap(([principal, kinds]) => {
        const application = found.application(applicationNamesOf(principal)?.shortName ?? '');
        return application ? kinds.map((accessType) => openKey({ applicationUid: application.uid, streamUid: stream.uid, environmentUid: request.environment.uid, accessType }, 'Pending')!) : [];
      });
    });
    const grants = keys.length
      ? await m.ApplicationAccessGrant.findAll({ where: { openKey: { [Op.in]: unique(keys) } }, attributes: ['applicationUid', 'streamUid', 'environmentUid', 'accessType'], raw: true, transaction })
      : [];
    for (const row of grants as unknown as GrantIdentity[]) found.addGrant(row);
  }
  return found;
}
