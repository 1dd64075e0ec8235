/**
 * Provider B (docs/contract.md §10): a self-managed Apache Kafka cluster reached with kafkajs' admin client, plus an
 * optional Confluent-compatible schema registry. Each call opens its own admin connection with the request's
 * credentials, is bounded by `settings.timeoutMs` as a whole, and always disconnects.
 */
import { providerCallStarted } from '../core/observe';
import { networkReason, TLS_CODES } from './network-errors';
import type { Admin, DescribeAclResponse, DescribeConfigResponse, KafkaConfig } from 'kafkajs';
import { brokerUsesTls, kafkaClientConfig } from './kafka-client-config';
import { schemaRegistryClient, type SchemaRegistryClient } from './schema-registry';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  type AclOperation,
  type ApacheKafkaConfig,
  type ProviderAcl,
  type ProviderAdapter,
  type ProviderSchema,
  type ProviderSettings,
  type ProviderTopic,
  type ResourceCounts,
} from './types';

// Kafka protocol codes. kafkajs exports these enums only from its CommonJS object (Node's ESM named-export
// detection does not see them), and the numbers are fixed by the protocol anyway.
const RESOURCE_TOPIC = 2; // AclResourceTypes.TOPIC, ConfigResourceTypes.TOPIC
const PATTERN_ANY = 1, PATTERN_LITERAL = 3, PATTERN_PREFIXED = 4;
const OPERATION_ANY = 1, OPERATION_ALL = 2, OPERATION_READ = 3, OPERATION_WRITE = 4;
const PERMISSION_ALLOW = 3;
const CONFIG_SOURCE_TOPIC = 1;

/** Topic ACL bindings that grant READ or WRITE, as the wizard imports them. */
export interface TopicAclBinding { pattern: 'LITERAL' | 'PREFIXED'; resourceName: string; acl: ProviderAcl }

export interface TopicConfig { retentionMs: number | null; cleanupPolicy: string | null; configs: Record<string, string> }

/**
 * A seam for tests only: every protocol of the contract uses SASL or TLS, and librdkafka's mock cluster speaks
 * neither, so the integration test strips them from the kafkajs configuration. Callers in the server pass nothing.
 */
export interface ApacheKafkaTestHooks {
  kafkaConfig?: (config: ApacheKafkaConfig, timeoutMs: number) => KafkaConfig;
}

