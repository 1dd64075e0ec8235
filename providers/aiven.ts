/**
 * Provider A of docs/contract.md §10: the Aiven REST API v1 (https://api.aiven.io/doc/), read only, with the caller's
 * token (`Authorization: aivenv1 <token>`). Endpoints and reply shapes follow Aiven's OpenAPI document as its
 * generated Go client (github.com/aiven/go-client-codegen, handler/{project,service,kafka,kafkatopic,
 * kafkaschemaregistry}) spells them:
 *   GET /v1/project/{project}                                  → {project}
 *   GET /v1/project/{project}/service                          → {services: [{service_name, service_type, service_uri, components, user_config}]}
 *   GET /v1/project/{project}/service/{service}                → {service: {…}}
 *   GET …/service/{service}/acl                                → {acl: [{id, username, topic, permission}]}
 *   GET …/service/{service}/topic                              → {topics: [{topic_name, partitions, replication, …}]}
 *   GET …/service/{service}/topic/{topic}                      → {topic: {partitions: [...], replication, config: {retention_ms: {value, source}, …}}}
 *   GET …/service/{service}/kafka/schema/subjects              → {subjects: [...]}
 *   GET …/kafka/schema/subjects/{subject}/versions             → {versions: [1, 2]}
 *   GET …/kafka/schema/subjects/{subject}/versions/{n}         → {version: {subject, version, schema, schemaType?}}
 */
import { getJson } from './http';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  type AclOperation,
  type AivenConfig,
  type ProviderAcl,
  type ProviderAdapter,
  type ProviderCluster,
  type ProviderEnvironment,
  type ProviderSchema,
  type ProviderService,
  type ProviderSettings,
  type ProviderTopic,
  type ResourceCounts,
  type SchemaFormat,
} from './types';

const LABEL = 'AIVEN';
/** Topic details cost one request each: a few at a time keeps a large service quick without flooding the API. */
const DETAIL_CONCURRENCY = 6;
/**
 * Every new Aiven Kafka service carries a default ACL giving its superuser `avnadmin` admin on `*` (Aiven docs,
 * "Access Control Lists in Aiven for Apache Kafka", aiven.io/docs/products/kafka/concepts/acl). It is the
 * service's operator account, not an application: counting or importing it would invent an application with
 * produce and consume access to every topic.
 */
const SUPERUSER = 'avnadmin';
const WILDCARD = /[*?]/;

type Json = Record<string, unknown>;
interface AivenAcl { username: string; topic: string; permission: string }
interface KafkaService { name: string; schemaRegistry: boolean }
/** What a 403 and a 404 mean at the path asked, in words a person can act on. */
interface Scope { forbidden: string; missing: string }

