/**
 * Provider B's fields → kafkajs and registry client options, exactly. SASL and broker TLS cannot be exercised
 * against librdkafka's mock cluster (it speaks neither), so this is where those combinations are pinned down —
 * together with what the mock cannot answer either: DescribeAcls / DescribeConfigs replies and broker refusals.
 */
import { describe, expect, it } from 'vitest';
import { logLevel, type DescribeAclResponse, type DescribeConfigResponse } from 'kafkajs';
import { aclBindings, aclsOf, isUnsupported, kafkaFailure, principalsOf, topicConfigsOf } from '../../providers/apache-kafka';
import { KAFKA_CLIENT_ID, kafkaClientConfig, registryHttpOptions } from '../../providers/kafka-client-config';
import { ProviderRejectedError, ProviderUnavailableError, type ApacheKafkaConfig, type KafkaBrokerConfig, type RegistryConfig } from '../../providers/types';

const CA = '-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n';
const CERT = '-----BEGIN CERTIFICATE-----\nLEAF\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nKEY\n-----END PRIVATE KEY-----\n';

const cfg = (broker: KafkaBrokerConfig, bootstrapServers = ['kafka-1:9093']): ApacheKafkaConfig =>
  ({ type: 'APACHE_KAFKA', bootstrapServers, broker });

const base = {
  clientId: KAFKA_CLIENT_ID,
  brokers: ['kafka-1:9093'],
  connectionTimeout: 10_000,
  authenticationTimeout: 10_000,
  requestTimeout: 10_000,
  enforceRequestTimeout: true,
  retry: { retries: 0, initialRetryTime: 100, maxRetryTime: 500 },
  logLevel: logLevel.NOTHING,
};

