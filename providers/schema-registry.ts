/**
 * The few calls provider B makes to a Confluent-compatible schema registry (Confluent, Karapace, Apicurio's ccompat
 * API), all through getJson so they share its time bound, TLS handling and failure sorting.
 */
import { getJson, type HttpOptions, type HttpReply } from './http';
import { registryHttpOptions } from './kafka-client-config';
import { ProviderRejectedError, ProviderUnavailableError, type ProviderSchema, type RegistryConfig, type SchemaFormat } from './types';

export interface SchemaRegistryClient {
  /** Every subject (GET /subjects). */
  subjects(): Promise<string[]>;
  /** The subject's latest version, or null when the registry does not know the subject. */
  latest(subject: string): Promise<ProviderSchema | null>;
}

const FORMATS: readonly SchemaFormat[] = ['AVRO', 'PROTOBUF', 'JSON'];

export function schemaRegistryClient(registry: RegistryConfig, timeoutMs: number): SchemaRegistryClient {
  const options: HttpOptions = registryHttpOptions(registry, timeoutMs);
  // The registry may live under a path (https://host/registry/); keep it, and drop a trailing slash.
  const base = registry.url.replace(/\/+$/, '');

  const get = async (path: string): Promise<HttpReply> => {
    const reply = await getJson(`${base}${path}`, options);
    if (reply.status === 401 || reply.status === 403) {
      throw new ProviderRejectedError(`APACHE_KAFKA: the schema registry refused the credentials (${reply.status})`);
    }
    return reply;
  };

  return {
    async subjects() {
      const reply = await get('/subjects');
      if (reply.status !== 200) throw unexpected('/subjects', reply.status);
      const body = reply.body;
      if (!Array.isArray(body) || !body.every((s) => typeof s === 'string')) throw malformed('/subjects');
      return [...new Set(body as string[])];
    },

    async latest(subject) {
      const path = `/subjects/${encodeURIComponent(subject)}/versions/latest`;
      const reply = await get(path);
      // 40401 subject not found, 40402 version not found: both mean "no schema" for the wizard.
      if (reply.status === 404) return null;
      if (reply.status !== 200) throw unexpected(path, reply.status);
      return toSchema(reply.body, subject);
    },
  };
}

function toSchema(body: unknown, requested: string): ProviderSchema {
  const b = body as { subject?: unknown; version?: unknown; schemaType?: unknown; schema?: unknown } | null;
  if (!b || typeof b !== 'object' || typeof b.schema !== 'string' || !Number.isInteger(b.version)) {
    throw malformed(`the latest version of ${requested}`);
  }
  // Confluent leaves schemaType out for Avro, its original and default format.
  const type = b.schemaType === undefined || b.schemaType === null ? 'AVRO' : b.schemaType;
  if (!FORMATS.includes(type as SchemaFormat)) {
    throw new ProviderUnavailableError(`APACHE_KAFKA: the schema registry reported an unknown schema type for ${requested}`);
  }
  return {
    subject: typeof b.subject === 'string' ? b.subject : requested,
    type: type as SchemaFormat,
    version: b.version as number,
    schema: b.schema,
  };
}

const unexpected = (path: string, status: number) =>
  new ProviderUnavailableError(`APACHE_KAFKA: the schema registry answered ${status} to GET ${path}`);

const malformed = (what: string) =>
  new ProviderUnavailableError(`APACHE_KAFKA: the schema registry's reply for ${what} is not what a Confluent-compatible registry sends`);