export function apacheKafkaAdapter(config: ApacheKafkaConfig, settings: ProviderSettings, hooks: ApacheKafkaTestHooks = {}): ProviderAdapter {
  const timeoutMs = settings.timeoutMs;
  const registry = config.registry ? schemaRegistryClient(config.registry, timeoutMs) : null;
  const clientConfig = (hooks.kafkaConfig ?? kafkaClientConfig)(config, timeoutMs);
  const withAdmin = <T>(work: (admin: Admin) => Promise<T>) => runWithAdmin(config, clientConfig, timeoutMs, work);

  return {
    type: 'APACHE_KAFKA',

    async validate() {
      await withAdmin((admin) => admin.describeCluster());
      // After the brokers, so a broker refusal is the one reported when both are wrong.
      if (registry) await registry.subjects();
      return null;
    },

    async discover(): Promise<ResourceCounts> {
      const [kafka, schemas] = await Promise.all([
        withAdmin(async (admin) => {
          const names = userTopics(await admin.listTopics());
          const bindings = await topicAcls(admin, await hasController(admin));
          return { streams: names.length, applications: principalsOf(bindings ?? [], names).size };
        }),
        registry ? registry.subjects().then((s) => s.length) : Promise.resolve(0),
      ]);
      return { ...kafka, schemas };
    },

    async topics(): Promise<ProviderTopic[]> {
      const [kafka, subjects] = await Promise.all([
        withAdmin(async (admin) => {
          const { topics } = await admin.fetchTopicMetadata();
          const visible = topics.filter((t) => !isInternal(t.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
          const controller = await hasController(admin);
          const configs = await topicConfigs(admin, controller, visible.map((t) => t.name));
          const bindings = await topicAcls(admin, controller);
          return { visible, configs, bindings };
        }),
        registry ? registry.subjects().then((s) => new Set(s)) : Promise.resolve(new Set<string>()),
      ]);
      const schemas = await latestSchemas(registry, subjects, kafka.visible.map((t) => t.name));
      return kafka.visible.map((t) => {
        const c = kafka.configs?.get(t.name);
        return {
          name: t.name,
          partitions: t.partitions.length,
          // Every partition of a topic has the same replica count unless a reassignment is under way; take the
          // largest so a partition shrunk mid-reassignment does not understate it.
          replicationFactor: Math.max(0, ...t.partitions.map((p) => p.replicas.length)),
          retentionMs: c?.retentionMs ?? null,
          cleanupPolicy: c?.cleanupPolicy ?? null,
          configs: c?.configs ?? {},
          keySchema: schemas.get(`${t.name}-key`) ?? null,
          valueSchema: schemas.get(`${t.name}-value`) ?? null,
          acls: aclsOf(kafka.bindings ?? [], t.name),
        };
      });
    },
  };
}

/** Names starting with `_` are Kafka's and the platform's internals (`__consumer_offsets`, `_schemas`): never shown. */
const isInternal = (name: string) => name.startsWith('_');
const userTopics = (names: string[]) => names.filter((n) => !isInternal(n));

/**
 * Connect, run `work`, disconnect — all within `timeoutMs`. kafkajs' own timeouts are per connection and per request;
 * the overall bound keeps a slow broker from stretching a call with several requests past what docs/contract.md §10 allows.
 */
async function runWithAdmin<T>(config: ApacheKafkaConfig, clientConfig: KafkaConfig, timeoutMs: number, work: (admin: Admin) => Promise<T>): Promise<T> {
  const ended = providerCallStarted({ provider: 'APACHE_KAFKA', method: 'admin', host: config.bootstrapServers[0] ?? '' });
  try {
    const answer = await adminSession(config, clientConfig, timeoutMs, work);
    ended('ok');
    return answer;
  } catch (err) {
    ended(err instanceof ProviderRejectedError ? 'refused' : 'unavailable');
    throw err;
  }
}

async function adminSession<T>(config: ApacheKafkaConfig, clientConfig: KafkaConfig, timeoutMs: number, work: (admin: Admin) => Promise<T>): Promise<T> {
  // Loaded on the first Apache Kafka call: most processes never make one, and kafkajs is a large module to hold.
  const { Kafka } = await import('kafkajs');
  const admin = new Kafka(clientConfig).admin();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderUnavailableError(
      `APACHE_KAFKA: the brokers did not answer within ${Math.round(timeoutMs / 100) / 10} s`)), timeoutMs);
  });
  const job = (async () => {
    await admin.connect();
    return work(admin);
  })();
  job.catch(() => undefined); // lost the race to the deadline: its late failure is nobody's to handle
  try {
    return await Promise.race([job, deadline]);
  } catch (err) {
    throw kafkaFailure(err, config);
  } finally {
    clearTimeout(timer);
    await admin.disconnect().catch(() => undefined);
  }
}

/** The chain of an error and its causes (kafkajs wraps the last attempt's error in KafkaJSNumberOfRetriesExceeded). */
interface ErrorLike { name?: string; type?: string; code?: unknown; apiName?: string; cause?: unknown }
function causes(err: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  let e = err as ErrorLike | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++, e = e.cause as typeof e) out.push(e);
  return out;
}

const SASL_TYPES = new Set(['SASL_AUTHENTICATION_FAILED', 'UNSUPPORTED_SASL_MECHANISM', 'ILLEGAL_SASL_STATE']);

/**
 * A kafkajs failure as the caller answers it. Only messages built here leave: kafkajs messages are not echoed for
 * refusals, so nothing of the request (and never the password or key) can end up in an answer or a log.
 */