describe('kafkaClientConfig', () => {
  const mechanisms = [
    ['SASL/PLAIN', 'plain'],
    ['SASL/SCRAM-SHA-256', 'scram-sha-256'],
    ['SASL/SCRAM-SHA-512', 'scram-sha-512'],
  ] as const;

  for (const [protocol, mechanism] of mechanisms) {
    it(`${protocol} over SASL_PLAINTEXT: ${mechanism}, no TLS`, () => {
      const out = kafkaClientConfig(cfg({ protocol, securityProtocol: 'SASL_PLAINTEXT', username: 'alice', password: 's3cret', caValidation: false }), 10_000);
      expect(out).toStrictEqual({ ...base, sasl: { mechanism, username: 'alice', password: 's3cret' } });
    });

    it(`${protocol} over SASL_SSL with a truststore and CA validation`, () => {
      const out = kafkaClientConfig(cfg({ protocol, securityProtocol: 'SASL_SSL', username: 'alice', password: 's3cret', caValidation: true, truststore: CA }), 10_000);
      expect(out).toStrictEqual({ ...base, ssl: { ca: CA, rejectUnauthorized: true }, sasl: { mechanism, username: 'alice', password: 's3cret' } });
    });
  }

  it('SASL_SSL without a truststore: system CAs, validation as asked', () => {
    const on = kafkaClientConfig(cfg({ protocol: 'SASL/PLAIN', securityProtocol: 'SASL_SSL', username: 'u', password: 'p', caValidation: true }), 10_000);
    expect(on.ssl).toStrictEqual({ rejectUnauthorized: true });
    const off = kafkaClientConfig(cfg({ protocol: 'SASL/PLAIN', securityProtocol: 'SASL_SSL', username: 'u', password: 'p', caValidation: false }), 10_000);
    expect(off.ssl).toStrictEqual({ rejectUnauthorized: false });
  });

  it('SASL_SSL with a truststore but no CA validation keeps the CA and accepts any certificate', () => {
    const out = kafkaClientConfig(cfg({ protocol: 'SASL/SCRAM-SHA-512', securityProtocol: 'SASL_SSL', username: 'u', password: 'p', caValidation: false, truststore: CA }), 10_000);
    expect(out.ssl).toStrictEqual({ ca: CA, rejectUnauthorized: false });
  });

  it('SASL without a security protocol defaults to TLS: a password never goes out in clear unasked', () => {
    const out = kafkaClientConfig(cfg({ protocol: 'SASL/PLAIN', username: 'u', password: 'p', caValidation: true }), 10_000);
    expect(out.ssl).toStrictEqual({ rejectUnauthorized: true });
  });

  it('MTLS: client certificate and key, truststore and validation, no SASL', () => {
    const out = kafkaClientConfig(cfg({ protocol: 'MTLS', cert: CERT, privateKey: KEY, truststore: CA, caValidation: true }), 10_000);
    expect(out).toStrictEqual({ ...base, ssl: { cert: CERT, key: KEY, ca: CA, rejectUnauthorized: true } });
  });

  it('MTLS without truststore and without CA validation', () => {
    const out = kafkaClientConfig(cfg({ protocol: 'MTLS', cert: CERT, privateKey: KEY, caValidation: false }), 10_000);
    expect(out).toStrictEqual({ ...base, ssl: { cert: CERT, key: KEY, rejectUnauthorized: false } });
  });

  it('MTLS ignores stray SASL fields', () => {
    const out = kafkaClientConfig(cfg({ protocol: 'MTLS', securityProtocol: 'SASL_PLAINTEXT', username: 'u', password: 'p', cert: CERT, privateKey: KEY, caValidation: true }), 10_000);
    expect(out.sasl).toBeUndefined();
    expect(out.ssl).toStrictEqual({ cert: CERT, key: KEY, rejectUnauthorized: true });
  });

  it('derives every timeout from the bound and retries once per extra bootstrap server, at most twice', () => {
    const broker: KafkaBrokerConfig = { protocol: 'SASL/PLAIN', securityProtocol: 'SASL_PLAINTEXT', username: 'u', password: 'p', caValidation: false };
    const one = kafkaClientConfig(cfg(broker, ['a:9092']), 2_500);
    expect([one.connectionTimeout, one.authenticationTimeout, one.requestTimeout]).toStrictEqual([2_500, 2_500, 2_500]);
    expect(one.retry?.retries).toBe(0);
    expect(kafkaClientConfig(cfg(broker, ['a:9092', 'b:9092']), 2_500).retry?.retries).toBe(1);
    expect(kafkaClientConfig(cfg(broker, ['a:1', 'b:1', 'c:1', 'd:1', 'e:1']), 2_500).retry?.retries).toBe(2);
  });

  it('does not share the caller’s bootstrap array', () => {
    const servers = ['a:9092'];
    const out = kafkaClientConfig(cfg({ protocol: 'MTLS', cert: CERT, privateKey: KEY, caValidation: true }, servers), 1_000);
    expect(out.brokers).toStrictEqual(servers);
    expect(out.brokers).not.toBe(servers);
  });
});

describe('registryHttpOptions', () => {
  const reg = (r: Omit<RegistryConfig, 'url'>): RegistryConfig => ({ url: 'https://registry:8081', ...r });

  it('No-Auth with validation against the system CAs: no header, no TLS agent', () => {
    expect(registryHttpOptions(reg({ protocol: 'No-Auth', caValidation: true }), 10_000))
      .toStrictEqual({ label: 'APACHE_KAFKA', timeoutMs: 10_000 });
  });

  it('Basic-Auth: the Authorization header is Basic base64(username:password)', () => {
    const out = registryHttpOptions(reg({ protocol: 'Basic-Auth', username: 'sr-user', password: 'pä:ss', caValidation: true }), 7_000);
    expect(out).toStrictEqual({
      label: 'APACHE_KAFKA',
      timeoutMs: 7_000,
      headers: { authorization: `Basic ${Buffer.from('sr-user:pä:ss', 'utf8').toString('base64')}` },
    });
  });

  it('Basic-Auth with a truststore', () => {
    const out = registryHttpOptions(reg({ protocol: 'Basic-Auth', username: 'u', password: 'p', caValidation: true, truststore: CA }), 10_000);
    expect(out.tls).toStrictEqual({ ca: CA, rejectUnauthorized: true });
    expect(out.headers?.authorization).toMatch(/^Basic /);
  });

  it('MTLS: client certificate and key with the truststore, no header', () => {
    const out = registryHttpOptions(reg({ protocol: 'MTLS', cert: CERT, privateKey: KEY, truststore: CA, caValidation: true }), 10_000);
    expect(out).toStrictEqual({ label: 'APACHE_KAFKA', timeoutMs: 10_000, tls: { ca: CA, cert: CERT, key: KEY, rejectUnauthorized: true } });
  });

  it('no CA validation: any certificate is accepted', () => {
    expect(registryHttpOptions(reg({ protocol: 'No-Auth', caValidation: false }), 10_000).tls).toStrictEqual({ rejectUnauthorized: false });
    expect(registryHttpOptions(reg({ protocol: 'MTLS', cert: CERT, privateKey: KEY, caValidation: false }), 10_000).tls)
      .toStrictEqual({ cert: CERT, key: KEY, rejectUnauthorized: false });
  });

  it('ignores credentials that do not belong to the protocol', () => {
    const out = registryHttpOptions(reg({ protocol: 'No-Auth', username: 'u', password: 'p', cert: CERT, privateKey: KEY, caValidation: true }), 10_000);
    expect(out).toStrictEqual({ label: 'APACHE_KAFKA', timeoutMs: 10_000 });
  });
});

