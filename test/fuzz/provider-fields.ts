/**
 * The provider fixtures of the fuzzer: a valid `Svc-*` set per provider (and per broker protocol, so every field
 * applies somewhere), and per field the hostile values an attacker or a careless client sends — far past its
 * length, one past its bound, outside its provider's shape, with header-splitting or control characters — plus
 * random over-long strings drawn from the run's seed. Each is put alone into its valid set and sent to every
 * provider operation; the answer must be 400 in the §7 format naming the field (`providerConfigs.<field>` in the
 * wizard), never a call to the provider (which the fuzz app points at a closed port: 502) and never another 5xx.
 */
import fc from 'fast-check';
import { FIELD_SHAPES } from '../../providers/field-shapes';
import type { CertificateKit } from '../support/certificates';
import { responseProblems } from './invariants';
import type { RawClient, RawRequest, RawResponse } from './raw-client';

type Fields = Record<string, string>;

const b64 = (text: string) => Buffer.from(text).toString('base64');
const KB100 = 'x'.repeat(100 * 1024);

/** Valid field sets; the name says which fields it carries. */
export function providerBases(kit: CertificateKit): Record<string, Fields> {
  const leaf = kit.leaf('/CN=fuzz-client');
  const ca = b64(kit.ca.cert);
  return {
    aiven: { 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': 'acme-streaming', 'Svc-Auth-Token-A': 'fuzz-aiven-token', 'Svc-Service-Name-A': 'kafka-prod' },
    confluent: { 'Svc-Provider-Type': 'CONFLUENT_CLOUD', 'Svc-Api-Key-C': 'ABCD1234567890AB', 'Svc-Secret-C': `cflt${'A1b2'.repeat(15)}` },
    sasl: {
      'Svc-Provider-Type': 'APACHE_KAFKA', 'Svc-Bootstrap-Server-B': 'b1.example:9092,b2.example:9092', 'Svc-Broker-Protocol-Type-B': 'SASL/SCRAM-SHA-512',
      'Svc-Broker-Security-Protocol-Type-B': 'SASL_SSL', 'Svc-Broker-Username-B': 'importer', 'Svc-Broker-Password-B': 'pw',
      'Svc-Broker-CA-Validation-B': 'true', 'Svc-Broker-Truststore-B': ca,
      'Svc-Sr-Url-B': 'https://sr.example:8081', 'Svc-Sr-Protocol-Type-B': 'Basic-Auth', 'Svc-Sr-Username-B': 'sr-user', 'Svc-Sr-Password-B': 'sr-pw',
      'Svc-Sr-CA-Validation-B': 'true', 'Svc-Sr-Truststore-B': ca,
    },
    mtls: {
      'Svc-Provider-Type': 'APACHE_KAFKA', 'Svc-Bootstrap-Server-B': 'b1.example:9093', 'Svc-Broker-Protocol-Type-B': 'MTLS',
      'Svc-Broker-Cert-B': b64(leaf.cert), 'Svc-Broker-Private-Key-B': b64(leaf.key),
      'Svc-Sr-Url-B': 'https://sr.example:8081', 'Svc-Sr-Protocol-Type-B': 'MTLS', 'Svc-Sr-Cert-B': b64(leaf.cert), 'Svc-Sr-Private-Key-B': b64(leaf.key),
    },
  };
}

const upTo = (field: string) => FIELD_SHAPES[field].max;
const PEM_LIKE = (n: number) => `-----BEGIN CERTIFICATE-----\n${'A'.repeat(n)}\n-----END CERTIFICATE-----`;

/** Per field: values its provider would refuse, each of which must be refused here first. */
export const HOSTILE_FIELD_VALUES: Record<string, string[]> = {
  'Svc-Project-Id-A': [KB100, 'a'.repeat(upTo('Svc-Project-Id-A') + 1), 'acme/streaming', '../../v1/me', 'acme streaming', 'ächme', 'acme?x=1', 'acme\r\nX-Injected: 1'],
  'Svc-Service-Name-A': [KB100, 'k'.repeat(upTo('Svc-Service-Name-A') + 1), 'Kafka-Prod', '1kafka', '-kafka', 'kafka_prod', 'kafka/../../acl', 'kafka%2Fx', 'kafka\u0000'],
  'Svc-Auth-Token-A': [KB100, 't'.repeat(upTo('Svc-Auth-Token-A') + 1), 'tok\r\nX-Injected: 1', 'tök€n', 'tok\u0007en'],
  'Svc-Api-Key-C': [KB100, 'ABCD1234567890ABC', 'ABCD1234567890A', 'abcd1234567890ab', 'ABCD-234567890AB', 'ABCD1234567890A\n'],
  'Svc-Secret-C': [KB100, 'a'.repeat(63), 'a'.repeat(65), `${'a'.repeat(63)}-`, `${'a'.repeat(62)}\r\n`],
  'Svc-Bootstrap-Server-B': [KB100, Array.from({ length: 51 }, (_, i) => `b${i}:9092`).join(','), `${'h'.repeat(254)}:9092`, 'b1:0', 'b1:65536', 'b1', 'b 1:9092', 'b1:9092\r\nx'],
  'Svc-Broker-Protocol-Type-B': [KB100, 'SASL/KERBEROS', 'MTLS\u0000'],
  'Svc-Broker-Security-Protocol-Type-B': [KB100, 'PLAINTEXT', 'SSL'],
  'Svc-Broker-Username-B': [KB100, 'u'.repeat(upTo('Svc-Broker-Username-B') + 1), 'user\u0000admin', 'user\r\n', 'user\u007f'],
  'Svc-Broker-Password-B': [KB100, 'p'.repeat(upTo('Svc-Broker-Password-B') + 1), 'pw\u0000x', 'pw\n'],
  'Svc-Broker-Private-Key-B': [PEM_LIKE(upTo('Svc-Broker-Private-Key-B')), 'not a key', b64('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----')],
  'Svc-Broker-Cert-B': [PEM_LIKE(upTo('Svc-Broker-Cert-B')), 'not a certificate', b64(PEM_LIKE(64))],
  'Svc-Broker-CA-Validation-B': [KB100, 'yes', 'maybe'],
  'Svc-Broker-Truststore-B': [PEM_LIKE(upTo('Svc-Broker-Truststore-B')), 'not a truststore', b64('hello')],
  'Svc-Sr-Url-B': [KB100, `https://sr.example/${'a'.repeat(upTo('Svc-Sr-Url-B'))}`, 'ftp://sr.example', 'https://u:p@sr.example', 'javascript:alert(1)', 'sr.example:8081'],
  'Svc-Sr-Protocol-Type-B': [KB100, 'OAuth', 'Bearer'],
  'Svc-Sr-Username-B': [KB100, 'u'.repeat(upTo('Svc-Sr-Username-B') + 1), 'user:name', 'user\r\nX-Injected: 1'],
  'Svc-Sr-Password-B': [KB100, 'p'.repeat(upTo('Svc-Sr-Password-B') + 1), 'pw\r\nX-Injected: 1'],
  'Svc-Sr-Cert-B': [PEM_LIKE(upTo('Svc-Sr-Cert-B')), 'not a certificate'],
  'Svc-Sr-Private-Key-B': [PEM_LIKE(upTo('Svc-Sr-Private-Key-B')), 'not a key'],
  'Svc-Sr-CA-Validation-B': [KB100, 'on'],
  'Svc-Sr-Truststore-B': [PEM_LIKE(upTo('Svc-Sr-Truststore-B')), 'not a truststore'],
};

/** The operations that take provider fields: where the fields sit in the body, and what else the body needs. */
const OPERATIONS: Array<{ path: string; body: (fields: Fields) => unknown; prefix: string }> = [
  { path: '/providers/validateCredentials', body: (f) => f, prefix: '' },
  { path: '/providers/discoverResources', body: (f) => f, prefix: '' },
  { path: '/wizard/topics/info', body: (f) => ({ providerConfigs: f }), prefix: 'providerConfigs.' },
  { path: '/wizard/topics/import', body: (f) => ({ providerConfigs: f, environment: 'fuzz-environment', owners: 'fuzz-owners', topics: ['orders'], dryRun: true }), prefix: 'providerConfigs.' },
];

export interface ProviderFieldCase { field: string; value: string; base: string }

/** Every hostile value of every field, plus `random` over-long strings per field drawn from `seed`. */
export function providerFieldCases(bases: Record<string, Fields>, seed: number, random = 2): ProviderFieldCase[] {
  const cases: ProviderFieldCase[] = [];
  for (const [field, values] of Object.entries(HOSTILE_FIELD_VALUES)) {
    const base = Object.keys(bases).find((b) => field in bases[b]);
    if (!base) throw new Error(`provider fixtures: no valid set carries ${field}`);
    const max = FIELD_SHAPES[field].max;
    // Any characters at all, just past the bound or far past it.
    const long = fc.string({ unit: 'binary', minLength: max + 1, maxLength: Math.min(max * 2, max + 4096) });
    const drawn = fc.sample(long, { seed: seed ^ field.length, numRuns: random });
    for (const value of [...values, ...drawn]) cases.push({ field, value, base });
  }
  return cases;
}

/**
 * Sends every case to every provider operation with a TENANT_ADMIN's token; answers one sentence per breach (empty:
 * every hostile value was refused with 400 naming its field).
 */
export async function providerFieldBreaches(client: RawClient, basePath: string, token: string, bases: Record<string, Fields>, cases: ProviderFieldCase[]): Promise<string[]> {
  const breaches: string[] = [];
  for (const c of cases) {
    for (const op of OPERATIONS) {
      const fields = { ...bases[c.base], [c.field]: c.value };
      const req: RawRequest = {
        method: 'POST', path: `${basePath}${op.path}`, body: JSON.stringify(op.body(fields)),
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      };
      const res = await client.send(req);
      const problem = refusalProblem(res, `${op.prefix}${c.field}`);
      if (problem) breaches.push(`POST ${op.path} ${c.field}=${JSON.stringify(c.value.slice(0, 60))}${c.value.length > 60 ? `… (${c.value.length} chars)` : ''}: ${problem}`);
    }
  }
  return breaches;
}

function refusalProblem(res: RawResponse, field: string): string | undefined {
  const format = responseProblems(res);
  if (format.length > 0) return `${res.status}: ${format.join('; ')}`;
  if (res.status !== 400) return `answered ${res.status}, not 400: ${res.text.slice(0, 200)}`;
  const named = ((res.json as { subErrors?: Array<{ field?: string }> | null }).subErrors ?? []).some((s) => s.field === field);
  return named ? undefined : `400 does not name ${field}: ${res.text.slice(0, 300)}`;
}
