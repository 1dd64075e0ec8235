import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePem, parseProviderConfig, type ParsedProvider } from '../../providers/fields';
import { certificateKit, type CertificateKit, type TestLeaf } from '../support/certificates';
import { HOSTILE_FIELD_VALUES, providerBases } from '../fuzz/provider-fields';

let kit: CertificateKit;
let leaf: TestLeaf;
const b64 = (text: string) => Buffer.from(text).toString('base64');

beforeAll(() => {
  kit = certificateKit();
  leaf = kit.leaf('/CN=client');
});
afterAll(() => kit?.cleanup());

const problems = (p: ParsedProvider) => (p.ok ? [] : p.problems);
const fieldsOf = (p: ParsedProvider) => problems(p).map((x) => x.field).sort();
const config = (p: ParsedProvider) => {
  if (!p.ok) throw new Error(JSON.stringify(p.problems));
  return p.config;
};

describe('provider fields: type and shape', () => {
  it('the type is required and matched like every enum (any case, -, _ and spaces)', () => {
    expect(fieldsOf(parseProviderConfig({}, 'validate'))).toEqual(['Svc-Provider-Type']);
    expect(problems(parseProviderConfig({ 'Svc-Provider-Type': 'KAFKA' }, 'validate'))[0]).toEqual({
      field: 'Svc-Provider-Type', message: 'must be one of AIVEN, APACHE_KAFKA, CONFLUENT_CLOUD', rejectedValue: 'KAFKA',
    });
    for (const spelling of ['apache-kafka', 'Apache Kafka', 'APACHE_KAFKA']) {
      const p = parseProviderConfig({ 'Svc-Provider-Type': spelling, 'Svc-Bootstrap-Server-B': 'k:9092', 'Svc-Broker-Protocol-Type-B': 'sasl/plain', 'Svc-Broker-Security-Protocol-Type-B': 'sasl-plaintext', 'Svc-Broker-Username-B': 'u', 'Svc-Broker-Password-B': 'p' }, 'validate');
      expect(config(p).type).toBe('APACHE_KAFKA');
    }
  });

  it('not an object, unknown names, non-strings and fields of another provider are problems naming the field', () => {
    expect(problems(parseProviderConfig([], 'validate'))).toEqual([{ field: 'body', message: 'must be a JSON object of Svc-* fields' }]);
    expect(problems(parseProviderConfig('x', 'wizard', 'providerConfigs.'))[0].field).toBe('providerConfigs');
    const p = parseProviderConfig({ 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': 7, 'Svc-Auth-Token-A': 't', 'Svc-Projekt-A': 'x', 'Svc-Api-Key-C': 'k' }, 'validate');
    expect(problems(p)).toEqual(expect.arrayContaining([
      { field: 'Svc-Project-Id-A', message: 'must be a string', rejectedValue: 7 },
      { field: 'Svc-Projekt-A', message: 'is not a provider field', rejectedValue: 'x' },
      { field: 'Svc-Api-Key-C', message: 'does not apply to AIVEN', rejectedValue: 'k' },
    ]));
    // Empty leftovers of another provider's form are not an error.
    expect(parseProviderConfig({ 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': 'p', 'Svc-Auth-Token-A': 't', 'Svc-Api-Key-C': '' }, 'validate').ok).toBe(true);
  });

  it('the wizard prefixes the field names with providerConfigs.', () => {
    expect(fieldsOf(parseProviderConfig({ 'Svc-Provider-Type': 'AIVEN' }, 'wizard', 'providerConfigs.'))).toEqual([
      'providerConfigs.Svc-Auth-Token-A', 'providerConfigs.Svc-Project-Id-A', 'providerConfigs.Svc-Service-Name-A',
    ]);
  });

  it('secrets never come back as rejectedValue', () => {
    const p = parseProviderConfig({ 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': 'p', 'Svc-Auth-Token-A': 42, 'Svc-Secret-C': 'hush' }, 'validate');
    for (const x of problems(p)) expect(x).not.toHaveProperty('rejectedValue');
    expect(JSON.stringify(p)).not.toContain('hush');
  });
});

describe('provider fields: AIVEN and CONFLUENT_CLOUD', () => {
  it('AIVEN needs project and token; a service for discovery and the wizard only', () => {
    const base = { 'Svc-Provider-Type': 'aiven', 'Svc-Project-Id-A': ' proj ', 'Svc-Auth-Token-A': 'tok' };
    expect(config(parseProviderConfig(base, 'validate'))).toEqual({ type: 'AIVEN', projectId: 'proj', token: 'tok', serviceName: undefined });
    expect(problems(parseProviderConfig(base, 'discover'))).toEqual([{ field: 'Svc-Service-Name-A', message: 'is required for discoverResources' }]);
    expect(problems(parseProviderConfig(base, 'wizard'))).toEqual([{ field: 'Svc-Service-Name-A', message: 'is required for the topic wizard' }]);
    expect(config(parseProviderConfig({ ...base, 'Svc-Service-Name-A': 'kafka-1' }, 'discover'))).toMatchObject({ serviceName: 'kafka-1' });
    expect(fieldsOf(parseProviderConfig({ 'Svc-Provider-Type': 'AIVEN', 'Svc-Auth-Token-A': '  ' }, 'validate'))).toEqual(['Svc-Auth-Token-A', 'Svc-Project-Id-A']);
  });

  it('CONFLUENT_CLOUD needs key and secret', () => {
    const key = 'ABCD1234567890AB';
    const secret = 'cfltT8d8RzkNseTMEDKcjNM1BZTFPHqRn/dQm9q7w6SjzZ12wZfwjaJdipHZtDjw';
    expect(config(parseProviderConfig({ 'Svc-Provider-Type': 'Confluent Cloud', 'Svc-Api-Key-C': key, 'Svc-Secret-C': secret }, 'validate'))).toEqual({ type: 'CONFLUENT_CLOUD', apiKey: key, secret });
    expect(fieldsOf(parseProviderConfig({ 'Svc-Provider-Type': 'CONFLUENT_CLOUD' }, 'validate'))).toEqual(['Svc-Api-Key-C', 'Svc-Secret-C']);
  });
});

describe('provider fields: APACHE_KAFKA', () => {
  const sasl = {
    'Svc-Provider-Type': 'APACHE_KAFKA', 'Svc-Bootstrap-Server-B': 'b1:9092, b2:9093', 'Svc-Broker-Protocol-Type-B': 'SASL/SCRAM-SHA-512',
    'Svc-Broker-Security-Protocol-Type-B': 'SASL_SSL', 'Svc-Broker-Username-B': 'user', 'Svc-Broker-Password-B': 'pw',
  };

  it('SASL: bootstrap list, mechanism, security protocol and the user; CA validation defaults to the system CAs', () => {
    expect(config(parseProviderConfig(sasl, 'validate'))).toEqual({
      type: 'APACHE_KAFKA', bootstrapServers: ['b1:9092', 'b2:9093'], registry: undefined,
      broker: { protocol: 'SASL/SCRAM-SHA-512', securityProtocol: 'SASL_SSL', username: 'user', password: 'pw', caValidation: true, truststore: undefined },
    });
    const { 'Svc-Broker-Username-B': _u, 'Svc-Broker-Security-Protocol-Type-B': _s, ...missing } = sasl;
    expect(fieldsOf(parseProviderConfig(missing, 'validate'))).toEqual(['Svc-Broker-Security-Protocol-Type-B', 'Svc-Broker-Username-B']);
  });

  it('bootstrap servers must be host:port', () => {
    for (const bad of ['kafka', 'kafka:0', 'kafka:70000', 'a:1,,b', 'http://k:9092', ' , ']) {
      const p = parseProviderConfig({ ...sasl, 'Svc-Bootstrap-Server-B': bad }, 'validate');
      expect(fieldsOf(p), bad).toEqual(['Svc-Bootstrap-Server-B']);
    }
    expect(config(parseProviderConfig({ ...sasl, 'Svc-Bootstrap-Server-B': '[::1]:9092,10.0.0.1:9093' }, 'validate'))).toMatchObject({ bootstrapServers: ['[::1]:9092', '10.0.0.1:9093'] });
  });

  it('CA validation "true" needs the truststore; "false" accepts any certificate; anything else is a problem', () => {
    expect(problems(parseProviderConfig({ ...sasl, 'Svc-Broker-CA-Validation-B': 'true' }, 'validate'))).toEqual([
      { field: 'Svc-Broker-Truststore-B', message: 'is required when Svc-Broker-CA-Validation-B is "true"' },
    ]);
    const trusted = config(parseProviderConfig({ ...sasl, 'Svc-Broker-CA-Validation-B': 'TRUE', 'Svc-Broker-Truststore-B': b64(kit.ca.cert) }, 'validate'));
    expect(trusted).toMatchObject({ broker: { caValidation: true, truststore: kit.ca.cert.trim() } });
    expect(config(parseProviderConfig({ ...sasl, 'Svc-Broker-CA-Validation-B': 'false' }, 'validate'))).toMatchObject({ broker: { caValidation: false } });
    expect(problems(parseProviderConfig({ ...sasl, 'Svc-Broker-CA-Validation-B': 'yes' }, 'validate'))).toEqual([
      { field: 'Svc-Broker-CA-Validation-B', message: 'must be "true" or "false"', rejectedValue: 'yes' },
    ]);
  });

  it('MTLS: certificate and key as Base64 PEM (or PEM), parsed and matching each other', () => {
    const mtls = { 'Svc-Provider-Type': 'APACHE_KAFKA', 'Svc-Bootstrap-Server-B': 'k:9093', 'Svc-Broker-Protocol-Type-B': 'mTLS', 'Svc-Broker-Cert-B': b64(leaf.cert), 'Svc-Broker-Private-Key-B': b64(leaf.key) };
    expect(config(parseProviderConfig(mtls, 'validate'))).toMatchObject({ broker: { protocol: 'MTLS', cert: leaf.cert.trim(), privateKey: leaf.key.trim(), caValidation: true } });
    expect(config(parseProviderConfig({ ...mtls, 'Svc-Broker-Cert-B': leaf.cert }, 'validate'))).toMatchObject({ broker: { cert: leaf.cert.trim() } });
    expect(fieldsOf(parseProviderConfig({ ...mtls, 'Svc-Broker-Cert-B': undefined, 'Svc-Broker-Private-Key-B': undefined }, 'validate'))).toEqual(['Svc-Broker-Cert-B', 'Svc-Broker-Private-Key-B']);
    expect(problems(parseProviderConfig({ ...mtls, 'Svc-Broker-Cert-B': 'not base64!' }, 'validate'))).toEqual([
      { field: 'Svc-Broker-Cert-B', message: 'must be Base64 of PEM text (-----BEGIN …)', rejectedValue: 'not base64!' },
    ]);
    expect(problems(parseProviderConfig({ ...mtls, 'Svc-Broker-Cert-B': b64('plain words') }, 'validate'))[0].message).toBe('must be Base64 of PEM text (-----BEGIN …)');
    expect(problems(parseProviderConfig({ ...mtls, 'Svc-Broker-Cert-B': b64('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----') }, 'validate'))[0].message).toBe('holds a certificate that cannot be parsed');
    expect(problems(parseProviderConfig({ ...mtls, 'Svc-Broker-Cert-B': b64(leaf.key) }, 'validate'))[0].message).toMatch(/at least one PEM certificate/);
    const bad = problems(parseProviderConfig({ ...mtls, 'Svc-Broker-Private-Key-B': b64('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----') }, 'validate'));
    expect(bad).toEqual([{ field: 'Svc-Broker-Private-Key-B', message: 'must hold an unencrypted PEM private key that can be parsed' }]);
    expect(problems(parseProviderConfig({ ...mtls, 'Svc-Broker-Private-Key-B': b64(kit.newKey()) }, 'validate'))).toEqual([
      { field: 'Svc-Broker-Private-Key-B', message: 'is not the key of Svc-Broker-Cert-B' },
    ]);
  });

  it('the schema registry: URL, protocol (default No-Auth), Basic-Auth user, MTLS certificate; its fields need the URL', () => {
    expect(config(parseProviderConfig({ ...sasl, 'Svc-Sr-Url-B': 'https://sr:8081/' }, 'validate'))).toMatchObject({ registry: { url: 'https://sr:8081', protocol: 'No-Auth', caValidation: true } });
    expect(problems(parseProviderConfig({ ...sasl, 'Svc-Sr-Url-B': 'https://sr', 'Svc-Sr-Protocol-Type-B': 'basic-auth' }, 'validate'))).toEqual([
      { field: 'Svc-Sr-Username-B', message: 'is required with Basic-Auth' }, { field: 'Svc-Sr-Password-B', message: 'is required with Basic-Auth' },
    ]);
    expect(config(parseProviderConfig({ ...sasl, 'Svc-Sr-Url-B': 'http://sr', 'Svc-Sr-Protocol-Type-B': 'Basic-Auth', 'Svc-Sr-Username-B': 'su', 'Svc-Sr-Password-B': 'sp' }, 'validate')))
      .toMatchObject({ registry: { protocol: 'Basic-Auth', username: 'su', password: 'sp' } });
    expect(fieldsOf(parseProviderConfig({ ...sasl, 'Svc-Sr-Url-B': 'ftp://sr' }, 'validate'))).toEqual(['Svc-Sr-Url-B']);
    expect(fieldsOf(parseProviderConfig({ ...sasl, 'Svc-Sr-Url-B': 'https://u:p@sr' }, 'validate'))).toEqual(['Svc-Sr-Url-B']);
    expect(fieldsOf(parseProviderConfig({ ...sasl, 'Svc-Sr-Url-B': 'https://sr', 'Svc-Sr-Protocol-Type-B': 'MTLS' }, 'validate'))).toEqual(['Svc-Sr-Cert-B', 'Svc-Sr-Private-Key-B']);
    expect(fieldsOf(parseProviderConfig({ ...sasl, 'Svc-Sr-Url-B': 'http://sr', 'Svc-Sr-Protocol-Type-B': 'MTLS', 'Svc-Sr-Cert-B': b64(leaf.cert), 'Svc-Sr-Private-Key-B': b64(leaf.key) }, 'validate'))).toEqual(['Svc-Sr-Url-B']);
    expect(config(parseProviderConfig({ ...sasl, 'Svc-Sr-Url-B': 'https://sr', 'Svc-Sr-Protocol-Type-B': 'MTLS', 'Svc-Sr-Cert-B': b64(leaf.cert), 'Svc-Sr-Private-Key-B': b64(leaf.key), 'Svc-Sr-CA-Validation-B': 'true', 'Svc-Sr-Truststore-B': b64(kit.ca.cert) }, 'validate')))
      .toMatchObject({ registry: { protocol: 'MTLS', cert: leaf.cert.trim(), privateKey: leaf.key.trim(), caValidation: true, truststore: kit.ca.cert.trim() } });
    expect(problems(parseProviderConfig({ ...sasl, 'Svc-Sr-Username-B': 'su' }, 'validate'))).toEqual([
      { field: 'Svc-Sr-Username-B', message: 'needs Svc-Sr-Url-B (the schema registry address)', rejectedValue: 'su' },
    ]);
    expect(problems(parseProviderConfig({ ...sasl, 'Svc-Sr-Url-B': 'https://sr', 'Svc-Sr-Username-B': 'su' }, 'validate'))).toEqual([
      { field: 'Svc-Sr-Username-B', message: 'does not apply with No-Auth', rejectedValue: 'su' },
    ]);
  });

  it('decodePem: Base64 with line breaks, or PEM as is; nothing else', () => {
    const wrapped = b64(leaf.cert).replace(/(.{64})/g, '$1\n');
    expect(decodePem(wrapped)).toBe(leaf.cert.trim());
    expect(decodePem(leaf.cert)).toBe(leaf.cert.trim());
    expect(decodePem('abc')).toBeUndefined();
    expect(decodePem(b64('hello'))).toBeUndefined();
  });
});

describe('provider fields: one problem per fault', () => {
  it('a non-string truststore is reported once', () => {
    const p = parseProviderConfig({ 'Svc-Provider-Type': 'APACHE_KAFKA', 'Svc-Bootstrap-Server-B': 'k:1', 'Svc-Broker-Protocol-Type-B': 'MTLS', 'Svc-Broker-Cert-B': b64(leaf.cert), 'Svc-Broker-Private-Key-B': b64(leaf.key), 'Svc-Broker-Truststore-B': 5 }, 'validate');
    expect(problems(p)).toEqual([{ field: 'Svc-Broker-Truststore-B', message: 'must be a string', rejectedValue: 5 }]);
  });
});

describe('provider fields: each field has its provider\'s shape and length', () => {
  it('every valid set of the fuzz fixtures is accepted', () => {
    for (const [name, fields] of Object.entries(providerBases(kit))) expect(parseProviderConfig(fields, 'wizard').ok, name).toBe(true);
  });

  it.each(Object.entries(HOSTILE_FIELD_VALUES))('%s: every hostile value is refused naming the field', (field, values) => {
    const bases = providerBases(kit);
    const base = Object.values(bases).find((b) => field in b)!;
    for (const value of values) {
      const p = parseProviderConfig({ ...base, [field]: value }, 'wizard', 'providerConfigs.');
      expect(fieldsOf(p), `${field} = ${JSON.stringify(value.slice(0, 40))}`).toContain(`providerConfigs.${field}`);
      if (/Token|Secret|Password|Private-Key/.test(field)) expect(JSON.stringify(problems(p))).not.toContain(value);
    }
  });

  it('the bounds of the shapes themselves are accepted', () => {
    const aiven = { 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': `A_${'p'.repeat(61)}`, 'Svc-Auth-Token-A': 'T'.repeat(1024), 'Svc-Service-Name-A': `k${'-9'.repeat(31)}` };
    expect(config(parseProviderConfig(aiven, 'wizard'))).toMatchObject({ projectId: aiven['Svc-Project-Id-A'], serviceName: aiven['Svc-Service-Name-A'] });
    const servers = Array.from({ length: 50 }, (_, i) => `${'h'.repeat(60)}${i}.example:9092`).join(',');
    expect(config(parseProviderConfig({ 'Svc-Provider-Type': 'APACHE_KAFKA', 'Svc-Bootstrap-Server-B': servers, 'Svc-Broker-Protocol-Type-B': 'SASL/PLAIN', 'Svc-Broker-Security-Protocol-Type-B': 'SASL_SSL', 'Svc-Broker-Username-B': 'ü'.repeat(255), 'Svc-Broker-Password-B': 'p'.repeat(1024) }, 'validate')))
      .toMatchObject({ bootstrapServers: expect.arrayContaining([`${'h'.repeat(60)}49.example:9092`]) });
  });
});
