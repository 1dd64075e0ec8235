/**
 * Provider B against librdkafka's mock cluster (the real Kafka protocol over loopback) and a loopback registry.
 *
 * Not covered here, because the mock cluster has neither: SASL authentication and broker TLS. Their kafkajs
 * configuration is pinned in test/unit/provider-kafka-config.test.ts; here only the refusal a SASL client meets on a
 * listener without SASL is checked. The mock also implements neither DescribeAcls nor DescribeConfigs, so ACLs and
 * topic configs are always the "unsupported" answer (0 applications, no ACLs, unknown retention) in this file.
 * Every protocol of the contract is SASL or TLS, so the adapter runs here with both stripped from its kafkajs
 * configuration (its test hook); one test uses the real configuration to see the SASL refusal.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apacheKafkaAdapter } from '../../providers/apache-kafka';
import { kafkaClientConfig } from '../../providers/kafka-client-config';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  type ApacheKafkaConfig,
  type ProviderAdapter,
  type ProviderSettings,
  type RegistryConfig,
} from '../../providers/types';
import { certificateKit, type CertificateKit } from '../support/certificates';
import { loopbackServerCertificate, startFakeRegistry, type FakeRegistry } from '../support/fake-registry';
import { startMockKafka, type MockKafka } from '../support/mock-kafka';

// Three brokers, and topics replicated on all three: the replication factor the import reads back is the one asked for.
const BROKERS = 3;
const KAFKA_PASSWORD = 'kafka-pw-123';
const AVRO = '{"type":"record","name":"Order","fields":[{"name":"id","type":"string"}]}';
const AVRO_V2 = AVRO.replace('"id"', '"orderId"');
const PROTO = 'syntax = "proto3"; message Payment { string id = 1; }';

const settings = (timeoutMs: number): ProviderSettings => ({ aivenApiUrl: 'http://unused', confluentCloudApiUrl: 'http://unused', timeoutMs });

const config = (bootstrapServers: string[], registry?: RegistryConfig): ApacheKafkaConfig => ({
  type: 'APACHE_KAFKA',
  bootstrapServers,
  broker: { protocol: 'SASL/PLAIN', securityProtocol: 'SASL_PLAINTEXT', username: 'alice', password: KAFKA_PASSWORD, caValidation: false },
  ...(registry ? { registry } : {}),
});

/** The adapter as the server builds it, but talking plaintext without SASL: the only thing the mock cluster speaks. */
const adapter = (c: ApacheKafkaConfig, timeoutMs = 5_000): ProviderAdapter =>
  apacheKafkaAdapter(c, settings(timeoutMs), {
    kafkaConfig: (cfg, t) => {
      const { sasl: _sasl, ssl: _ssl, ...plain } = kafkaClientConfig(cfg, t);
      return plain;
    },
  });

const noAuth = (url: string): RegistryConfig => ({ url, protocol: 'No-Auth', caValidation: true });

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a failure');
}

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let kafka: MockKafka;
let registry: FakeRegistry;

beforeAll(async () => {
  kafka = await startMockKafka(BROKERS, [
    { name: 'orders', partitions: 3, replication: 3 },
    { name: 'payments', partitions: 1, replication: 3 },
    { name: '_internal', partitions: 2, replication: 3 },
  ]);
  registry = await startFakeRegistry({
    subjects: {
      'orders-value': [{ version: 1, schema: AVRO }, { version: 2, schema: AVRO_V2 }],
      'orders-key': [{ version: 1, schema: '{"type":"string"}', schemaType: 'JSON' }],
      'payments-value': [{ version: 4, schema: PROTO, schemaType: 'PROTOBUF' }],
      'unrelated-value': [{ version: 1, schema: AVRO }],
    },
  });
});

afterAll(async () => {
  await kafka?.stop();
  await registry?.close();
});

