/**
 * Provider B's request fields turned into client options, without touching the network: the kafkajs client
 * configuration for the brokers and the getJson options for the schema registry. Kept pure so every protocol
 * combination can be checked exactly in a unit test (the mock cluster speaks neither SASL nor TLS).
 */
import type { KafkaConfig, logLevel, SASLOptions } from 'kafkajs';
import type { ConnectionOptions } from 'node:tls';
import type { HttpOptions, HttpTls } from './http';
import type { ApacheKafkaConfig, KafkaBrokerConfig, RegistryConfig } from './types';

export const KAFKA_CLIENT_ID = 'platform-management-service';

/** Never more than this many connection retries: a wrong address must fail within one request, not after minutes. */
const MAX_RETRIES = 2;
/** kafkajs' `logLevel.NOTHING`, named without loading kafkajs (providers/apache-kafka loads it on first use). */
const LOG_NOTHING = 0 as logLevel;

export function kafkaClientConfig(config: ApacheKafkaConfig, timeoutMs: number): KafkaConfig {
  const { broker } = config;
  const out: KafkaConfig = {
    clientId: KAFKA_CLIENT_ID,
    brokers: [...config.bootstrapServers],
    connectionTimeout: timeoutMs,
    authenticationTimeout: timeoutMs,
    requestTimeout: timeoutMs,
    enforceRequestTimeout: true,
    // kafkajs rotates to another bootstrap server only by retrying, so one retry per extra server (a dead first
    // server must not hide a live second one), with short pauses: the adapter bounds the whole call anyway.
    retry: { retries: Math.min(config.bootstrapServers.length - 1, MAX_RETRIES), initialRetryTime: 100, maxRetryTime: 500 },
    // kafkajs logs connection errors and SASL state; nothing of a request's credentials may reach a log.
    logLevel: LOG_NOTHING,
  };
  const ssl = brokerTls(broker);
  if (ssl) out.ssl = ssl;
  const sasl = brokerSasl(broker);
  if (sasl) out.sasl = sasl;
  return out;
}

/** Whether the broker connection is TLS: always for MTLS; for SASL unless SASL_PLAINTEXT was asked for. */
export function brokerUsesTls(broker: KafkaBrokerConfig): boolean {
  // A SASL config without a security protocol is taken as SASL_SSL: never send a password in clear unasked.
  return broker.protocol === 'MTLS' || broker.securityProtocol !== 'SASL_PLAINTEXT';
}

function brokerTls(broker: KafkaBrokerConfig): ConnectionOptions | undefined {
  if (!brokerUsesTls(broker)) return undefined;
  const ssl: ConnectionOptions = {};
  if (broker.protocol === 'MTLS') {
    ssl.cert = broker.cert;
    ssl.key = broker.privateKey;
  }
  if (broker.truststore) ssl.ca = broker.truststore;
  ssl.rejectUnauthorized = broker.caValidation;
  return ssl;
}

function brokerSasl(broker: KafkaBrokerConfig): SASLOptions | undefined {
  const username = broker.username ?? '';
  const password = broker.password ?? '';
  switch (broker.protocol) {
    case 'MTLS':
      return undefined;
    case 'SASL/PLAIN':
      return { mechanism: 'plain', username, password };
    case 'SASL/SCRAM-SHA-256':
      return { mechanism: 'scram-sha-256', username, password };
    case 'SASL/SCRAM-SHA-512':
      return { mechanism: 'scram-sha-512', username, password };
  }
}

/** getJson options for every call to the registry: Basic-Auth header, client certificate, truststore. */
export function registryHttpOptions(registry: RegistryConfig, timeoutMs: number): HttpOptions {
  const options: HttpOptions = { label: 'APACHE_KAFKA', timeoutMs };
  if (registry.protocol === 'Basic-Auth') {
    const token = Buffer.from(`${registry.username ?? ''}:${registry.password ?? ''}`, 'utf8').toString('base64');
    options.headers = { authorization: `Basic ${token}` };
  }
  const tls = registryTls(registry);
  if (tls) options.tls = tls;
  return options;
}

/**
 * Undefined when the defaults do (system CAs, validation on, no client certificate): getJson then keeps using the
 * shared keep-alive pool instead of a one-off TLS agent per call.
 */
function registryTls(registry: RegistryConfig): HttpTls | undefined {
  const tls: HttpTls = {};
  if (registry.truststore) tls.ca = registry.truststore;
  if (registry.protocol === 'MTLS') {
    tls.cert = registry.cert;
    tls.key = registry.privateKey;
  }
  if (Object.keys(tls).length === 0 && registry.caValidation) return undefined;
  tls.rejectUnauthorized = registry.caValidation;
  return tls;
}