export function kafkaFailure(err: unknown, config: ApacheKafkaConfig): Error {
  if (err instanceof ProviderRejectedError || err instanceof ProviderUnavailableError) return err;
  const chain = causes(err);
  const mechanism = config.broker.protocol;
  if (chain.some((e) => e.name === 'KafkaJSSASLAuthenticationError' || SASL_TYPES.has(e.type ?? ''))) {
    return new ProviderRejectedError(`APACHE_KAFKA: the brokers refused the ${mechanism} username or password`);
  }
  if (mechanism !== 'MTLS' && chain.some((e) => e.name === 'KafkaJSServerDoesNotSupportApiKey' && /^Sasl/.test(e.apiName ?? ''))) {
    return new ProviderRejectedError(`APACHE_KAFKA: the brokers do not offer SASL authentication on this listener: check the protocol and security protocol`);
  }
  const tlsCode = chain.map((e) => e.code).find((c): c is string => typeof c === 'string' && TLS_CODES.test(c));
  if (tlsCode) {
    return new ProviderRejectedError(`APACHE_KAFKA: TLS handshake with the brokers failed (${tlsCode}): check the certificate, key and truststore`);
  }
  if (chain.some((e) => e.type === 'CLUSTER_AUTHORIZATION_FAILED' || e.type === 'TOPIC_AUTHORIZATION_FAILED')) {
    return new ProviderRejectedError(`APACHE_KAFKA: the brokers accepted the credentials but refused to describe the cluster or its topics`);
  }
  const servers = config.bootstrapServers.join(', ');
  const code = chain.map((e) => e.code).find((c) => typeof c === 'string' && c !== '');
  if (code) return new ProviderUnavailableError(`APACHE_KAFKA: ${servers} cannot be reached (${networkReason(code as string)})`);
  if (chain.some((e) => e.name === 'KafkaJSRequestTimeoutError' || e.name === 'KafkaJSTimeout')) {
    return new ProviderUnavailableError(`APACHE_KAFKA: ${servers} did not answer in time`);
  }
  if (chain.some((e) => e.name === 'KafkaJSConnectionError' || e.name === 'KafkaJSConnectionClosedError')) {
    const tlsHint = brokerUsesTls(config.broker) ? ' (does that listener speak TLS?)' : '';
    return new ProviderUnavailableError(`APACHE_KAFKA: ${servers} closed the connection${tlsHint}`);
  }
  const last = chain[chain.length - 1];
  return new ProviderUnavailableError(`APACHE_KAFKA: the brokers failed (${last?.type ?? last?.name ?? 'unknown error'})`);
}

/**
 * Whether an optional admin call failed only because the cluster cannot answer it — ACLs with no authorizer
 * configured (SECURITY_DISABLED), an API the broker does not implement (librdkafka's mock cluster implements neither
 * DescribeAcls nor DescribeConfigs), or credentials that may list topics but not describe ACLs or configs.
 * Those count as "unsupported" (docs/contract.md §10: ACLs unsupported → 0); anything else is a real failure.
 */
export function isUnsupported(err: unknown): boolean {
  return causes(err).some((e) =>
    e.name === 'KafkaJSServerDoesNotSupportApiKey' || e.name === 'KafkaJSNotImplemented' ||
    ['SECURITY_DISABLED', 'UNSUPPORTED_VERSION', 'CLUSTER_AUTHORIZATION_FAILED', 'TOPIC_AUTHORIZATION_FAILED'].includes(e.type ?? ''));
}

/**
 * kafkajs sends DescribeAcls and DescribeConfigs to the controller it finds in the metadata. A cluster that names
 * no controller among its brokers (librdkafka's mock cluster answers an id no broker has) cannot take those calls
 * at all; asking anyway only yields KafkaJSBrokerNotFound, so such a cluster is treated as not supporting them.
 */
async function hasController(admin: Admin): Promise<boolean> {
  const { brokers, controller } = await admin.describeCluster();
  return controller !== null && brokers.some((b) => b.nodeId === controller);
}

/** Call `fn` if the cluster can take controller-bound admin calls; null when it cannot or says it does not support it. */
async function optional<T>(controller: boolean, fn: () => Promise<T>): Promise<T | null> {
  if (!controller) return null;
  try {
    return await fn();
  } catch (err) {
    if (isUnsupported(err)) return null;
    throw err;
  }
}

/** Topic ACLs that grant READ or WRITE (ALL grants both); DENY entries and other operations do not import as grants. */
async function topicAcls(admin: Admin, controller: boolean): Promise<TopicAclBinding[] | null> {
  const reply: DescribeAclResponse | null = await optional(controller, () => admin.describeAcls({
    resourceType: RESOURCE_TOPIC,
    resourcePatternType: PATTERN_ANY,
    operation: OPERATION_ANY,
    permissionType: PERMISSION_ALLOW,
  }));
  return reply ? aclBindings(reply) : null;
}

