/** The CONFLUENT_CLOUD adapter (docs/contract.md §10, provider C) against a loopback fake of the Confluent Cloud REST API. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { confluentCloudAdapter } from '../../providers/confluent-cloud';
import { ProviderRejectedError, ProviderUnavailableError, ProviderUnsupportedError, type ConfluentCloudConfig } from '../../providers/types';
import { startFakeConfluentCloud, type FakeConfluentCloud } from '../support/fake-confluent-cloud';

const KEY = 'CCKEY7QX2ABCDEF';
const SECRET = 'cc-S3cret/with:colon+plus=';
const BASIC = `Basic ${Buffer.from(`${KEY}:${SECRET}`).toString('base64')}`;

let fake: FakeConfluentCloud;
beforeAll(async () => {
  fake = await startFakeConfluentCloud({
    apiKey: KEY,
    secret: SECRET,
    // two per page: three environments and env-a's three clusters each span two pages
    maxPageSize: 2,
    // an absolute link to a host that must never be called (the real API links to https://api.confluent.cloud)
    nextBase: 'http://127.0.0.1:9',
    environments: [
      {
        id: 'env-a',
        kafkaClusters: [
          { id: 'lkc-a1', bootstrap: 'SASL_SSL://pkc-a1.eu-west-1.aws.confluent.cloud:9092' },
          { id: 'lkc-a2', bootstrap: 'SASL_SSL://pkc-a2.eu-west-1.aws.confluent.cloud:9092' },
          { id: 'lkc-a3', bootstrap: 'lkc-a3-00000.eu-west-1.aws.glb.confluent.cloud:9092' },
        ],
        schemaRegistries: [{ id: 'lsrc-a', httpEndpoint: 'https://psrc-a.eu-west-1.aws.confluent.cloud' }],
      },
      { id: 'env-b', kafkaClusters: [{ id: 'lkc-b1', bootstrap: 'SASL_SSL://pkc-b1.us-east-1.aws.confluent.cloud:9092' }] },
      { id: 'env-c', schemaRegistries: [{ id: 'lsrc-c', httpEndpoint: 'https://psrc-c.us-east-1.aws.confluent.cloud' }] },
    ],
  });
});
afterAll(async () => { await fake.close(); });
afterEach(() => { fake.fail(null); fake.requests.length = 0; });

const adapter = (over: Partial<ConfluentCloudConfig> = {}, timeoutMs = 2000) =>
  confluentCloudAdapter({ type: 'CONFLUENT_CLOUD', apiKey: KEY, secret: SECRET, ...over }, { aivenApiUrl: 'http://127.0.0.1:9', confluentCloudApiUrl: fake.url, timeoutMs });

async function rejection(promise: Promise<unknown>, kind: new (message: string) => Error, message: string | RegExp): Promise<Error> {
  const err = await promise.then(() => { throw new Error('expected a rejection'); }, (e: unknown) => e as Error);
  expect(err).toBeInstanceOf(kind);
  if (typeof message === 'string') expect(err.message).toBe(message);
  else expect(err.message).toMatch(message);
  for (const secret of [SECRET, BASIC, BASIC.slice(6)]) expect(`${err.message} ${err.stack ?? ''}`).not.toContain(secret);
  return err;
}

const registryA = { id: 'lsrc-a', url: 'https://psrc-a.eu-west-1.aws.confluent.cloud' };

describe('validate', () => {
  it('lists every environment with its Kafka clusters, each carrying the environment’s registries', async () => {
    expect(await adapter().validate()).toEqual([
      {
        environmentId: 'env-a',
        services: [
          { kafkaCluster: { id: 'lkc-a1', url: 'SASL_SSL://pkc-a1.eu-west-1.aws.confluent.cloud:9092' }, schemaRegistryClusters: [registryA] },
          { kafkaCluster: { id: 'lkc-a2', url: 'SASL_SSL://pkc-a2.eu-west-1.aws.confluent.cloud:9092' }, schemaRegistryClusters: [registryA] },
          { kafkaCluster: { id: 'lkc-a3', url: 'lkc-a3-00000.eu-west-1.aws.glb.confluent.cloud:9092' }, schemaRegistryClusters: [registryA] },
        ],
      },
      { environmentId: 'env-b', services: [{ kafkaCluster: { id: 'lkc-b1', url: 'SASL_SSL://pkc-b1.us-east-1.aws.confluent.cloud:9092' }, schemaRegistryClusters: [] }] },
      { environmentId: 'env-c', services: [] },
    ]);
  });

  it('sends HTTP Basic key:secret on every call and follows pagination on the configured host', async () => {
    await adapter().validate();
    expect(fake.requests.every((r) => r.method === 'GET' && r.authorization === BASIC)).toBe(true);
    const token = (n: number) => Buffer.from(String(n)).toString('base64url');
    expect(fake.requests.map((r) => r.path).sort()).toEqual([
      '/cmk/v2/clusters?environment=env-a&page_size=100',
      `/cmk/v2/clusters?environment=env-a&page_size=100&page_token=${token(2)}`,
      '/cmk/v2/clusters?environment=env-b&page_size=100',
      '/cmk/v2/clusters?environment=env-c&page_size=100',
      '/org/v2/environments?page_size=100',
      `/org/v2/environments?page_size=100&page_token=${token(2)}`,
      '/srcm/v2/clusters?environment=env-a&page_size=100',
      '/srcm/v2/clusters?environment=env-b&page_size=100',
      '/srcm/v2/clusters?environment=env-c&page_size=100',
    ]);
  });

  it('rejects a wrong key or secret (401) and a key without permission (403)', async () => {
    await rejection(adapter({ secret: 'wrong' }).validate(), ProviderRejectedError, 'CONFLUENT_CLOUD: the API key or secret is not valid (401)');
    await rejection(adapter({ apiKey: 'OTHERKEY' }).validate(), ProviderRejectedError, 'CONFLUENT_CLOUD: the API key or secret is not valid (401)');
    fake.fail(403);
    await rejection(adapter().validate(), ProviderRejectedError, 'CONFLUENT_CLOUD: the API key has no permission to list environments (403)');
    fake.fail(403, /^\/srcm\//);
    await rejection(adapter().validate(), ProviderRejectedError, /^CONFLUENT_CLOUD: the API key has no permission to list the schema registries of environment env-[abc] \(403\)$/);
  });

  it('treats a 404 of a cluster list as nothing to list', async () => {
    fake.fail(404, /^\/srcm\//);
    const environments = (await adapter().validate()) ?? [];
    expect(environments.flatMap((e) => e.services.map((s) => s.schemaRegistryClusters))).toEqual([[], [], [], []]);
    expect(environments.map((e) => e.services.length)).toEqual([3, 1, 0]);
  });

  it('reports a 5xx as unavailable', async () => {
    fake.fail(500, /^\/cmk\//);
    await rejection(adapter().validate(), ProviderUnavailableError, /^CONFLUENT_CLOUD: 127\.0\.0\.1:\d+ answered 500$/);
  });

  it('gives up on a provider that never answers within the bound', async () => {
    fake.fail('hang');
    const started = Date.now();
    await rejection(adapter({}, 300).validate(), ProviderUnavailableError, /^CONFLUENT_CLOUD: .* did not answer within 0\.3 s$/);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('discover and topics', () => {
  it('are not supported, and call nothing', async () => {
    await rejection(adapter().discover(), ProviderUnsupportedError, 'discoverResources is not supported for CONFLUENT_CLOUD');
    await rejection(adapter().topics(), ProviderUnsupportedError, 'the topic wizard is not supported for CONFLUENT_CLOUD');
    expect(fake.requests).toEqual([]);
  });
});
