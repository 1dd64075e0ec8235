/**
 * The AsyncAPI 2.6.0 document of one deployed stream (docs/contract.md §9), assembled from plain data: no HTTP, no
 * database. Deterministic: the same input gives the same document, key order included.
 */
import { exactInteger } from './exact-json';
import { avroRecordName, keyBinding, valueMessage, type Side } from './payloads';

export interface AuthMethod { rank: number; protocol: string; mechanism: string }

export interface AsyncApiInput {
  tenant: { shortName: string; supportedAuthenticationMethods: AuthMethod[]; properties: Record<string, string> | null };
  /** The realm's token endpoint, for the OAuth scheme. */
  tokenUrl: string;
  streamConfig: { uid: string; topicName: string; partitions: number; retentionTime: number; properties: Record<string, string> };
  stream: { name: string; description: string | null; retentionPolicy: string };
  environment: { name: string; shortName: string };
  /** The instance's clusters in their order. */
  clusters: { name: string; description: string | null; location: string | null; bootstrapServers: string[]; schemaRegistryUrls: string[] }[];
  key: Side;
  value: Side;
  /** The pinned value version's name: the document's version. */
  pinnedValueVersion: string | null;
}

export const BINDING_VERSION = '0.4.0';

const SCHEMES: Record<string, { type: string; description: string }> = {
  SSL_MUTUAL_TLS: { type: 'X509', description: 'TLS client authentication (SSL, MUTUAL_TLS) with the certificate of an application principal.' },
  SASL_SCRAM_SHA_256: { type: 'scramSha256', description: 'SASL SCRAM-SHA-256 with the username and password of an application credential.' },
  SASL_SCRAM_SHA_512: { type: 'scramSha512', description: 'SASL SCRAM-SHA-512 with the username and password of an application credential.' },
  SASL_OAUTH_BEARER: { type: 'oauth2', description: "SASL OAUTHBEARER with an access token of the tenant's realm (client credentials grant)." },
};

const schemeName = (m: AuthMethod) => `${m.protocol}_${m.mechanism}`;

/** `orders.v1-raw` → `OrdersV1Raw`. */
export function pascalCase(name: string): string {
  return name.split(/[^A-Za-z0-9]+/).filter(Boolean).map((part) => part[0].toUpperCase() + part.slice(1)).join('');
}

function securitySchemes(methods: AuthMethod[], tokenUrl: string): Record<string, unknown> {
  return Object.fromEntries(methods.map((m) => {
    const name = schemeName(m);
    const scheme = SCHEMES[name];
    if (scheme.type !== 'oauth2') return [name, { ...scheme }];
    return [name, { ...scheme, flows: { clientCredentials: { tokenUrl, scopes: {} } } }];
  }));
}

function servers(input: AsyncApiInput, methods: AuthMethod[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const security = methods.map((m) => ({ [schemeName(m)]: [] }));
  const prefixes = new Set<string>();
  for (const cluster of input.clusters) {
    const safe = cluster.name.replace(/[^A-Za-z0-9_-]/g, '_');
    // Two cluster names may differ only in the characters replaced: the later one gets a suffix.
    let prefix = safe;
    for (let i = 2; prefixes.has(prefix); i += 1) prefix = `${safe}_${i}`;
    prefixes.add(prefix);
    const registry = cluster.schemaRegistryUrls[0];
    cluster.bootstrapServers.forEach((url, i) => {
      const where = cluster.location ? `, ${cluster.location}` : '';
      result[`${prefix}-${i + 1}`] = {
        url,
        protocol: methods.length > 0 ? 'kafka-secure' : 'kafka',
        description: `Bootstrap server ${i + 1} of ${cluster.bootstrapServers.length} of cluster ${cluster.name}${where}`,
        ...(methods.length > 0 ? { security } : {}),
        ...(registry ? { bindings: { kafka: { schemaRegistryUrl: registry, schemaRegistryVendor: 'confluent', bindingVersion: BINDING_VERSION } } } : {}),
      };
    });
  }
  return result;
}

function channelBinding(input: AsyncApiInput): Record<string, unknown> {
  const { streamConfig, stream, tenant } = input;
  const factor = tenant.properties?.['replication.factor'];
  const replicas = typeof factor === 'string' && /^[1-9][0-9]{0,8}$/.test(factor) ? Number(factor) : undefined;
  const bytes = streamConfig.properties['retention.bytes'];
  return {
    topic: streamConfig.topicName,
    partitions: streamConfig.partitions,
    ...(replicas !== undefined ? { replicas } : {}),
    topicConfiguration: {
      'cleanup.policy': stream.retentionPolicy.split(',').map((p) => p.trim()),
      'retention.ms': streamConfig.retentionTime,
      ...(bytes !== undefined ? { 'retention.bytes': exactInteger(bytes) } : {}),
    },
    bindingVersion: BINDING_VERSION,
  };
}

export function assembleAsyncApi(input: AsyncApiInput): Record<string, unknown> {
  const { tenant, stream, environment, streamConfig } = input;
  const methods = [...tenant.supportedAuthenticationMethods].sort((a, b) => a.rank - b.rank);
  const p = pascalCase(stream.name);
  const messageName = avroRecordName(input.value) ?? `${p}Message`;
  const value = valueMessage(input.value);
  const key = keyBinding(input.key);
  const ref = { $ref: `#/components/messages/${messageName}` };
  const where = `environment ${environment.name} (${environment.shortName})`;
  const info = stream.description ? `${stream.description}\n\nDeployed in ${where}.` : `Stream ${stream.name}, deployed in ${where}.`;
  const serverList = servers(input, methods);
  // Schemes only servers use: an instance without clusters has neither.
  const schemes = Object.keys(serverList).length > 0 ? securitySchemes(methods, input.tokenUrl) : {};
  return {
    asyncapi: '2.6.0',
    id: `urn:platform:${tenant.shortName}:stream_config:${streamConfig.uid}`,
    info: { title: stream.name, version: input.pinnedValueVersion ?? '1.0.0', description: info },
    defaultContentType: 'application/octet-stream',
    ...(Object.keys(serverList).length > 0 ? { servers: serverList } : {}),
    channels: {
      [streamConfig.topicName]: {
        description: `Kafka topic of stream ${stream.name} in ${where}.`,
        bindings: { kafka: channelBinding(input) },
        publish: { operationId: `produce${p}`, summary: `Produce ${stream.name} records to ${streamConfig.topicName}`, message: ref },
        subscribe: { operationId: `consume${p}`, summary: `Consume ${stream.name} records from ${streamConfig.topicName}`, message: { ...ref } },
      },
    },
    components: {
      ...(Object.keys(schemes).length > 0 ? { securitySchemes: schemes } : {}),
      messages: {
        [messageName]: {
          name: messageName,
          title: `${stream.name} record`,
          contentType: value.contentType,
          ...(value.schemaFormat ? { schemaFormat: value.schemaFormat } : {}),
          payload: value.payload,
          bindings: { kafka: { key: key.key, bindingVersion: BINDING_VERSION } },
          ...value.extensions,
          ...key.extensions,
        },
      },
    },
  };
}