// Kafka protocol numbers, as a broker sends them.
const TOPIC = 2, LITERAL = 3, PREFIXED = 4;
const ALL = 2, READ = 3, WRITE = 4, DESCRIBE = 8;
const DENY = 2, ALLOW = 3;

describe('DescribeAcls reply → topic ACLs', () => {
  const acl = (principal: string, operation: number, permissionType = ALLOW) => ({ principal, host: '*', operation, permissionType });
  const reply = {
    throttleTime: 0, errorCode: 0,
    resources: [
      { resourceType: TOPIC, resourceName: 'orders', resourcePatternType: LITERAL, acls: [acl('User:reader', READ), acl('User:writer', WRITE), acl('User:blocked', READ, DENY), acl('User:ops', DESCRIBE)] },
      { resourceType: TOPIC, resourceName: 'pay', resourcePatternType: PREFIXED, acls: [acl('User:payer', ALL)] },
      { resourceType: TOPIC, resourceName: '*', resourcePatternType: LITERAL, acls: [acl('User:auditor', READ), acl('User:*', READ)] },
    ],
  } as unknown as DescribeAclResponse;
  const bindings = aclBindings(reply);

  it('keeps READ and WRITE, splits ALL, drops DENY, other operations and the wildcard principal', () => {
    expect(aclsOf(bindings, 'orders')).toStrictEqual([
      { principal: 'User:reader', operation: 'READ', patternType: 'LITERAL' },
      { principal: 'User:writer', operation: 'WRITE', patternType: 'LITERAL' },
      { principal: 'User:auditor', operation: 'READ', patternType: 'LITERAL' },
    ]);
    expect(aclsOf(bindings, 'payments')).toStrictEqual([
      { principal: 'User:payer', operation: 'READ', patternType: 'PREFIXED' },
      { principal: 'User:payer', operation: 'WRITE', patternType: 'PREFIXED' },
      { principal: 'User:auditor', operation: 'READ', patternType: 'LITERAL' },
    ]);
  });

  it('counts the principals with a grant on at least one of the topics', () => {
    expect([...principalsOf(bindings, ['orders', 'payments'])].sort()).toStrictEqual(['User:auditor', 'User:payer', 'User:reader', 'User:writer']);
    expect([...principalsOf(bindings.filter((b) => b.resourceName !== '*'), ['other'])]).toStrictEqual([]);
  });
});

describe('DescribeConfigs reply → topic configuration', () => {
  const entry = (configName: string, configValue: string | null, configSource: number, isSensitive = false) =>
    ({ configName, configValue, configSource, isDefault: configSource === 5, readOnly: false, isSensitive, configSynonyms: [] });

  it('effective retention and cleanup policy; only values set on the topic in configs', () => {
    const reply = {
      throttleTime: 0,
      resources: [{
        errorCode: 0, errorMessage: '', resourceType: TOPIC, resourceName: 'orders',
        configEntries: [
          entry('retention.ms', '604800000', 5),
          entry('cleanup.policy', 'compact', 1),
          entry('min.insync.replicas', '2', 1),
          entry('segment.bytes', '1073741824', 4),
          entry('sasl.jaas.config', null, 1, true),
        ],
      }],
    } as unknown as DescribeConfigResponse;
    expect(topicConfigsOf(reply).get('orders')).toStrictEqual({ retentionMs: 604800000, cleanupPolicy: 'compact', configs: { 'min.insync.replicas': '2' } });
  });
});