export function aivenAdapter(config: AivenConfig, settings: ProviderSettings): ProviderAdapter {
  const project = config.projectId;
  const projectUrl = `${settings.aivenApiUrl.replace(/\/+$/, '')}/v1/project/${encodeURIComponent(project)}`;
  const projectScope: Scope = {
    forbidden: `the token has no access to project ${project} (403)`,
    missing: `project ${project} does not exist (404)`,
  };

  /** GET `path` under the project: the body on 200, null on 404 when `optional`, a rejection or outage otherwise. */
  async function call(path: string, scope: Scope, optional: true): Promise<Json | null>;
  async function call(path: string, scope: Scope, optional?: false): Promise<Json>;
  async function call(path: string, scope: Scope, optional = false): Promise<Json | null> {
    const url = projectUrl + path;
    const reply = await getJson(url, { label: LABEL, timeoutMs: settings.timeoutMs, headers: { authorization: `aivenv1 ${config.token}` } });
    if (reply.status === 200) return objectBody(reply.body, url);
    if (reply.status === 401) throw new ProviderRejectedError(`${LABEL}: the token is not valid (401)`);
    if (reply.status === 403) throw new ProviderRejectedError(`${LABEL}: ${scope.forbidden}`);
    if (reply.status === 404) {
      if (optional) return null;
      throw new ProviderRejectedError(`${LABEL}: ${scope.missing}`);
    }
    // 400, 409, 429…: nothing the caller's credentials can fix; the endpoint answers 502 for these.
    throw new ProviderUnavailableError(`${LABEL}: ${new URL(url).host} answered ${reply.status}`);
  }

  function serviceScope(service: string): Scope {
    return {
      forbidden: `the token has no access to service ${service} of project ${project} (403)`,
      missing: `service ${service} does not exist in project ${project} (404)`,
    };
  }

  /** Topics, ACLs and schemas need more than reading the service: Aiven documents `service:data:write` for them. */
  function dataScope(service: string): Scope {
    return {
      forbidden: `the token may not read the topics, ACLs and schemas of service ${service} of project ${project}: that needs the service:data:write permission (403)`,
      missing: serviceScope(service).missing,
    };
  }

  /** The named service, which must exist and be Kafka; the caller checked presence, this guards the adapter's own contract. */
  async function kafkaService(): Promise<KafkaService> {
    const name = config.serviceName?.trim();
    if (!name) throw new ProviderRejectedError(`${LABEL}: a service name is required to read the resources of project ${project}`);
    const body = await call(`/service/${encodeURIComponent(name)}`, serviceScope(name));
    const service = asObject(body.service);
    const type = asString(service.service_type);
    if (type !== 'kafka') throw new ProviderRejectedError(`${LABEL}: service ${name} of project ${project} is not a Kafka service (type ${type || 'unknown'})`);
    return { name, schemaRegistry: asObject(service.user_config).schema_registry === true };
  }

  const servicePath = (service: string) => `/service/${encodeURIComponent(service)}`;

  async function listTopics(service: string): Promise<Json[]> {
    return asArray((await call(`${servicePath(service)}/topic`, dataScope(service))).topics).map(asObject);
  }

  async function listAcls(service: string): Promise<AivenAcl[]> {
    const body = await call(`${servicePath(service)}/acl`, dataScope(service));
    return asArray(body.acl).map(asObject).map((a) => ({ username: asString(a.username), topic: asString(a.topic), permission: asString(a.permission) }));
  }

  /** The registry's subjects, or none when the service runs no registry (its schema API would only refuse). */
  async function listSubjects(service: KafkaService): Promise<string[]> {
    if (!service.schemaRegistry) return [];
    const body = await call(`${servicePath(service.name)}/kafka/schema/subjects`, dataScope(service.name), true);
    return asArray(body?.subjects).filter((s): s is string => typeof s === 'string');
  }

  /** The latest version of `subject`; null when it vanished meanwhile or has a schema type this platform does not know. */
  async function latestSchema(service: string, subject: string): Promise<ProviderSchema | null> {
    const subjectPath = `${servicePath(service)}/kafka/schema/subjects/${encodeURIComponent(subject)}/versions`;
    const list = await call(subjectPath, dataScope(service), true);
    const versions = asArray(list?.versions).filter((v): v is number => Number.isInteger(v));
    if (versions.length === 0) return null;
    const latest = Math.max(...versions);
    const body = await call(`${subjectPath}/${latest}`, dataScope(service), true);
    if (!body) return null;
    const version = asObject(body.version);
    const type = schemaFormat(version.schemaType);
    if (!type || typeof version.schema !== 'string') return null;
    return { subject, type, version: Number.isInteger(version.version) ? (version.version as number) : latest, schema: version.schema };
  }

  async function topicDetails(service: KafkaService, listed: Json, acls: AivenAcl[], subjects: Set<string>): Promise<ProviderTopic | null> {
    const name = asString(listed.topic_name);
    const body = await call(`${servicePath(service.name)}/topic/${encodeURIComponent(name)}`, dataScope(service.name), true);
    if (!body) return null; // deleted between the listing and now
    const topic = asObject(body.topic);
    const settingsOf = asObject(topic.config);
    const [keySchema, valueSchema] = await Promise.all(
      [`${name}-key`, `${name}-value`].map((subject) => (subjects.has(subject) ? latestSchema(service.name, subject) : null)),
    );
    return {
      name,
      partitions: asCount(listed.partitions) ?? asArray(topic.partitions).length,
      replicationFactor: asCount(topic.replication) ?? asCount(listed.replication) ?? 0,
      retentionMs: retentionOf(settingsOf, topic, listed),
      cleanupPolicy: configValue(settingsOf.cleanup_policy) ?? (asString(topic.cleanup_policy || listed.cleanup_policy) || null),
      configs: otherConfigs(settingsOf),
      keySchema,
      valueSchema,
      acls: aclsFor(name, acls),
    };
  }

  return {
    type: 'AIVEN',

    async validate(): Promise<ProviderEnvironment[]> {
      await call('', projectScope);
      const body = await call('/service', projectScope);
      const services: ProviderService[] = asArray(body.services)
        .map(asObject)
        .filter((s) => s.service_type === 'kafka' && typeof s.service_name === 'string')
        .map((s) => ({
          kafkaCluster: { id: s.service_name as string, url: asString(s.service_uri) },
          schemaRegistryClusters: registryOf(s),
        }));
      return [{ environmentId: project, services }];
    },

    async discover(): Promise<ResourceCounts> {
      const service = await kafkaService();
      const [topics, acls, subjects] = await Promise.all([listTopics(service.name), listAcls(service.name), listSubjects(service)]);
      return {
        streams: topics.filter((t) => isImportable(asString(t.topic_name))).length,
        applications: new Set(acls.filter(isApplicationAcl).map((a) => a.username)).size,
        schemas: new Set(subjects).size,
      };
    },

    async topics(): Promise<ProviderTopic[]> {
      const service = await kafkaService();
      const [listed, acls, subjects] = await Promise.all([listTopics(service.name), listAcls(service.name), listSubjects(service)]);
      const wanted = listed
        .filter((t) => isImportable(asString(t.topic_name)))
        .sort((a, b) => asString(a.topic_name).localeCompare(asString(b.topic_name)));
      const subjectSet = new Set(subjects);
      const details = await mapLimit(wanted, DETAIL_CONCURRENCY, (t) => topicDetails(service, t, acls, subjectSet));
      return details.filter((t): t is ProviderTopic => t !== null);
    },
  };
}

