/**
 * What every external provider adapter answers (docs/contract.md §10), whatever API it speaks: the shapes of docs/contract.md §10
 * "Provider validation result", the resource counters, and the topic details the wizard shows and imports.
 */

export const PROVIDER_TYPES = ['AIVEN', 'APACHE_KAFKA', 'CONFLUENT_CLOUD'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

export interface ProviderCluster { id: string; url: string }
export interface ProviderService { kafkaCluster: ProviderCluster; schemaRegistryClusters: ProviderCluster[] }
export interface ProviderEnvironment { environmentId: string | null; services: ProviderService[] }

export interface ResourceCounts { streams: number; applications: number; schemas: number }

export type SchemaFormat = 'AVRO' | 'PROTOBUF' | 'JSON';
/** A registry subject's latest version; `schema` is its text, which an import uploads. */
export interface ProviderSchema { subject: string; type: SchemaFormat; version: number; schema: string }

export type AclOperation = 'READ' | 'WRITE';
export interface ProviderAcl { principal: string; operation: AclOperation; patternType: 'LITERAL' | 'PREFIXED' }

export interface ProviderTopic {
  name: string;
  partitions: number;
  replicationFactor: number;
  retentionMs: number | null;
  cleanupPolicy: string | null;
  /** The topic's other configuration, as the provider reports it. */
  configs: Record<string, string>;
  keySchema: ProviderSchema | null;
  valueSchema: ProviderSchema | null;
  acls: ProviderAcl[];
}

/** One provider, bound to the credentials of one request. */
export interface ProviderAdapter {
  readonly type: ProviderType;
  /** The environments and services the credentials reach (`null` where the provider has no such notion). */
  validate(): Promise<ProviderEnvironment[] | null>;
  discover(): Promise<ResourceCounts>;
  /** Every non-internal topic with its configuration, schemas and ACLs. */
  topics(): Promise<ProviderTopic[]>;
}

/** The provider refused the credentials (401/403, unknown project, SASL or TLS refusal): a person can act on `reason`. */
export class ProviderRejectedError extends Error {
  override name = 'ProviderRejectedError';
}

/** The provider could not be reached, did not answer in time or failed (5xx): the caller sees 502. */
export class ProviderUnavailableError extends Error {
  override name = 'ProviderUnavailableError';
}

/** The provider's API cannot do what was asked (e.g. discovery on CONFLUENT_CLOUD): the caller sees 422. */
export class ProviderUnsupportedError extends Error {
  override name = 'ProviderUnsupportedError';
}

/** PEM texts, already decoded from the request's Base64 and checked to parse. */
export interface TlsMaterial {
  /** Validate the peer's certificate against `truststore` (CA validation "true"); false accepts any certificate. */
  caValidation: boolean;
  truststore?: string;
  cert?: string;
  privateKey?: string;
}

export interface AivenConfig { type: 'AIVEN'; projectId: string; token: string; serviceName?: string }
export interface ConfluentCloudConfig { type: 'CONFLUENT_CLOUD'; apiKey: string; secret: string }

export type BrokerProtocol = 'MTLS' | 'SASL/PLAIN' | 'SASL/SCRAM-SHA-256' | 'SASL/SCRAM-SHA-512';
export interface KafkaBrokerConfig extends TlsMaterial {
  protocol: BrokerProtocol;
  /** SASL only; MTLS always speaks TLS. */
  securityProtocol?: 'SASL_PLAINTEXT' | 'SASL_SSL';
  username?: string;
  password?: string;
}
export interface RegistryConfig extends TlsMaterial {
  url: string;
  protocol: 'Basic-Auth' | 'No-Auth' | 'MTLS';
  username?: string;
  password?: string;
}
export interface ApacheKafkaConfig { type: 'APACHE_KAFKA'; bootstrapServers: string[]; broker: KafkaBrokerConfig; registry?: RegistryConfig }

export type ProviderConfig = AivenConfig | ConfluentCloudConfig | ApacheKafkaConfig;

/** What an adapter needs besides the credentials: base URLs and the time bound (core/config). */
export interface ProviderSettings { aivenApiUrl: string; confluentCloudApiUrl: string; timeoutMs: number }