/** The READ/WRITE grants of a DescribeAcls reply (exported for the unit test: the mock cluster has no ACLs). */
export function aclBindings(reply: DescribeAclResponse): TopicAclBinding[] {
  const out: TopicAclBinding[] = [];
  for (const r of reply.resources) {
    const pattern = r.resourcePatternType === PATTERN_LITERAL ? 'LITERAL' : r.resourcePatternType === PATTERN_PREFIXED ? 'PREFIXED' : null;
    if (!pattern) continue;
    if (r.resourceType !== RESOURCE_TOPIC) continue;
    for (const a of r.acls) {
      // `User:*` is everyone, not an application the wizard could create.
      if (a.permissionType !== PERMISSION_ALLOW || a.principal.endsWith(':*')) continue;
      const ops: AclOperation[] = a.operation === OPERATION_ALL ? ['READ', 'WRITE']
        : a.operation === OPERATION_READ ? ['READ'] : a.operation === OPERATION_WRITE ? ['WRITE'] : [];
      for (const operation of ops) out.push({ pattern, resourceName: r.resourceName, acl: { principal: a.principal, operation, patternType: pattern } });
    }
  }
  return out;
}

/** Kafka's matching: a literal name or the literal wildcard `*`, or a prefix. */
function appliesTo(b: TopicAclBinding, topic: string): boolean {
  if (b.pattern === 'PREFIXED') return topic.startsWith(b.resourceName);
  return b.resourceName === topic || b.resourceName === '*';
}

/** The principals the wizard would make applications of: those with a grant on at least one of `topics`. */
export function principalsOf(bindings: TopicAclBinding[], topics: string[]): Set<string> {
  return new Set(bindings.filter((b) => topics.some((t) => appliesTo(b, t))).map((b) => b.acl.principal));
}

export function aclsOf(bindings: TopicAclBinding[], topic: string): ProviderAcl[] {
  const seen = new Set<string>();
  const out: ProviderAcl[] = [];
  for (const b of bindings) {
    if (!appliesTo(b, topic)) continue;
    const key = `${b.acl.principal}\u0000${b.acl.operation}\u0000${b.acl.patternType}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(b.acl);
    }
  }
  return out;
}

/**
 * retention.ms and cleanup.policy as in effect (defaults included: that is what the topic does), and in `configs`
 * only what was set on the topic itself — the broker defaults are not the topic's and would be imported as overrides.
 * Null when the cluster cannot describe configs: the wizard then shows unknown values rather than invented ones.
 */
async function topicConfigs(admin: Admin, controller: boolean, names: string[]): Promise<Map<string, TopicConfig> | null> {
  if (names.length === 0) return new Map();
  const reply: DescribeConfigResponse | null = await optional(controller, () => admin.describeConfigs({
    includeSynonyms: false,
    resources: names.map((name) => ({ type: RESOURCE_TOPIC, name })),
  }));
  return reply ? topicConfigsOf(reply) : null;
}

/** A DescribeConfigs reply per topic (exported for the unit test: the mock cluster has no DescribeConfigs). */
export function topicConfigsOf(reply: DescribeConfigResponse): Map<string, TopicConfig> {
  const out = new Map<string, TopicConfig>();
  for (const r of reply.resources) {
    const c: TopicConfig = { retentionMs: null, cleanupPolicy: null, configs: {} };
    for (const e of r.configEntries) {
      if (e.configName === 'retention.ms') {
        const n = Number(e.configValue);
        c.retentionMs = e.configValue !== null && Number.isFinite(n) ? n : null;
      } else if (e.configName === 'cleanup.policy') {
        c.cleanupPolicy = e.configValue ?? null;
      } else if (!e.isSensitive && e.configValue !== null && setOnTopic(e)) {
        c.configs[e.configName] = e.configValue;
      }
    }
    out.set(r.resourceName, c);
  }
  return out;
}

/** DescribeConfigs v1+ says where a value comes from; v0 only whether it is a default. */
function setOnTopic(e: { isDefault: boolean; configSource?: number }): boolean {
  return e.configSource === undefined || e.configSource === null ? !e.isDefault : e.configSource === CONFIG_SOURCE_TOPIC;
}

/** The latest `<topic>-key` / `<topic>-value` schemas that exist, a few requests at a time. */
async function latestSchemas(registry: SchemaRegistryClient | null, subjects: Set<string>, topics: string[]): Promise<Map<string, ProviderSchema>> {
  const out = new Map<string, ProviderSchema>();
  if (!registry) return out;
  const wanted = topics.flatMap((t) => [`${t}-key`, `${t}-value`]).filter((s) => subjects.has(s));
  let next = 0;
  const worker = async () => {
    while (next < wanted.length) {
      const subject = wanted[next++]!;
      const schema = await registry.latest(subject);
      if (schema) out.set(subject, schema);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, wanted.length) }, worker));
  return out;
}