/** docs/contract.md §10: names starting with `_` (`_schemas`, `__consumer_offsets`) are internal, neither counted nor imported. */
const isImportable = (topic: string) => topic !== '' && !topic.startsWith('_');

/**
 * An ACL that names an application: not the superuser, and a concrete username. Aiven usernames may be patterns
 * (`*`, `?`, e.g. `*userA`, per `avn service acl-add`); a pattern is a set of users, not one principal an
 * application could be derived from, so discovery does not count it and the wizard does not offer it.
 */
const isApplicationAcl = (acl: AivenAcl) => acl.username !== '' && acl.username !== SUPERUSER && !WILDCARD.test(acl.username);

/** read → READ, write → WRITE, readwrite and admin → both (admin also manages the topic, which an import cannot grant). */
function operationsOf(permission: string): AclOperation[] {
  switch (permission) {
    case 'read': return ['READ'];
    case 'write': return ['WRITE'];
    case 'readwrite':
    case 'admin': return ['READ', 'WRITE'];
    default: return [];
  }
}

/**
 * The service's application ACLs whose topic pattern covers `topic`. Aiven topic patterns accept `*` (any run of
 * characters) and `?` (one character). An exact name is LITERAL; `prefix*` with no other wildcard is PREFIXED
 * (`*` alone is the empty prefix: every topic, which is what it grants). Any other glob (`?`, an inner `*`) has no
 * LITERAL or PREFIXED equivalent: reporting it as either would misstate what it grants, so it is left out and a
 * person recreates it by hand.
 */