describe('against the mock cluster', () => {
  it('validate: connects, describes the cluster, environments null', async () => {
    await expect(adapter(config(kafka.brokers)).validate()).resolves.toBeNull();
  });

  it('validate also lists the registry subjects', async () => {
    const before = registry.requests.length;
    await expect(adapter(config(kafka.brokers, noAuth(registry.url))).validate()).resolves.toBeNull();
    expect(registry.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toStrictEqual(['GET /subjects']);
  });

  it('a dead first bootstrap server does not hide a live second one', async () => {
    const dead = `127.0.0.1:${await closedPort()}`;
    await expect(adapter(config([dead, kafka.brokers[0]!])).validate()).resolves.toBeNull();
  });

  it('discover: topics without `_` ones, ACLs unsupported by the mock → 0, registry subjects', async () => {
    expect(await adapter(config(kafka.brokers, noAuth(registry.url))).discover()).toStrictEqual({ streams: 2, applications: 0, schemas: 4 });
    expect(await adapter(config(kafka.brokers)).discover()).toStrictEqual({ streams: 2, applications: 0, schemas: 0 });
  });

  it('topics: metadata from the cluster, latest key/value schemas from the registry', async () => {
    const topics = await adapter(config(kafka.brokers, noAuth(registry.url))).topics();
    // DescribeConfigs and DescribeAcls are not implemented by the mock: unknown retention and policy, no ACLs.
    expect(topics).toStrictEqual([
      {
        name: 'orders', partitions: 3, replicationFactor: 3, retentionMs: null, cleanupPolicy: null, configs: {},
        keySchema: { subject: 'orders-key', type: 'JSON', version: 1, schema: '{"type":"string"}' },
        valueSchema: { subject: 'orders-value', type: 'AVRO', version: 2, schema: AVRO_V2 },
        acls: [],
      },
      {
        name: 'payments', partitions: 1, replicationFactor: 3, retentionMs: null, cleanupPolicy: null, configs: {},
        keySchema: null,
        valueSchema: { subject: 'payments-value', type: 'PROTOBUF', version: 4, schema: PROTO },
        acls: [],
      },
    ]);
  });

  it('topics without a registry: no schemas, no registry calls', async () => {
    const before = registry.requests.length;
    const topics = await adapter(config(kafka.brokers)).topics();
    expect(topics.map((t) => [t.name, t.keySchema, t.valueSchema])).toStrictEqual([['orders', null, null], ['payments', null, null]]);
    expect(registry.requests.length).toBe(before);
  });

  it('a SASL client on a listener without SASL is refused with a reason, never the password', async () => {
    // The real configuration (no test hook): kafkajs asks for SaslHandshake, which the mock does not offer.
    const err = await failure(apacheKafkaAdapter(config(kafka.brokers), settings(5_000)).validate());
    expect(err).toBeInstanceOf(ProviderRejectedError);
    expect(err.message).toMatch(/^APACHE_KAFKA: .*SASL/);
    expect(err.message).not.toContain(KAFKA_PASSWORD);
  });
});

describe('unreachable brokers', () => {
  it('nothing listening → unavailable, quickly', async () => {
    const started = Date.now();
    const err = await failure(adapter(config([`127.0.0.1:${await closedPort()}`]), 1_500).validate());
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect(err.message).toMatch(/^APACHE_KAFKA: 127\.0\.0\.1:\d+ cannot be reached \(connection refused\)$/);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('a host that does not resolve → unavailable', async () => {
    const err = await failure(adapter(config(['no-such-broker.invalid:9092']), 1_500).discover());
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect(err.message).toMatch(/^APACHE_KAFKA: no-such-broker\.invalid:9092 /);
  });

  it('a listener that never answers → unavailable within the bound', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((s) => sockets.add(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      const err = await failure(adapter(config([`127.0.0.1:${(silent.address() as net.AddressInfo).port}`]), 800).topics());
      expect(err).toBeInstanceOf(ProviderUnavailableError);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe('schema registry', () => {
  it('401 → rejected; 403 → rejected', async () => {
    const r = await startFakeRegistry({ mode: 'unauthorized' });
    try {
      const err = await failure(adapter(config(kafka.brokers, noAuth(r.url))).validate());
      expect(err).toBeInstanceOf(ProviderRejectedError);
      expect(err.message).toBe('APACHE_KAFKA: the schema registry refused the credentials (401)');
      r.mode = 'forbidden';
      const forbidden = await failure(adapter(config(kafka.brokers, noAuth(r.url))).discover());
      expect(forbidden).toBeInstanceOf(ProviderRejectedError);
      expect(forbidden.message).toBe('APACHE_KAFKA: the schema registry refused the credentials (403)');
    } finally {
      await r.close();
    }
  });

  it('5xx and a registry that never answers → unavailable', async () => {
    const r = await startFakeRegistry({ mode: 'error' });
    try {
      expect(await failure(adapter(config(kafka.brokers, noAuth(r.url))).validate())).toBeInstanceOf(ProviderUnavailableError);
      r.mode = 'hang';
      const started = Date.now();
      expect(await failure(adapter(config(kafka.brokers, noAuth(r.url)), 800).validate())).toBeInstanceOf(ProviderUnavailableError);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await r.close();
    }
  });

  it('Basic-Auth: sends the header; a wrong password is refused', async () => {
    const r = await startFakeRegistry({ basicAuth: { username: 'sr-user', password: 'sr-pw' }, subjects: { 'orders-value': [{ version: 1, schema: AVRO }] } });
    try {
      const good: RegistryConfig = { url: r.url, protocol: 'Basic-Auth', username: 'sr-user', password: 'sr-pw', caValidation: true };
      expect(await adapter(config(kafka.brokers, good)).discover()).toStrictEqual({ streams: 2, applications: 0, schemas: 1 });
      expect(r.requests.map((q) => q.authorization)).toStrictEqual([`Basic ${Buffer.from('sr-user:sr-pw').toString('base64')}`]);

      const err = await failure(adapter(config(kafka.brokers, { ...good, password: 'wrong' })).validate());
      expect(err).toBeInstanceOf(ProviderRejectedError);
      expect(err.message).not.toContain('wrong');
    } finally {
      await r.close();
    }
  });

  describe('over TLS', () => {
    let kit: CertificateKit;
    let other: CertificateKit;
    let tlsRegistry: FakeRegistry;
    let client: { cert: string; key: string };

    beforeAll(async () => {
      kit = certificateKit();
      other = certificateKit();
      client = kit.leaf('/O=Test Org/CN=platform-management-service');
      tlsRegistry = await startFakeRegistry({
        tls: { ...loopbackServerCertificate(kit.ca), clientCa: kit.ca.cert },
        subjects: { 'orders-value': [{ version: 3, schema: AVRO }] },
      });
    });

    afterAll(async () => {
      await tlsRegistry?.close();
      kit?.cleanup();
      other?.cleanup();
    });

    const mtls = (o: Partial<RegistryConfig> = {}): RegistryConfig =>
      ({ url: tlsRegistry.url, protocol: 'MTLS', cert: client.cert, privateKey: client.key, truststore: kit.ca.cert, caValidation: true, ...o });

    it('mutual TLS with the CA as truststore: the client certificate reaches the registry', async () => {
      const before = tlsRegistry.requests.length;
      const topics = await adapter(config(kafka.brokers, mtls())).topics();
      expect(topics.find((t) => t.name === 'orders')?.valueSchema).toStrictEqual({ subject: 'orders-value', type: 'AVRO', version: 3, schema: AVRO });
      const seen = tlsRegistry.requests.slice(before);
      expect(seen.map((q) => q.path)).toStrictEqual(['/subjects', '/subjects/orders-value/versions/latest']);
      expect(seen.every((q) => q.clientCertSubject?.includes('CN=platform-management-service'))).toBe(true);
    });

    it('a registry certificate outside the truststore → rejected; without CA validation → accepted', async () => {
      const err = await failure(adapter(config(kafka.brokers, mtls({ truststore: other.ca.cert }))).validate());
      expect(err).toBeInstanceOf(ProviderRejectedError);
      expect(err.message).toMatch(/^APACHE_KAFKA: TLS handshake with 127\.0\.0\.1:\d+ failed/);
      await expect(adapter(config(kafka.brokers, mtls({ truststore: undefined, caValidation: false }))).validate()).resolves.toBeNull();
    });

    it('a client key that does not belong to the certificate → rejected before anything is sent', async () => {
      const before = tlsRegistry.requests.length;
      const err = await failure(adapter(config(kafka.brokers, mtls({ privateKey: kit.newKey() }))).validate());
      expect(err).toBeInstanceOf(ProviderRejectedError);
      expect(err.message).toMatch(/^APACHE_KAFKA: TLS handshake with 127\.0\.0\.1:\d+ failed \(ERR_OSSL_/);
      expect(tlsRegistry.requests.length).toBe(before);
    });

    it('a client certificate the registry does not accept → rejected, naming the certificate', async () => {
      // Issued by another CA than the one the registry asks client certificates of.
      const stranger = other.leaf('/CN=stranger');
      const err = await failure(adapter(config(kafka.brokers, mtls({ cert: stranger.cert, privateKey: stranger.key }))).validate());
      expect(err).toBeInstanceOf(ProviderRejectedError);
      expect(err.message).toMatch(/^APACHE_KAFKA: 127\.0\.0\.1:\d+ closed the connection after the TLS handshake: it does not accept the client certificate$/);
    });
  });
});