describe('kafkaJS failures → provider errors', () => {
  const c: ApacheKafkaConfig = { type: 'APACHE_KAFKA', bootstrapServers: ['k1:9093', 'k2:9093'], broker: { protocol: 'SASL/SCRAM-SHA-512', securityProtocol: 'SASL_SSL', username: 'alice', password: 'TopSecret!', caValidation: true } };
  const kerr = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(`${name} TopSecret!`), { name, ...extra });
  const retried = (cause: Error) => Object.assign(new Error(cause.message), { name: 'KafkaJSNumberOfRetriesExceeded', cause });

  it('SASL refusals, also behind the retry wrapper → rejected, without the password', () => {
    for (const e of [kerr('KafkaJSSASLAuthenticationError'), retried(kerr('KafkaJSProtocolError', { type: 'SASL_AUTHENTICATION_FAILED' })), kerr('KafkaJSProtocolError', { type: 'UNSUPPORTED_SASL_MECHANISM' })]) {
      const out = kafkaFailure(e, c);
      expect(out).toBeInstanceOf(ProviderRejectedError);
      expect(out.message).toBe('APACHE_KAFKA: the brokers refused the SASL/SCRAM-SHA-512 username or password');
    }
  });

  it('certificate problems → rejected naming the TLS code', () => {
    for (const code of ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_SSL_WRONG_VERSION_NUMBER', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID']) {
      const out = kafkaFailure(retried(kerr('KafkaJSConnectionError', { code })), c);
      expect(out).toBeInstanceOf(ProviderRejectedError);
      expect(out.message).toBe(`APACHE_KAFKA: TLS handshake with the brokers failed (${code}): check the certificate, key and truststore`);
    }
  });

  it('refused, unresolvable, timed out, closed → unavailable', () => {
    expect(kafkaFailure(retried(kerr('KafkaJSConnectionError', { code: 'ECONNREFUSED' })), c).message).toBe('APACHE_KAFKA: k1:9093, k2:9093 cannot be reached (connection refused)');
    expect(kafkaFailure(kerr('KafkaJSConnectionError', { code: 'ENOTFOUND' }), c)).toBeInstanceOf(ProviderUnavailableError);
    expect(kafkaFailure(retried(kerr('KafkaJSRequestTimeoutError')), c).message).toBe('APACHE_KAFKA: k1:9093, k2:9093 did not answer in time');
    expect(kafkaFailure(kerr('KafkaJSConnectionError'), c).message).toBe('APACHE_KAFKA: k1:9093, k2:9093 closed the connection (does that listener speak TLS?)');
    const other = kafkaFailure(kerr('KafkaJSProtocolError', { type: 'LEADER_NOT_AVAILABLE', code: 5 }), c);
    expect(other).toBeInstanceOf(ProviderUnavailableError);
    expect(other.message).toBe('APACHE_KAFKA: the brokers failed (LEADER_NOT_AVAILABLE)');
    expect(other.message).not.toContain('TopSecret!');
  });

  it('unsupported ACL / config calls are told apart from failures', () => {
    expect(isUnsupported(kerr('KafkaJSProtocolError', { type: 'SECURITY_DISABLED' }))).toBe(true);
    expect(isUnsupported(kerr('KafkaJSServerDoesNotSupportApiKey', { apiName: 'DescribeAcls' }))).toBe(true);
    expect(isUnsupported(retried(kerr('KafkaJSProtocolError', { type: 'CLUSTER_AUTHORIZATION_FAILED' })))).toBe(true);
    expect(isUnsupported(kerr('KafkaJSConnectionError', { code: 'ECONNRESET' }))).toBe(false);
    expect(isUnsupported(kerr('KafkaJSRequestTimeoutError'))).toBe(false);
  });
});