function aclsFor(topic: string, acls: AivenAcl[]): ProviderAcl[] {
  const seen = new Set<string>();
  const out: ProviderAcl[] = [];
  for (const acl of acls) {
    if (!isApplicationAcl(acl)) continue;
    const patternType = patternTypeFor(acl.topic, topic);
    if (!patternType) continue;
    for (const operation of operationsOf(acl.permission)) {
      const key = `${acl.username}\u0000${operation}\u0000${patternType}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ principal: acl.username, operation, patternType });
    }
  }
  return out;
}

function patternTypeFor(pattern: string, topic: string): ProviderAcl['patternType'] | null {
  if (!WILDCARD.test(pattern)) return pattern === topic ? 'LITERAL' : null;
  const prefix = pattern.slice(0, -1);
  if (pattern.endsWith('*') && !WILDCARD.test(prefix)) return topic.startsWith(prefix) ? 'PREFIXED' : null;
  return null;
}

/**
 * `https://host:port` of the service's `schema_registry` component when `user_config.schema_registry` is on.
 * A service lists one component per network route; `dynamic` is the default route, the one `service_uri` uses too.
 */
function registryOf(service: Json): ProviderCluster[] {
  if (asObject(service.user_config).schema_registry !== true) return [];
  const components = asArray(service.components).map(asObject).filter((c) => c.component === 'schema_registry' && typeof c.host === 'string' && asCount(c.port) !== null);
  const chosen = components.find((c) => c.route === 'dynamic' && (c.usage ?? 'primary') === 'primary') ?? components[0];
  if (!chosen) return [];
  return [{ id: asString(service.service_name), url: `https://${chosen.host as string}:${chosen.port as number}` }];
}

/** `config.retention_ms` (current API); else the deprecated top-level `retention_hours` (−1 = unlimited, kept as −1). */
function retentionOf(configs: Json, topic: Json, listed: Json): number | null {
  const ms = configValue(configs.retention_ms);
  if (ms !== null && Number.isFinite(Number(ms))) return Number(ms);
  const hours = typeof topic.retention_hours === 'number' ? topic.retention_hours : listed.retention_hours;
  if (typeof hours !== 'number' || !Number.isFinite(hours)) return null;
  return hours < 0 ? -1 : hours * 3_600_000;
}

/**
 * The settings made on the topic itself (`source: topic_config`), under Kafka's own names (Aiven spells
 * `cleanup.policy` as `cleanup_policy`), as the APACHE_KAFKA adapter reports them: broker and default values are
 * not the topic's and an import would turn them into overrides. retention.ms and cleanup.policy have their own
 * fields (in effect, whatever their source) and are not repeated.
 */
function otherConfigs(configs: Json): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(configs)) {
    if (key === 'retention_ms' || key === 'cleanup_policy') continue;
    const source = asObject(entry).source;
    if (source !== undefined && source !== 'topic_config') continue;
    const value = configValue(entry);
    if (value !== null) out[key.replace(/_/g, '.')] = value;
  }
  return out;
}

/** A config entry is `{value, source, synonyms}`; its value as text, or null when absent. */
function configValue(entry: unknown): string | null {
  const value = asObject(entry).value;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

/** Registry `schemaType`; absent means AVRO (Confluent-compatible registries omit it for Avro). */
function schemaFormat(raw: unknown): SchemaFormat | null {
  if (raw === undefined || raw === null || raw === '') return 'AVRO';
  return raw === 'AVRO' || raw === 'PROTOBUF' || raw === 'JSON' ? raw : null;
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function objectBody(body: unknown, url: string): Json {
  if (body && typeof body === 'object' && !Array.isArray(body)) return body as Json;
  throw new ProviderUnavailableError(`${LABEL}: ${new URL(url).host} answered 200 without a JSON object`);
}
const asObject = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asString = (v: unknown): string => (typeof v === 'string' ? v : '');
const asCount = (v: unknown): number | null => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : null);
